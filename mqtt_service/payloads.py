"""Reading command payloads from the broker: untrusted bytes into checked values.

Each reader returns the value or raises ``CommandError`` with one sentence naming the
problem; the bridge logs it and publishes it on ``<base>/error``.
"""

from __future__ import annotations

import json
import math
from typing import Any

from shared.config.limits import MAX_ON_DEMAND_SECONDS, MIN_DISPLAY_SECONDS
from shared.ids import is_plain_segment

MAX_PAYLOAD = 64 * 1024  # bytes; a notification with a small image fits
MAX_SHORT = 1024  # bytes of a command that holds a word or a number


class CommandError(Exception):
    """A command payload that cannot be acted on; the message says why."""


def text(payload: bytes, limit: int = MAX_SHORT) -> str:
    """Return ``payload`` as UTF-8 text without surrounding white space."""
    if len(payload) > limit:
        raise CommandError(f"the payload is {len(payload)} bytes; at most {limit} are taken")
    try:
        return payload.decode("utf-8").strip()
    except UnicodeDecodeError:
        raise CommandError("the payload is not UTF-8 text") from None


def json_object(payload: bytes, limit: int = MAX_PAYLOAD) -> dict[str, Any]:
    """Return ``payload`` as a JSON object."""
    raw = text(payload, limit)
    try:
        value = json.loads(raw, parse_constant=_refuse_constant)
    except (ValueError, RecursionError):
        raise CommandError("the payload is not valid JSON") from None
    if not isinstance(value, dict):
        raise CommandError("the payload must be a JSON object")
    return value


def _refuse_constant(name: str) -> None:
    raise ValueError(f"{name} is not JSON")


def power(payload: bytes) -> bool:
    """``ON`` or ``OFF`` (any case) -> True or False."""
    word = text(payload).upper()
    if word not in ("ON", "OFF"):
        raise CommandError(f"power takes ON or OFF, not {word[:40]!r}")
    return word == "ON"


def brightness(payload: bytes) -> int:
    """A whole number 0-100 (``55`` or ``55.0``)."""
    word = text(payload)
    try:
        value = float(word)
    except ValueError:
        raise CommandError(f"brightness takes a number from 0 to 100, not {word[:40]!r}") \
            from None
    if not math.isfinite(value) or not 0 <= value <= 100 or value != int(value):
        raise CommandError(f"brightness takes a whole number from 0 to 100, not {word[:40]!r}")
    return int(value)


def plugin_id(value: Any, enabled: list[str], what: str = "plugin_id") -> str:
    """A plugin id among the enabled plugins."""
    if not isinstance(value, str) or not is_plain_segment(value) or len(value) > 100:
        raise CommandError(f"{what} must be a plugin id (letters, digits, - and _)")
    if value not in enabled:
        shown = ", ".join(enabled[:20]) or "none"
        raise CommandError(f"{what} {value!r} is not an enabled plugin; enabled: {shown}")
    return value


def on_demand(payload: bytes, enabled: list[str]) -> dict[str, Any]:
    """``stop``, or ``{plugin_id, mode?, duration?}``: the on-demand request to queue."""
    if text(payload, MAX_PAYLOAD).lower() == "stop":
        return {"action": "stop"}
    body = json_object(payload)
    unknown = sorted(set(body) - {"plugin_id", "mode", "duration"})
    if unknown:
        raise CommandError(f"on_demand has no field {unknown[0]!r}; fields: plugin_id, "
                           "mode, duration")
    mode = body.get("mode")
    if mode is not None and (not isinstance(mode, str) or not mode or len(mode) > 100):
        raise CommandError("mode must be a text of at most 100 characters")
    return {"action": "start", "plugin_id": plugin_id(body.get("plugin_id"), enabled),
            "mode": mode, "duration": _duration(body.get("duration")), "pinned": False}


def _duration(value: Any) -> float | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) \
            or not MIN_DISPLAY_SECONDS <= value <= MAX_ON_DEMAND_SECONDS:
        raise CommandError(f"duration must be {MIN_DISPLAY_SECONDS:g} to "
                           f"{MAX_ON_DEMAND_SECONDS:g} seconds")
    return float(value)


def notification(payload: bytes) -> dict[str, Any]:
    """A JSON object as ``POST /api/v3/notify`` takes, or plain text: the text."""
    raw = text(payload, MAX_PAYLOAD)
    return json_object(payload) if raw.startswith("{") else {"text": raw}
