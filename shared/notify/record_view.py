"""The display's ``notifications`` record as readers see it: checked field by field.

The web (``GET /api/v3/notify``) and the MQTT bridge read the record another process
wrote, which anyone able to write the bus folder could replace: ``record_view``
keeps only well-formed entries and fields, never raises, and leaves the icons' pixels
out (a reader needs to know there is a picture, not its pixels).
"""

from __future__ import annotations

import math
from typing import Any

from shared.notify.fields import BEHAVIORS, MAX_TEXT, PRIORITIES, parse_color
from shared.notify.requests import ID_PATTERN, SOURCES

QUEUE_STATES = ("showing", "waiting")
FINISHED_STATES = ("shown", "dismissed", "expired", "dropped")
MAX_ENTRIES = 100
MAX_REASON = 200


def record_view(record: Any) -> dict[str, list[dict[str, Any]]]:
    """Return ``{"queue": [...], "recent": [...]}`` from a record, malformed parts left out."""
    record = record if isinstance(record, dict) else {}
    queue, recent = record.get("queue"), record.get("recent")
    return {
        "queue": [e for e in map(queue_entry, _items(queue)) if e is not None],
        "recent": [e for e in map(recent_entry, _items(recent)) if e is not None],
    }


def _items(value: Any) -> list[Any]:
    return value[:MAX_ENTRIES] if isinstance(value, list) else []


def _time(value: Any) -> float | None:
    if isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value):
        return float(value)
    return None


def _text(value: Any, limit: int) -> str | None:
    return value[:limit] if isinstance(value, str) and value else None


def _choice(value: Any, choices: tuple[str, ...]) -> str | None:
    return value if isinstance(value, str) and value in choices else None


def _icon(value: Any) -> dict[str, Any] | None:
    if not isinstance(value, dict):
        return None
    kind = _choice(value.get("kind"), ("builtin", "asset", "pixels"))
    if kind == "pixels":
        return {"kind": kind, "width": value.get("width") if isinstance(
            value.get("width"), int) else None, "height": value.get("height") if isinstance(
            value.get("height"), int) else None}
    name = _text(value.get("name"), 64)
    return {"kind": kind, "name": name} if kind and name else None


def queue_entry(value: Any) -> dict[str, Any] | None:
    """Return one waiting or showing notification, or None when it is not one."""
    if not isinstance(value, dict):
        return None
    nid, state = value.get("id"), _choice(value.get("state"), QUEUE_STATES)
    if not isinstance(nid, str) or not ID_PATTERN.match(nid) or state is None:
        return None
    color, _problem = parse_color(value.get("color"))
    repeat = value.get("repeat")
    return {
        "id": nid, "state": state, "text": _text(value.get("text"), MAX_TEXT),
        "priority": _choice(value.get("priority"), PRIORITIES),
        "behavior": _choice(value.get("behavior"), BEHAVIORS),
        "source": _choice(value.get("source"), SOURCES),
        "added_at": _time(value.get("added_at")), "shown_at": _time(value.get("shown_at")),
        "duration": _time(value.get("duration")),
        "repeat": repeat if isinstance(repeat, int) and not isinstance(repeat, bool) else None,
        "color": color, "icon": _icon(value.get("icon")),
    }


def recent_entry(value: Any) -> dict[str, Any] | None:
    """Return one finished notification, or None when it is not one."""
    if not isinstance(value, dict):
        return None
    nid, state = value.get("id"), _choice(value.get("state"), FINISHED_STATES)
    if not isinstance(nid, str) or not ID_PATTERN.match(nid) or state is None:
        return None
    return {"id": nid, "state": state, "reason": _text(value.get("reason"), MAX_REASON),
            "source": _choice(value.get("source"), SOURCES),
            "text": _text(value.get("text"), MAX_TEXT)}
