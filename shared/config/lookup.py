"""Look up a dotted config path in a table whose keys may hold ``*`` (one key)."""

from __future__ import annotations

import fnmatch
from collections.abc import Mapping
from typing import TypeVar

T = TypeVar("T")


def path_lookup(table: Mapping[str, T], name: str) -> T | None:
    """Return the entry of a dotted path: an exact key first, else the first ``*`` pattern."""
    exact = table.get(name)
    if exact is not None:
        return exact
    for pattern, entry in table.items():
        if "*" in pattern and fnmatch.fnmatchcase(name, pattern):
            return entry
    return None
