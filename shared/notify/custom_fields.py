"""A custom app's body, checked once for the web and the MQTT bridge alike.

``parse_custom_app(name, body)`` returns the checked app (every field present, defaults
filled in) or the problem as one sentence naming the field. Unknown fields are refused
by name, so a typo never passes silently.

Fields: ``text`` (what to show), ``icon`` and ``color`` (as a notification's, checked by
``shared.notify.fields``: an icon name, a small base64 PNG or GIF or a pixel object,
drawn on the left; ``"#rrggbb"`` or ``[r, g, b]``), ``duration`` (seconds of its
rotation slot), ``repeat`` (the slot ends after the text scrolled through that many
times, when it scrolls), ``frames`` and ``frame_ms`` (pixel frames, below) and
``lifetime`` (seconds from the request until the app is removed; none: until removed).
The checked app keeps ``icon`` as it was sent (``fields.check_icon`` makes it the spec
a card draws), so a checked app checks again as itself.

Pixel frames: ``frames`` is a list of frames, each a list of pixels ``[x, y, r, g, b]``
from the panel's top-left corner (pixels beyond the panel are not drawn); the frames
loop every ``frame_ms`` milliseconds. Bounded: ``MAX_FRAMES`` frames,
``MAX_FRAME_PIXELS`` pixels in one frame, ``MAX_PIXELS`` in all, coordinates within
``MAX_X``/``MAX_Y``.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from typing import Any

from shared.notify.fields import check_icon, parse_color

NAME_PATTERN = re.compile(r"[a-z0-9][a-z0-9_-]{0,31}")
MAX_TEXT = 500
DURATION = (1.0, 3600.0, 10.0)  # lowest, highest, default: seconds of the rotation slot
REPEAT = (1, 100)
LIFETIME = (1.0, 30 * 86400.0)
FRAME_MS = (20, 10_000, 100)
MAX_FRAMES = 32
MAX_FRAME_PIXELS = 128 * 64
MAX_PIXELS = 16_384
MAX_X, MAX_Y = 511, 255
DEFAULT_COLOR = [255, 255, 255]
FIELDS = ("text", "icon", "color", "duration", "repeat", "frames", "frame_ms", "lifetime")

Checked = tuple[Any, str | None]


def name_problem(name: Any) -> str | None:
    """Why ``name`` cannot name a custom app, or None when it can."""
    if not isinstance(name, str) or not NAME_PATTERN.fullmatch(name):
        shown = name[:40] if isinstance(name, str) else type(name).__name__
        return (f"custom app name {shown!r} is not allowed: use 1 to 32 lower-case "
                "letters, digits, '-' or '_', starting with a letter or digit")
    return None


def parse_custom_app(name: Any, body: Any) -> tuple[dict[str, Any] | None, str | None]:
    """Check a custom app's ``name`` and ``body``: (the checked app, None) or (None, why)."""
    problem = name_problem(name)
    if problem is not None:
        return None, problem
    if not isinstance(body, dict):
        return None, "the custom app must be a JSON object"
    unknown = sorted(str(key)[:40] for key in body if key not in FIELDS)
    if unknown:
        names = ", ".join(f"'{key}'" for key in unknown[:5])
        return None, (f"unknown field{'s' if len(unknown) > 1 else ''} {names}: "
                      f"a custom app takes {', '.join(FIELDS)}")
    checked: dict[str, Any] = {}
    for field, check in _CHECKS:
        value, problem = check(body.get(field))
        if problem is not None:
            return None, problem if problem.startswith("'") else f"'{field}' {problem}"
        checked[field] = value
    if not checked["text"] and checked["icon"] is None and not checked["frames"]:
        return None, "'text' is needed: a custom app shows text, an icon or frames"
    return checked, None


def _text(value: Any) -> Checked:
    if value is None:
        return "", None
    if not isinstance(value, str):
        return None, "must be a string"
    if len(value) > MAX_TEXT:
        return None, f"is {len(value)} characters long; at most {MAX_TEXT} are shown"
    if any(ord(c) < 32 and c != "\n" or ord(c) == 127 for c in value):
        return None, "must not hold control characters"
    return value.replace("\n", " "), None


def _icon(value: Any) -> Checked:
    """The icon as sent, once ``fields.check_icon`` accepts it."""
    _spec, problem = check_icon(value)
    return (None, problem) if problem is not None else (value, None)


def _color(value: Any) -> Checked:
    return (list(DEFAULT_COLOR), None) if value is None else parse_color(value)


def _number(low: float, high: float, default: float | None) -> Callable[[Any], Checked]:
    def check(value: Any) -> Checked:
        if value is None:
            return default, None
        if (isinstance(value, bool) or not isinstance(value, int | float)
                or not math.isfinite(value) or not low <= value <= high):
            return None, f"must be a number of seconds from {low:g} to {high:g}"
        return float(value), None
    return check


def _int_field(low: int, high: int, default: int | None) -> Callable[[Any], Checked]:
    def check(value: Any) -> Checked:
        if value is None:
            return default, None
        if not _int_in(value, low, high):
            return None, f"must be a whole number from {low} to {high}"
        return value, None
    return check


def _int_in(value: Any, low: int, high: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


def _frames(value: Any) -> Checked:
    if value is None or value == []:
        return [], None
    if not isinstance(value, list):
        return None, "must be a list of frames, each a list of [x, y, r, g, b] pixels"
    if len(value) > MAX_FRAMES:
        return None, f"has {len(value)} frames; at most {MAX_FRAMES} are allowed"
    total = 0
    for index, frame in enumerate(value):
        if not isinstance(frame, list):
            return None, f"'frames': frame {index} must be a list of [x, y, r, g, b] pixels"
        if len(frame) > MAX_FRAME_PIXELS:
            return None, (f"'frames': frame {index} has {len(frame)} pixels; at most "
                          f"{MAX_FRAME_PIXELS} are allowed in one frame")
        total += len(frame)
        if total > MAX_PIXELS:
            return None, f"holds more than {MAX_PIXELS} pixels in all"
        problem = _pixels_problem(frame)
        if problem is not None:
            return None, f"'frames': frame {index}: {problem}"
    return [[list(pixel) for pixel in frame] for frame in value], None


def _pixels_problem(frame: list[Any]) -> str | None:
    for index, pixel in enumerate(frame):
        if not (isinstance(pixel, list) and len(pixel) == 5 and _int_in(pixel[0], 0, MAX_X)
                and _int_in(pixel[1], 0, MAX_Y)
                and all(_int_in(v, 0, 255) for v in pixel[2:])):
            return (f"pixel {index} must be [x, y, r, g, b]: x 0 to {MAX_X}, y 0 to {MAX_Y}, "
                    "each colour 0 to 255")
    return None


_CHECKS: tuple[tuple[str, Callable[[Any], Checked]], ...] = (
    ("text", _text),
    ("icon", _icon),
    ("color", _color),
    ("duration", _number(DURATION[0], DURATION[1], DURATION[2])),
    ("repeat", _int_field(REPEAT[0], REPEAT[1], None)),
    ("frames", _frames),
    ("frame_ms", _int_field(FRAME_MS[0], FRAME_MS[1], FRAME_MS[2])),
    ("lifetime", _number(LIFETIME[0], LIFETIME[1], None)),
)
