"""Checking a notification's body: the one check the web and the MQTT bridge both call.

``parse_notification(body)`` returns ``(checked, None)`` or ``(None, problem)``, the
problem one sentence naming the field. The checked notification has every field,
defaults filled in:

- ``text``: required, trimmed, 1 to ``MAX_TEXT`` characters, one line (line breaks
  become spaces).
- ``icon``: None, or one of ``{"kind": "builtin", "name"}`` (a name in
  ``icons.BUILTIN_NAMES``), ``{"kind": "asset", "name"}`` (a picture stored in the
  install's ``<assets>/notify_icons/<name>.png`` or ``.gif``; a name that is not
  there when shown draws no icon) or ``{"kind": "pixels", "width", "height",
  "pixels"}`` (row by row, each ``[r, g, b]`` or None for unlit). The body gives a
  name (a built-in name wins over a stored one), a small picture as base64 PNG or GIF
  (a ``data:image/...;base64,`` prefix is allowed; at most ``MAX_IMAGE_BYTES`` bytes
  and ``MAX_ICON_SIDE`` pixels a side: its first frame is kept), or an object
  ``{"width", "height", "pixels"}`` whose pixels are ``"#rrggbb"``, ``[r, g, b]`` or
  null. A checked icon is accepted as it is, so a checked body checks again unchanged.
- ``color``: ``"#rrggbb"`` or ``[r, g, b]``; checked as ``[r, g, b]``; white by default.
- ``duration``: seconds shown, ``MIN_DURATION`` to ``MAX_DURATION``, default
  ``DEFAULT_DURATION``.
- ``repeat``: None, or how many times a text too long for the panel scrolls through
  (1 to ``MAX_REPEAT``); it then replaces ``duration``. A text that fits does not
  scroll, and ``duration`` applies.
- ``priority``: ``low``, ``normal`` (default), ``high`` or ``critical``.
- ``behavior``: ``now``, ``next`` or ``queue`` (default); docs/API.md says how they
  differ.

Sound fields (``sound``, ``rtttl``) are refused: the panel has no speaker. Any other
field not listed is refused by name.
"""

from __future__ import annotations

import base64
import binascii
import io
import re
from typing import Any

from shared.notify.icons import BUILTIN_NAMES

MAX_TEXT = 280
MIN_DURATION, MAX_DURATION, DEFAULT_DURATION = 1.0, 600.0, 8.0
MAX_REPEAT = 20
MAX_ICON_SIDE = 32
MAX_IMAGE_BYTES = 16 * 1024
PRIORITIES = ("low", "normal", "high", "critical")
BEHAVIORS = ("now", "next", "queue")
FIELDS = ("text", "icon", "color", "duration", "repeat", "priority", "behavior")
SOUND_FIELDS = ("sound", "rtttl")
ASSET_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$")
# Stored icons: ``<assets>/notify_icons/<name>.png`` (or ``.gif``), ``name`` an ASSET_NAME.
ICONS_FOLDER = "notify_icons"
EXTENSIONS = (".png", ".gif")
STORED_FILE_BYTES = MAX_IMAGE_BYTES * 4  # a stored icon file read at most


def is_icon_file(file_name: str) -> bool:
    """Whether ``file_name`` is a stored icon's: ``<name>.png`` or ``.gif`` (lower case)."""
    stem, dot, extension = file_name.rpartition(".")
    return bool(dot) and f".{extension}" in EXTENSIONS and bool(ASSET_NAME.match(stem))
_HEX_COLOR = re.compile(r"^#[0-9a-fA-F]{6}$")
_DATA_PREFIX = re.compile(r"^data:image/(png|gif);base64,", re.IGNORECASE)

Checked = tuple[Any, str | None]


def parse_notification(body: Any) -> tuple[dict[str, Any] | None, str | None]:
    """Return the checked notification, or None and the problem as one sentence."""
    if not isinstance(body, dict):
        return None, "the notification must be a JSON object"
    problem = _unknown_fields(body)
    if problem is not None:
        return None, problem
    checked: dict[str, Any] = {}
    for name, check in _CHECKS:
        value, problem = check(body.get(name))
        if problem is not None:
            return None, problem
        checked[name] = value
    return checked, None


def _unknown_fields(body: dict[str, Any]) -> str | None:
    sound = [key for key in body if key in SOUND_FIELDS]
    if sound:
        return f"'{sound[0]}' is not supported: the panel has no speaker"
    unknown = sorted(str(key) for key in body if key not in FIELDS)
    if unknown:
        names = ", ".join(f"'{key[:40]}'" for key in unknown[:5])
        return f"unknown field{'s' if len(unknown) > 1 else ''} {names}: use {', '.join(FIELDS)}"
    return None


def check_text(value: Any) -> Checked:
    """Check ``text``: a string, trimmed, one line, 1 to ``MAX_TEXT`` characters."""
    if value is None:
        return None, "'text' is required"
    if not isinstance(value, str):
        return None, "'text' must be a string"
    text = " ".join(value.split())
    if not text:
        return None, "'text' must not be empty"
    if len(text) > MAX_TEXT:
        return None, f"'text' is longer than {MAX_TEXT} characters"
    return text, None


def parse_color(value: Any, field: str = "color") -> Checked:
    """Check a colour: ``"#rrggbb"`` or ``[r, g, b]`` (0-255); return ``[r, g, b]``."""
    if isinstance(value, str) and _HEX_COLOR.match(value):
        return [int(value[i:i + 2], 16) for i in (1, 3, 5)], None
    if (isinstance(value, list) and len(value) == 3
            and all(isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 255
                    for v in value)):
        return list(value), None
    return None, f"'{field}' must be \"#rrggbb\" or [r, g, b] with each from 0 to 255"


