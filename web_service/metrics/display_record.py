"""The display's ``display_metrics`` record read as untrusted: field by field.

Anyone who can write the bus folder can write anything there: a field of the wrong type
or out of range reads as None (counts as 0), a plugin entry that is not an object or
whose id is not a plain name is left out, and at most ``MAX_PLUGINS`` are taken.
"""

from __future__ import annotations

import math
from typing import Any

from shared.bus.display_status import timestamp
from shared.ids import is_plain_segment

MAX_PLUGINS = 200
MAX_COUNT = 2**53  # a float's exact integers: larger is no count of ours
MAX_SECONDS = 10.0**9
FRAME_FIELDS = ("fps", "frame_seconds_p50", "frame_seconds_p95")
PLUGIN_COUNTS = ("display_calls", "update_calls")
PLUGIN_SECONDS = ("display_seconds", "display_max_seconds", "update_seconds",
                  "update_max_seconds")


def display_metrics(record: Any) -> dict[str, Any] | None:
    """Return the record's figures checked, None when it is not an object."""
    if not isinstance(record, dict):
        return None
    frames = _dict(record.get("frames"))
    return {
        "pid": _count(record.get("pid")),
        "at": timestamp(record.get("at")),
        "frames": {"drawn": _count(frames.get("drawn")) or 0,
                   "dropped": _count(frames.get("dropped")) or 0,
                   **{name: _seconds(frames.get(name)) for name in FRAME_FIELDS}},
        "plugins": _plugins(record.get("plugins")),
        "cache": _cache(record.get("cache")),
        "viewer_written_at": timestamp(record.get("viewer_written_at")),
        "viewer_seen_at": timestamp(record.get("viewer_seen_at")),
    }


def _plugins(value: Any) -> dict[str, dict[str, Any]]:
    found: dict[str, dict[str, Any]] = {}
    for plugin_id, entry in _dict(value).items():
        if len(found) >= MAX_PLUGINS:
            break
        if not (isinstance(plugin_id, str) and is_plain_segment(plugin_id)
                and isinstance(entry, dict)):
            continue
        found[plugin_id] = {**{name: _count(entry.get(name)) or 0 for name in PLUGIN_COUNTS},
                            **{name: _seconds(entry.get(name)) or 0.0
                               for name in PLUGIN_SECONDS}}
    return found


def _cache(value: Any) -> dict[str, Any] | None:
    if not isinstance(value, dict):
        return None
    hits, misses = _count(value.get("hits")), _count(value.get("misses"))
    if hits is None or misses is None:
        return None
    lookups = hits + misses
    return {"hits": hits, "misses": misses,
            "hit_rate": round(hits / lookups, 4) if lookups else None}


def _count(value: Any) -> int | None:
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= MAX_COUNT:
        return value
    return None


def _seconds(value: Any) -> float | None:
    if isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(
            value) and 0 <= value <= MAX_SECONDS:
        return float(value)
    return None


def _dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}
