"""Deep merge of JSON-like dicts."""

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