def _check_color(value: Any) -> Checked:
    return ([255, 255, 255], None) if value is None else parse_color(value)


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _check_duration(value: Any) -> Checked:
    if value is None:
        return DEFAULT_DURATION, None
    if not _number(value) or not MIN_DURATION <= value <= MAX_DURATION:
        return None, (f"'duration' must be a number of seconds from {MIN_DURATION:g} "
                      f"to {MAX_DURATION:g}")
    return float(value), None


def _check_repeat(value: Any) -> Checked:
    if value is None:
        return None, None
    if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= MAX_REPEAT:
        return None, f"'repeat' must be a whole number of scrolls from 1 to {MAX_REPEAT}"
    return value, None


def _choice(field: str, choices: tuple[str, ...], default: str) -> Any:
    def check(value: Any) -> Checked:
        if value is None:
            return default, None
        if not isinstance(value, str) or value not in choices:
            return None, f"'{field}' must be one of {', '.join(choices)}"
        return value, None
    return check


def check_icon(value: Any) -> Checked:
    """Check ``icon``: a name, a base64 PNG/GIF or a pixel object (module docstring)."""
    if value is None:
        return None, None
    if isinstance(value, dict) and "kind" in value:
        return _checked_icon(value)
    if isinstance(value, dict):
        return _pixel_object(value)
    if not isinstance(value, str):
        return None, "'icon' must be an icon name, a base64 PNG or GIF, or a pixel object"
    if value in BUILTIN_NAMES:
        return {"kind": "builtin", "name": value}, None
    if ASSET_NAME.match(value):
        return {"kind": "asset", "name": value}, None
    return _base64_image(value)


def _checked_icon(value: dict[str, Any]) -> Checked:
    """Check an icon already in its checked form (a checked body is checked again as is)."""
    kind, name = value.get("kind"), value.get("name")
    if kind == "builtin" and name in BUILTIN_NAMES and set(value) == {"kind", "name"}:
        return {"kind": "builtin", "name": name}, None
    if (kind == "asset" and isinstance(name, str) and ASSET_NAME.match(name)
            and set(value) == {"kind", "name"}):
        return {"kind": "asset", "name": name}, None
    if kind == "pixels":
        return _pixel_object({k: v for k, v in value.items() if k != "kind"})
    return None, "'icon' kind must be builtin or asset with a name, or pixels"


def _base64_image(value: str) -> Checked:
    if len(value) > MAX_IMAGE_BYTES * 4 // 3 + 64:
        return None, f"'icon' image is larger than {MAX_IMAGE_BYTES // 1024} KiB"
    try:
        data = base64.b64decode(_DATA_PREFIX.sub("", value, count=1), validate=True)
    except (binascii.Error, ValueError):
        return None, ("'icon' must be a built-in icon name, a stored icon name "
                      "(letters, digits, - and _), or a base64 PNG or GIF")
    if len(data) > MAX_IMAGE_BYTES:
        return None, f"'icon' image is larger than {MAX_IMAGE_BYTES // 1024} KiB"
    return _decoded_image(data)


def _decoded_image(data: bytes) -> Checked:
    from PIL import Image, UnidentifiedImageError

    try:
        with Image.open(io.BytesIO(data)) as image:
            if image.format not in ("PNG", "GIF"):
                return None, "'icon' image must be a PNG or a GIF"
            if image.width > MAX_ICON_SIDE or image.height > MAX_ICON_SIDE:
                return None, (f"'icon' image is {image.width}x{image.height}: at most "
                              f"{MAX_ICON_SIDE}x{MAX_ICON_SIDE} pixels")
            rgba = image.convert("RGBA")
    except (UnidentifiedImageError, OSError, ValueError, Image.DecompressionBombError):
        return None, "'icon' image could not be read as a PNG or GIF"
    raw = rgba.tobytes()
    pixels = [None if raw[i + 3] < 128 else [raw[i], raw[i + 1], raw[i + 2]]
              for i in range(0, len(raw), 4)]
    return {"kind": "pixels", "width": rgba.width, "height": rgba.height,
            "pixels": pixels}, None


def _side(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= MAX_ICON_SIDE


def _pixel_object(value: dict[str, Any]) -> Checked:
    extra = sorted(str(k) for k in value if k not in ("width", "height", "pixels"))
    if extra:
        return None, f"'icon' has unknown field '{extra[0][:40]}': use width, height, pixels"
    width, height, pixels = value.get("width"), value.get("height"), value.get("pixels")
    if not (_side(width) and _side(height)):
        return None, f"'icon' width and height must be whole numbers from 1 to {MAX_ICON_SIDE}"
    assert isinstance(width, int) and isinstance(height, int)
    if not isinstance(pixels, list) or len(pixels) != width * height:
        return None, f"'icon' pixels must be a list of width x height ({width * height}) colours"
    checked: list[Any] = []
    for index, pixel in enumerate(pixels):
        if pixel is None:
            checked.append(None)
            continue
        color, problem = parse_color(pixel, f"icon pixel {index}")
        if problem is not None:
            return None, problem
        checked.append(color)
    return {"kind": "pixels", "width": width, "height": height, "pixels": checked}, None


_CHECKS: tuple[tuple[str, Any], ...] = (
    ("text", check_text),
    ("icon", check_icon),
    ("color", _check_color),
    ("duration", _check_duration),
    ("repeat", _check_repeat),
    ("priority", _choice("priority", PRIORITIES, "normal")),
    ("behavior", _choice("behavior", BEHAVIORS, "queue")),
)
