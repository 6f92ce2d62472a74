"""Config migration: add what the template has and the config lacks, touch nothing else."""

from __future__ import annotations

import copy
from typing import Any


def migrate(config: dict[str, Any], template: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """Return ``config`` with missing template keys added, and the dotted paths added.

    Existing values are never altered, not even when their type differs from the
    template's (an object in the template does not replace a stored scalar). Keys the
    template lacks (plugin sections, legacy keys) are kept as they are.
    """
    result = copy.deepcopy(config)
    added: list[str] = []
    _fill(result, template, "", added)
    return result, added


def _fill(target: dict[str, Any], template: dict[str, Any], prefix: str, added: list[str]) -> None:
    for key, default in template.items():
        path = f"{prefix}{key}"
        if key not in target:
            target[key] = copy.deepcopy(default)
            added.append(path)
        elif isinstance(default, dict) and isinstance(target[key], dict):
            _fill(target[key], default, f"{path}.", added)
