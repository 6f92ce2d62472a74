"""Placeholder logos: drawn, stamped and recognised (the existing system's format too).

A failed logo download leaves a grey box with the team's abbreviation, its PNG text
stamped with ``PLACEHOLDER_MARKER`` and the time, so it is retried after
``PLACEHOLDER_RETRY_SECONDS``; an unstamped 64x64 box of ``PLACEHOLDER_BG``, as the
existing system wrote them, counts as one too. ``LogoHelper`` draws its in-memory
placeholders with the same ``placeholder_image``.
"""

from __future__ import annotations

import io
import math
import os
import time
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont
from PIL.PngImagePlugin import PngInfo

# The existing system's placeholder format, so placeholders it left are recognised too.
PLACEHOLDER_MARKER = "ledmatrix_placeholder"
PLACEHOLDER_SIZE = (64, 64)
PLACEHOLDER_BG = (100, 100, 100, 255)
PLACEHOLDER_RETRY_SECONDS = 6 * 60 * 60


def is_placeholder_logo(filepath: str | os.PathLike[str]) -> bool:
    """Return whether the file is a placeholder (stamped, or the existing system's grey box)."""
    try:
        with Image.open(filepath) as image:
            if image.info.get(PLACEHOLDER_MARKER):
                return True
            return bool(image.size == PLACEHOLDER_SIZE
                        and image.convert("RGBA").getpixel((0, 0)) == PLACEHOLDER_BG)
    except Exception:  # Pillow raises many kinds for a damaged file: no placeholder
        return False


def should_attempt_download(filepath: str | os.PathLike[str], force_download: bool = False
                            ) -> bool:
    """Return whether to fetch the real logo: none there, forced, or an old placeholder."""
    path = Path(filepath)
    if force_download or not path.exists():
        return True
    if not is_placeholder_logo(path):
        return False
    return _placeholder_age(path) >= PLACEHOLDER_RETRY_SECONDS


def _placeholder_age(path: Path) -> float:
    try:
        with Image.open(path) as image:
            stamped = float(image.info.get(PLACEHOLDER_MARKER) or "nan")
    except Exception:  # Pillow raises many kinds for a damaged file: no stamp
        stamped = float("nan")
    if math.isnan(stamped) or stamped <= 1:  # no stamp (or the old "1"): the file's age
        try:
            stamped = path.stat().st_mtime
        except OSError:
            return float("inf")
    return max(0.0, time.time() - stamped)


def placeholder_image(text: str, size: tuple[int, int] = PLACEHOLDER_SIZE,
                      fill: tuple[int, int, int, int] = PLACEHOLDER_BG,
                      outline: tuple[int, int, int, int] | None = None) -> Image.Image:
    """Return a box of ``size`` in ``fill`` (with an ``outline``) with ``text`` centred."""
    image = Image.new("RGBA", size, (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, size[0] - 1, size[1] - 1), fill=fill, outline=outline)
    font = ImageFont.load_default()
    left, top, right, bottom = draw.textbbox((0, 0), text, font=font)
    x = (size[0] - (right - left)) // 2 - left
    y = (size[1] - (bottom - top)) // 2 - top
    draw.text((x, y), text, font=font, fill=(255, 255, 255, 255))
    return image


def png_bytes(image: Image.Image, info: PngInfo | None = None) -> bytes:
    """Return ``image`` encoded as PNG (with the text chunks of ``info``)."""
    out = io.BytesIO()
    image.save(out, "PNG", pnginfo=info)
    return out.getvalue()
