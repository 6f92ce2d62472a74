"""The fonts apps name (``render.Text(font="6x13")``), text measuring and drawing.

The names are the vendored BDF files' names (``shared/starlark/fonts/``). Text
is laid out as the app format does it: the pen starts at x = 0 on a baseline,
each character's glyph is drawn with its box offset from the pen and the pen
moves by the glyph's advance; a character the font lacks is drawn as the font's
default character, and skipped (no width) when the font has none either.
"""

from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageChops

from shared.starlark.render.bdf import BdfFont, load_bdf
from shared.starlark.render.widget import Color

FONTS_DIR = Path(__file__).resolve().parent.parent / "fonts"
DEFAULT_FONT = "tb-8"

_NAMES = (
    "10x20", "5x8", "6x10", "6x10-rounded", "6x13", "CG-pixel-3x5-mono",
    "CG-pixel-4x5-mono", "Dina_r400-6", "tb-8", "tom-thumb", "terminus-12",
    *(f"terminus-{size}{weight}" for size in (14, 16, 18, 20, 22, 24, 28, 32)
      for weight in ("", "-light")),
)

FONTS: dict[str, str] = {name: f"{name}.bdf" for name in sorted(_NAMES)}
"""Every font name an app may use, mapped to its file in ``FONTS_DIR``."""


class UnknownFontError(LookupError):
    """A font name that is not in ``FONTS``."""


def font(name: str) -> BdfFont:
    """The parsed font called ``name`` (parsed once per process)."""
    file_name = FONTS.get(name)
    if file_name is None:
        raise UnknownFontError(name)
    return load_bdf(FONTS_DIR / file_name)


def text_width(face: BdfFont, text: str) -> int:
    """How far the pen moves drawing ``text``: the sum of its glyphs' advances."""
    total = 0
    for char in text:
        glyph = face.glyph(ord(char))
        if glyph is not None:
            total += glyph.advance
    return total


def text_mask(face: BdfFont, text: str, size: tuple[int, int], x: int,
              baseline: int) -> Image.Image:
    """An ``L`` mask of ``size`` with ``text`` drawn from pen (x, baseline), clipped."""
    mask = Image.new("L", size, 0)
    pen = x
    for char in text:
        glyph = face.glyph(ord(char))
        if glyph is None:
            continue
        left = pen + glyph.x_offset
        top = baseline - glyph.y_offset - glyph.height
        _lighten(mask, glyph.mask, left, top)
        pen += glyph.advance
    return mask


def colored(mask: Image.Image, color: Color) -> Image.Image:
    """An RGBA image of ``color`` whose alpha is ``mask`` scaled by the colour's alpha."""
    image = Image.new("RGBA", mask.size, color)
    alpha = mask if color[3] == 255 else ImageChops.multiply(
        mask, Image.new("L", mask.size, color[3]))
    image.putalpha(alpha)
    return image


def _lighten(target: Image.Image, patch: Image.Image, left: int, top: int) -> None:
    """Union ``patch`` into ``target`` at (left, top); parts outside are dropped."""
    box = (max(left, 0), max(top, 0), min(left + patch.width, target.width),
           min(top + patch.height, target.height))
    if box[0] >= box[2] or box[1] >= box[3]:
        return
    part = patch.crop((box[0] - left, box[1] - top, box[2] - left, box[3] - top))
    region = target.crop(box)
    target.paste(ImageChops.lighter(region, part), box[:2])
