"""Tell whether uploaded bytes are a font the panel can use, by loading them.

A file's name only says which kind to expect (``.bdf``, ``.pcf``, ``.ttf``, ``.otf``);
the bytes must then start like that kind and load twice: with Pillow's own reader for
the kind (``BdfFontFile``, ``PcfFontFile``, ``ImageFont.truetype``) and with FreeType at
the size the display will ask for, since the display loads every font through
``ImageFont.truetype``. Glyph boxes are checked before Pillow's bitmap readers run:
they allocate an image per glyph at whatever size the file claims.
"""

from __future__ import annotations

import io
import re
import struct
from collections.abc import Callable
from typing import Any, Literal

from shared.errors import ValidationError

FontFileKind = Literal["bdf", "pcf", "ttf", "otf"]

#: Kinds by file name suffix.
KINDS: dict[str, FontFileKind] = {".bdf": "bdf", ".pcf": "pcf", ".ttf": "ttf", ".otf": "otf"}
LABELS: dict[str, str] = {"bdf": "BDF bitmap font", "pcf": "PCF bitmap font",
                          "ttf": "TrueType font", "otf": "OpenType font"}
_OUTLINE_MAGIC = (b"\x00\x01\x00\x00", b"OTTO", b"true")
MAGIC: dict[str, tuple[bytes, ...]] = {"bdf": (b"STARTFONT",), "pcf": (b"\x01fcp",),
                                       "ttf": _OUTLINE_MAGIC, "otf": _OUTLINE_MAGIC}
#: The largest glyph box (width or height, pixels) a bitmap font may claim.
MAX_GLYPH_PX = 256
#: The tallest native size looked for in a bitmap font that does not state one.
MAX_NATIVE_PX = 128
#: Sizes a scalable font must load at (a bitmap-only TrueType file fails here).
OUTLINE_PROBE_SIZES = (8, 24)
# What Pillow's and FreeType's readers raise on a malformed file, as found by trying
# truncated and garbage files: they do not keep to one exception type.
_PARSE_ERRORS = (OSError, SyntaxError, ValueError, KeyError, IndexError, TypeError,
                 EOFError, struct.error)

_BDF_BOX = re.compile(rb"^(?:FONTBOUNDINGBOX|BBX)[ \t]+(-?\d+)[ \t]+(-?\d+)", re.MULTILINE)
_BDF_PIXEL_SIZE = re.compile(rb"^PIXEL_SIZE[ \t]+(\d+)", re.MULTILINE)
_PCF_METRICS = 1 << 2
_PCF_COMPRESSED_METRICS = 0x100
_PCF_BIG_ENDIAN = 1 << 2


def kind_for_name(name: str) -> FontFileKind | None:
    """Return the font kind a file name's suffix names, or None."""
    dot = name.rfind(".")
    return KINDS.get(name[dot:].lower()) if dot > 0 else None


def invalid_font(name: str, why: str) -> ValidationError:
    """Return the error for an uploaded file that is not a usable font."""
    return ValidationError(f"{name[:80]!r} is not a usable font: {why}",
                           error_code="INVALID_FONT", details={"field": "font_file"})


def check_font(data: bytes, kind: FontFileKind, name: str) -> int | None:
    """Return the native pixel size of a bitmap font (None for TTF/OTF) once it loads.

    Raises ValidationError ``INVALID_FONT`` naming what is wrong.
    """
    if not data.startswith(MAGIC[kind]):
        raise invalid_font(name, f"it does not start like a {LABELS[kind]}")
    checks: dict[str, Callable[[bytes, str], int | None]] = {
        "bdf": _check_bdf, "pcf": _check_pcf, "ttf": _check_outline, "otf": _check_outline}
    return checks[kind](data, name)


def _compiled(reader: Any, data: bytes, name: str, kind: str) -> Any:
    """Return ``data`` read and compiled by Pillow's ``reader``; refuse it without glyphs."""
    try:
        parsed = reader(io.BytesIO(data))
        parsed.compile()
    except _PARSE_ERRORS as err:
        raise invalid_font(name, f"Pillow cannot read it as {kind} ({_say(err)})") from None
    if not any(parsed.glyph):
        raise invalid_font(name, "it holds no glyphs")
    return parsed


