"""The ``custom_apps`` bus record: the custom apps the display holds, and its answers.

Written by the display's ``custom-apps`` plugin whenever its apps or outcomes change,
read by the web (``GET /api/v3/custom``, the plugin's modes) and the MQTT bridge:
``{"apps": [summary, ...], "requests": {request_id: {"name", "outcome", "problem"}},
"updated_at"}``. A summary is an app without its pixels: ``name``, ``mode``, ``text``,
``icon``, ``color``, ``duration``, ``repeat``, ``frames`` (how many), ``frame_ms``,
``lifetime``, ``source``, ``set_at``, ``expires_at`` (wall times).

The reader treats the record as untrusted: an entry that is not a well-formed summary is
left out, and an app past its ``expires_at`` is not listed (the display drops it within
its update interval; nobody should see it meanwhile).
"""

from __future__ import annotations

import math
from typing import Any

from shared.notify.custom_fields import name_problem
from shared.notify.custom_requests import SOURCES, mode_of

MAX_OUTCOMES = 20
OUTCOMES = ("set", "removed", "not_found", "expired", "refused")


def summary(name: str, app: dict[str, Any], source: str, set_at: float,
            expires_at: float | None) -> dict[str, Any]:
    """One app as the record lists it (checked fields, no pixels)."""
    return {"name": name, "mode": mode_of(name), "text": app.get("text", ""),
            "icon": app.get("icon"), "color": app.get("color"),
            "duration": app.get("duration"), "repeat": app.get("repeat"),
            "frames": len(app.get("frames") or []), "frame_ms": app.get("frame_ms"),
            "lifetime": app.get("lifetime"), "source": source, "set_at": set_at,
            "expires_at": expires_at}


def listed_apps(record: Any, now: float) -> list[dict[str, Any]]:
    """The record's apps that are well formed and not expired, by name."""
    apps = record.get("apps") if isinstance(record, dict) else None
    if not isinstance(apps, list):
        return []
    found: dict[str, dict[str, Any]] = {}
    for entry in apps[:100]:
        if _well_formed(entry) and not _expired(entry, now):
            found.setdefault(entry["name"], _copy(entry))
    return [found[name] for name in sorted(found)]


def request_outcome(record: Any, request_id: str) -> dict[str, Any] | None:
    """The display's answer to one request, when the record holds a well-formed one."""
    requests = record.get("requests") if isinstance(record, dict) else None
    answer = requests.get(request_id) if isinstance(requests, dict) else None
    if not isinstance(answer, dict) or answer.get("outcome") not in OUTCOMES:
        return None
    problem = answer.get("problem")
    name = answer.get("name")
    return {"name": name if isinstance(name, str) and name_problem(name) is None else "",
            "outcome": answer["outcome"],
            "problem": problem[:300] if isinstance(problem, str) else None}


def _well_formed(entry: Any) -> bool:
    if not isinstance(entry, dict) or name_problem(entry.get("name")) is not None:
        return False
    expires = entry.get("expires_at")
    return (_number(entry.get("set_at")) and (expires is None or _number(expires))
            and isinstance(entry.get("text"), str) and _number(entry.get("duration")))


def _expired(entry: dict[str, Any], now: float) -> bool:
    expires = entry.get("expires_at")
    return expires is not None and now >= expires


def _copy(entry: dict[str, Any]) -> dict[str, Any]:
    """The fields a reader shows, each checked (a malformed one reads as absent)."""
    icon, color, repeat = entry.get("icon"), entry.get("color"), entry.get("repeat")
    frames, frame_ms, lifetime = entry.get("frames"), entry.get("frame_ms"), entry.get("lifetime")
    source = entry.get("source")
    return {"name": entry["name"], "mode": mode_of(entry["name"]),
            "text": entry["text"][:500], "icon": icon if isinstance(icon, str) else None,
            "color": _color(color), "duration": entry["duration"],
            "repeat": repeat if _number(repeat) else None,
            "frames": frames if _number(frames) else 0,
            "frame_ms": frame_ms if _number(frame_ms) else None,
            "lifetime": lifetime if _number(lifetime) else None,
            "source": source if source in SOURCES else None,
            "set_at": entry["set_at"], "expires_at": entry.get("expires_at")}


def _color(value: Any) -> list[int] | None:
    if (isinstance(value, list) and len(value) == 3
            and all(isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 255
                    for v in value)):
        return list(value)
    return None


def _number(value: Any) -> bool:
    return (isinstance(value, int | float) and not isinstance(value, bool)
            and math.isfinite(value) and value >= 0)
