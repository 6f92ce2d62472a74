"""Emoji: one emoji drawn in a square (or ``width`` x ``height``) box.

The app format draws emoji from a colour sprite sheet we do not ship. Instead,
the fallback is documented and plain: when one of the vendored bitmap fonts has
a glyph for the emoji's first code point (many symbols such as U+2665 "♥" or
U+263A "☺" are there), that glyph is drawn in white, from the tallest font that
fits the box, cut to its ink, grown by a whole factor or shrunk to fit, and
centred; otherwise a grey outlined box of the requested size stands in for it.
Either way the widget takes the size the app asked for, so layouts stay as
designed.
"""

from __future__ import annotations

from PIL import Image, ImageDraw

from shared.starlark.render.bdf import Glyph
from shared.starlark.render.errors import WidgetError
from shared.starlark.render.fonts import colored, font
from shared.starlark.render.widget import Bounds, Canvas, Color, Widget
from shared.starlark.render.widget_args import MAX_DRAWN_SIDE, WHITE, int_arg, str_arg

GLYPH_FONTS = ("tb-8", "6x10", "6x13", "terminus-16", "10x20", "terminus-24",
               "terminus-28", "terminus-32")
"""Fonts searched for an emoji's glyph, shortest first."""

PLACEHOLDER: Color = (128, 128, 128, 255)
_IGNORED = {0xFE0E, 0xFE0F, 0x200D}  # variation selectors and the joiner


def _first_codepoint(emoji: str) -> int | None:
    for char in emoji:
        if ord(char) not in _IGNORED:
            return ord(char)
    return None


def find_glyph(codepoint: int, height: int) -> Glyph | None:
    """The glyph for ``codepoint`` from the tallest font no taller than ``height``."""
    found: Glyph | None = None
    for name in GLYPH_FONTS:
        face = font(name)
        glyph = face.glyphs.get(codepoint)
        if glyph is None:
            continue
        if found is None or face.height <= height:
            found = glyph
    return found


def _fit(mask: Image.Image, width: int, height: int) -> Image.Image:
    """``mask`` grown by a whole factor, or shrunk keeping its ratio, to fit the box."""
    factor = min(width // mask.width, height // mask.height)
    if factor >= 1:
        size = (mask.width * factor, mask.height * factor)
    else:
        scale = min(width / mask.width, height / mask.height)
        size = (max(int(mask.width * scale), 1), max(int(mask.height * scale), 1))
    return mask.resize(size, Image.Resampling.NEAREST)


def _glyph_picture(glyph: Glyph, width: int, height: int) -> Image.Image | None:
    ink = glyph.mask.getbbox()
    if ink is None:
        return None
    mask = _fit(glyph.mask.crop(ink), width, height)
    box = Image.new("L", (width, height), 0)
    box.paste(mask, ((width - mask.width) // 2, (height - mask.height) // 2))
    return colored(box, WHITE)


def _placeholder(width: int, height: int) -> Image.Image:
    picture = Image.new("RGBA", (width, height), (0, 0, 0, 0))
    ImageDraw.Draw(picture).rectangle((0, 0, width - 1, height - 1), outline=PLACEHOLDER)
    return picture


class Emoji(Widget):
    """A single emoji at the size an app asks for (see the module's fallback)."""

    def __init__(self, emoji: object = None, width: object = None,
                 height: object = None) -> None:
        self.emoji = str_arg("Emoji", "emoji", emoji)
        codepoint = _first_codepoint(self.emoji)
        if codepoint is None:
            raise WidgetError("Emoji", "emoji", "is required (one emoji)")
        given_width = int_arg("Emoji", "width", width, minimum=0, maximum=MAX_DRAWN_SIDE)
        given_height = int_arg("Emoji", "height", height, minimum=0, maximum=MAX_DRAWN_SIDE)
        if not given_width and not given_height:
            raise WidgetError("Emoji", "height", "must be a positive number of pixels")
        self.width = given_width or given_height
        self.height = given_height or given_width
        glyph = find_glyph(codepoint, self.height)
        picture = _glyph_picture(glyph, self.width, self.height) if glyph else None
        self.drawn_from_font = picture is not None
        self.image = picture or _placeholder(self.width, self.height)

    def size(self, bounds: Bounds, frame: int) -> Bounds:
        return Bounds(min(self.width, bounds.width), min(self.height, bounds.height))

    def paint(self, canvas: Canvas, bounds: Bounds, frame: int) -> None:
        canvas.paste(self.image, 0, 0)