def _check_bdf(data: bytes, name: str) -> int:
    for match in _BDF_BOX.finditer(data):
        _check_box(name, int(match.group(1)), int(match.group(2)))
    from PIL import BdfFontFile  # only when a font is checked: Pillow is large

    _compiled(BdfFontFile.BdfFontFile, data, name, "BDF")
    stated = _BDF_PIXEL_SIZE.search(data)
    return _freetype_native(data, name, int(stated.group(1)) if stated else None)


def _check_pcf(data: bytes, name: str) -> int:
    for width, height in pcf_glyph_boxes(data, name):
        _check_box(name, width, height)
    from PIL import PcfFontFile

    parsed = _compiled(PcfFontFile.PcfFontFile, data, name, "PCF")
    stated = parsed.info.get(b"PIXEL_SIZE") if isinstance(parsed.info, dict) else None
    return _freetype_native(data, name, stated if isinstance(stated, int) else None)


def _check_outline(data: bytes, name: str) -> None:
    from PIL import ImageFont

    try:
        for size in OUTLINE_PROBE_SIZES:
            font = ImageFont.truetype(io.BytesIO(data), size)
            font.getbbox("Ag")
    except _PARSE_ERRORS as err:
        raise invalid_font(name, f"FreeType cannot load it at {size} px ({_say(err)})") from None
    return None


def _freetype_native(data: bytes, name: str, stated: int | None) -> int:
    """Return the pixel size FreeType loads a bitmap font at: the stated one, else probed."""
    sizes = [stated] if stated and 0 < stated <= MAX_NATIVE_PX else []
    sizes += [s for s in range(1, MAX_NATIVE_PX + 1) if s not in sizes]
    from PIL import ImageFont

    for size in sizes:
        try:
            ImageFont.truetype(io.BytesIO(data), size).getbbox("A")
        except _PARSE_ERRORS:
            continue
        return size
    raise invalid_font(name, f"FreeType loads it at no size from 1 to {MAX_NATIVE_PX} px")


def pcf_glyph_boxes(data: bytes, name: str) -> list[tuple[int, int]]:
    """Return (width, height) of every glyph in a PCF file's metrics table."""
    try:
        (count,) = struct.unpack_from("<i", data, 4)
        if not 0 < count <= 64:  # the format defines nine table types
            raise invalid_font(name, "its table of contents is damaged")
        for index in range(count):
            kind, fmt, _size, offset = struct.unpack_from("<iiii", data, 8 + 16 * index)
            if kind == _PCF_METRICS:
                return _pcf_metrics(data, offset)
    except struct.error:
        raise invalid_font(name, "it ends inside its tables") from None
    raise invalid_font(name, "it has no metrics table")


def _pcf_metrics(data: bytes, offset: int) -> list[tuple[int, int]]:
    (fmt,) = struct.unpack_from("<i", data, offset)
    order = ">" if fmt & _PCF_BIG_ENDIAN else "<"
    boxes = []
    if fmt & 0xFFFFFF00 == _PCF_COMPRESSED_METRICS:
        (count,) = struct.unpack_from(order + "H", data, offset + 4)
        for index in range(count):
            left, right, _width, ascent, descent = (
                b - 0x80 for b in struct.unpack_from("5B", data, offset + 6 + 5 * index))
            boxes.append((right - left, ascent + descent))
    else:
        (count,) = struct.unpack_from(order + "i", data, offset + 4)
        if count < 0 or offset + 8 + 12 * count > len(data):
            raise struct.error("metrics past the end")
        for index in range(count):
            left, right, _width, ascent, descent = struct.unpack_from(
                order + "5h", data, offset + 8 + 12 * index)
            boxes.append((right - left, ascent + descent))
    return boxes


def _check_box(name: str, width: int, height: int) -> None:
    if not (0 <= width <= MAX_GLYPH_PX and 0 <= height <= MAX_GLYPH_PX):
        raise invalid_font(name, f"a glyph box of {width}x{height} px; at most "
                                 f"{MAX_GLYPH_PX}x{MAX_GLYPH_PX} px is accepted")


def _say(err: BaseException) -> str:
    text = str(err).strip() or type(err).__name__
    return text[:120]
