"""Deep merge and type-strict comparison of JSON-like values."""

from __future__ import annotations

import copy
from typing import Any


def deep_merge(base: dict[str, Any], overlay: dict[str, Any]) -> dict[str, Any]:
    """Return a new dict: ``base`` with ``overlay`` merged in, nested dicts merged too.

    Values from ``overlay`` win; lists and scalars are replaced, not merged. Neither
    argument is modified.
    """
    result = copy.deepcopy(base)
    for key, value in overlay.items():
        if isinstance(value, dict) and isinstance(result.get(key), dict):
            result[key] = deep_merge(result[key], value)
        else:
            result[key] = copy.deepcopy(value)
    return result


def merge_changed(base: dict[str, Any], overlay: dict[str, Any]) -> dict[str, Any]:
    """Return ``deep_merge(base, overlay)``, copying only the top-level values ``overlay``
    touches: the others are ``base``'s own objects, shared.

    For a caller that changes the result only by assigning top-level keys (a save plan
    over the shared config snapshot): a large config costs only what the save changes.
    """
    result = dict(base)
    for key, value in overlay.items():
        if isinstance(value, dict) and isinstance(result.get(key), dict):
            result[key] = deep_merge(result[key], value)
        else:
            result[key] = copy.deepcopy(value)
    return result


def same_json(a: Any, b: Any) -> bool:
    """Return whether two JSON values are equal, types included (``1``, ``1.0`` and
    ``True`` differ, unlike with ``==``); key order does not matter."""
    if a is b:  # shared, unchanged parts of a copy-on-write config
        return True
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same_json(a[key], b[key]) for key in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(same_json(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)
