"""Query-string parameters of the API views: whole numbers in a range, names from a list.

A bad value is one 400 ``INVALID_FIELD`` naming the parameter, as for body fields.
"""

from __future__ import annotations

import re

from flask import request

from web_service.api.requests import invalid_field


def query_int(name: str, default: int, low: int, high: int) -> int:
    """Return the parameter ``name`` as a whole number in [low, high] (absent: default)."""
    text = request.args.get(name)
    if text is None or text == "":
        return default
    if not re.fullmatch(r"[0-9]{1,20}", text):
        raise invalid_field(name, f"must be a whole number (got {text[:40]!r})")
    value = int(text)
    if not low <= value <= high:
        raise invalid_field(name, f"must be from {low} to {high} (got {value})")
    return value


def query_choice(name: str, choices: tuple[str, ...], default: str | None = None, *,
                 upper: bool = False) -> str | None:
    """Return the parameter ``name`` when it is one of ``choices`` (absent: default);
    ``upper`` compares it in capitals (level names)."""
    text = request.args.get(name)
    if text is None or text == "":
        return default
    value = text.upper() if upper else text
    if value not in choices:
        raise invalid_field(name, f"must be one of {', '.join(choices)} (got {text[:40]!r})")
    return value
