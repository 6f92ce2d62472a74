"""A font's preview: sample text in white on black, as a PNG of bounded size.

A bitmap font is drawn at its native size whatever size is asked for (the display
does the same) and without smoothing, so the preview shows the pixels the panel will.
"""

from __future__ import annotations

import io
import unicodedata

from PIL import Image, ImageDraw, ImageFont

from shared.errors import ValidationError
from shared.fonts.catalog import FontInfo

MAX_WIDTH, MAX_HEIGHT = 1024, 256
MAX_TEXT_CHARS = 100
MIN_SIZE_PX, MAX_SIZE_PX = 4, 128
DEFAULT_TEXT = "The quick brown fox 0123456789"
DEFAULT_SIZE_PX = 16
PADDING = 2


def check_size(value: str | None) -> int | None:
    """Return the pixel size a query asks for (None: the font's own), or raise 400."""
    if value is None or value == "":
        return None
    if not value.isascii() or not value.isdigit() or not (
            MIN_SIZE_PX <= int(value[:6]) <= MAX_SIZE_PX):
        raise ValidationError(f"size {value[:20]!r} is not a whole number of pixels from "
                              f"{MIN_SIZE_PX} to {MAX_SIZE_PX}", error_code="INVALID_FIELD",
                              details={"field": "size", "minimum": MIN_SIZE_PX,
                                       "maximum": MAX_SIZE_PX})
    return int(value)


def check_text(value: str | None) -> str:
    """Return the sample text a query asks for (a default when none), or raise 400."""
    if value is None or value == "":
        return DEFAULT_TEXT
    if len(value) > MAX_TEXT_CHARS:
        raise ValidationError(f"text is {len(value)} characters; at most {MAX_TEXT_CHARS}",
                              error_code="INVALID_FIELD", details={"field": "text"})
    if any(unicodedata.category(ch) in ("Cc", "Cs") for ch in value):
        raise ValidationError("text holds control characters; send one line of text",
                              error_code="INVALID_FIELD", details={"field": "text"})
    return value


def preview_size(info: FontInfo, requested: int | None) -> int:
    """Return the size a font is drawn at: a bitmap font's native size, else ``requested``."""
    if info.native_size is not None:
        return info.native_size
    return requested or DEFAULT_SIZE_PX


def render_png(font_data: bytes, info: FontInfo, size: int, text: str) -> bytes:
    """Return ``text`` drawn in the font at ``size`` px, white on black, as PNG bytes."""
    font = ImageFont.truetype(io.BytesIO(font_data), size)
    ascent, descent = font.getmetrics()
    width = int(font.getlength(text)) if text.strip() else 0
    left = min(0, int(font.getbbox(text)[0]))
    image = Image.new("RGB", (min(MAX_WIDTH, max(1, width - left + 2 * PADDING)),
                              min(MAX_HEIGHT, max(1, ascent + descent + 2 * PADDING))))
    draw = ImageDraw.Draw(image)
    if info.kind == "bitmap":
        draw.fontmode = "1"  # no smoothing: the pixels the panel shows
    draw.text((PADDING - left, PADDING), text, font=font, fill=(255, 255, 255))
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()
