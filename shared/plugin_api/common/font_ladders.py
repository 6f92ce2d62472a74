"""Font ladders and ink measurement: how the adaptive layout picks crisp text sizes.

A ladder is an ordered tuple of ``FontStep`` (a FontManager family at a pixel size it
renders crisply at), largest first. Pixel fonts are never scaled continuously: a fit
walks the ladder down until the measured text fits. Measurements are of the ink
(the lit pixels), not the em box, so text centres in short bands.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from PIL import Image, ImageDraw

from shared.fonts.manager import FontManager

ELLIPSIS = "…"


@dataclass(frozen=True)
class FontStep:
    """One ladder step: a font family (as the FontManager names it) at a pixel size."""

    family: str
    size_px: int


FontLadder = tuple[FontStep, ...]

# The X11 misc-fixed fonts (and tom-thumb) at their native sizes, tallest first: the
# rungs plugins written for the existing system were laid out against. Equal heights
# go widest first, so a fit tries the roomier face before the narrower one.
LADDER_GRID: FontLadder = (
    FontStep("10x20", 20),
    FontStep("9x18", 18),
    FontStep("9x15", 15),
    FontStep("8x13", 13),
    FontStep("7x13", 13),
    FontStep("6x13", 13),
    FontStep("6x12", 12),
    FontStep("6x10", 10),
    FontStep("6x9", 9),
    FontStep("5x8", 8),
    FontStep("5x7", 7),
    FontStep("4x6", 6),
    FontStep("tom-thumb", 6),
)
# Press Start 2P only at multiples of its 8-pixel grid: other sizes come out blurred.
LADDER_ARCADE: FontLadder = (
    FontStep("press_start", 32),
    FontStep("press_start", 24),
    FontStep("press_start", 16),
    FontStep("press_start", 8),
)
LADDER_DEFAULT: FontLadder = LADDER_GRID


@dataclass(frozen=True)
class FitResult:
    """A chosen font and the ink measurements of the (possibly shortened) text.

    ``y_offset`` is how far below the y given to ``draw_text`` the ink starts: draw at
    ``ink_top - y_offset`` (``draw_fitted_text`` does). ``fits`` is False only when no
    step, shortened or not, fits the box.
    """

    font: Any
    family: str
    size_px: int
    text: str
    width: int
    height: int
    baseline: int
    y_offset: int
    fits: bool
    line_height: int = 0


def measure_ink(text: str, font: Any) -> tuple[int, int, int, int]:
    """Return the ink box of ``text``: (width, height, baseline, y_offset).

    ``width`` spans the glyph boxes (the ink lies within it); ``height`` counts the
    lit rows, found by drawing the text, since a bitmap font reports its whole cell as
    its box. ``y_offset`` is how far below the y ``draw_text`` is given the ink
    starts; ``baseline`` counts rows from the top of the ink down to the baseline.
    """
    left, top, right, bottom = font.getbbox(text)
    ascent = int(font.getmetrics()[0]) if hasattr(font, "getmetrics") else int(bottom)
    width, cell_h = int(right - left), int(bottom - top)
    if width <= 0 or cell_h <= 0:
        return (max(0, width), 0, ascent - int(top), int(top))
    canvas = Image.new("L", (width, cell_h))
    ImageDraw.Draw(canvas).text((-left, -top), text, font=font, fill=255)
    ink = canvas.getbbox()
    if ink is None:  # only spaces
        return (width, 0, ascent - int(top), int(top))
    y_offset = int(top) + ink[1]
    return (width, ink[3] - ink[1], ascent - y_offset, y_offset)


# The line spacing of a font (ascent plus descent), in pixels: the font manager's measure.
font_line_height = FontManager.get_font_height


def measure_font_crispness(
    font: Any, sample_text: str = "Ay0", canvas_size: tuple[int, int] = (250, 60)
) -> float:
    """Return the share of the sample's ink-box pixels that are neither black nor white.

    0.0 means every pixel is fully on or off, as on an LED panel it should be: bitmap
    fonts always score 0.0; an outline font scores above 0 at sizes where it is
    anti-aliased (blurred). Vet a custom ladder's TTF steps with it.
    """
    canvas = Image.new("L", canvas_size, 0)
    ImageDraw.Draw(canvas).text((2, 2), sample_text, font=font, fill=255)
    ink = canvas.getbbox()
    if ink is None:
        return 0.0
    pixels = canvas.crop(ink).tobytes()
    grey = sum(1 for value in pixels if 0 < value < 255)
    return grey / len(pixels)
