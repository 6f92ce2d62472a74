"""ModuleSource: a module apps load, as Starlark text plus the Python functions it calls."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class ModuleSource:
    """Starlark ``text`` evaluated with ``functions`` bound as globals (names start ``_py_``)."""

    text: str
    functions: dict[str, Callable[..., Any]] = field(default_factory=dict)


class ModuleRefused(Exception):
    """An app called a module function this runtime does not provide."""
