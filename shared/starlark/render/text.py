"""Text and WrappedText: one line of text, and text wrapped at word boundaries.

Text is as wide as its glyphs' advances (at most ``MAX_TEXT_WIDTH``) and as high
as the font's ascent plus descent unless ``height`` says otherwise; its baseline
sits ``descent + offset`` pixels above the bottom, so a positive ``offset``
lifts the text; right-to-left words are drawn in visual order (``bidi``).

WrappedText breaks lines where a word would pass the width (a word wider than
the width gets a line of its own and is clipped), drops empty lines, trims each
line's spaces, and aligns each line left, centre (rounded down) or right; lines
are ``linespacing`` pixels apart. It draws characters in the order written.
"""

from __future__ import annotations

from PIL import Image, ImageChops

from shared.starlark.render.bdf import BdfFont
from shared.starlark.render.bidi import visual_order
from shared.starlark.render.errors import WidgetError
from shared.starlark.render.fonts import colored, text_mask, text_width
from shared.starlark.render.widget import Bounds, Canvas, Widget
from shared.starlark.render.widget_args import (
    MAX_DRAWN_SIDE,
    color_arg,
    font_arg,
    int_arg,
    str_arg,
)

MAX_TEXT_WIDTH = 1000
"""Text wider than this is cut, as the app format does, so a long string stays bounded."""


def _content(widget: str, value: object) -> str:
    if value is None:
        raise WidgetError(widget, "content", "is required")
    return str_arg(widget, "content", value)


class Text(Widget):
    """A single line of text, drawn once when made."""

    def __init__(self, content: object = None, font: object = None, height: object = None,
                 offset: object = None, color: object = None) -> None:
        self.content = _content("Text", content)
        self.face = font_arg("Text", font)
        self.height = int_arg("Text", "height", height, minimum=0, maximum=MAX_DRAWN_SIDE)
        self.offset = int_arg("Text", "offset", offset)
        self.color = color_arg("Text", color)
        drawn = visual_order(self.content)
        width = min(text_width(self.face, drawn), MAX_TEXT_WIDTH)
        full_height = self.height or self.face.height
        baseline = full_height - self.face.descent - self.offset
        mask = text_mask(self.face, drawn, (width, full_height), 0, baseline)
        self.image = colored(mask, self.color)

    def size(self, bounds: Bounds, frame: int) -> Bounds:
        return Bounds(min(self.image.width, bounds.width), min(self.image.height, bounds.height))

    def paint(self, canvas: Canvas, bounds: Bounds, frame: int) -> None:
        canvas.paste(self.image, 0, 0)


def _split_on_space(line: str) -> list[str]:
    """``line`` cut into alternating runs of non-space and space characters."""
    pieces: list[str] = []
    start = 0
    for index in range(1, len(line)):
        if line[index].isspace() != line[index - 1].isspace():
            pieces.append(line[start:index])
            start = index
    pieces.append(line[start:])
    return pieces


def wrap_lines(face: BdfFont, content: str, width: int) -> list[str]:
    """``content`` broken into lines no wider than ``width`` where words allow."""
    result: list[str] = []
    for line in content.split("\n"):
        pieces = _split_on_space(line)
        if len(pieces) % 2:
            pieces.append("")
        current = ""
        for word, space in zip(pieces[::2], pieces[1::2], strict=True):
            if text_width(face, current + word) > width:
                if not current:
                    result.append(word)
                    continue
                result.append(current)
                current = ""
            current += word + space
        if current:
            result.append(current)
    return [line.strip() for line in result]


class WrappedText(Widget):
    """Text over several lines, wrapped to ``width`` or to the room its parent gives."""

    def __init__(self, content: object = None, font: object = None, height: object = None,
                 width: object = None, linespacing: object = None, color: object = None,
                 align: object = None) -> None:
        self.content = _content("WrappedText", content)
        self.face = font_arg("WrappedText", font)
        self.height = int_arg("WrappedText", "height", height, minimum=0)
        self.width = int_arg("WrappedText", "width", width, minimum=0)
        self.linespacing = int_arg("WrappedText", "linespacing", linespacing)
        self.color = color_arg("WrappedText", color)
        # Any other value draws left-aligned, as the app format does.
        self.align = str_arg("WrappedText", "align", align, "left")
        self._lines: dict[int, list[str]] = {}
        # The same text in the same room looks the same in every frame: draw it once.
        self._pictures: dict[Bounds, Image.Image] = {}

    def lines(self, width: int) -> list[str]:
        """The wrapped lines at ``width`` (remembered per width)."""
        if width not in self._lines:
            self._lines[width] = wrap_lines(self.face, self.content, width)
        return self._lines[width]

    def size(self, bounds: Bounds, frame: int) -> Bounds:
        lines = self.lines(self.width or bounds.width)
        widest = max((text_width(self.face, line) for line in lines), default=0)
        tall = len(lines) * (self.face.height + max(self.linespacing, 0))
        width = self.width or min(widest, bounds.width)
        height = self.height or min(tall, bounds.height)
        return Bounds(min(width, bounds.width), min(height, bounds.height))

    def paint(self, canvas: Canvas, bounds: Bounds, frame: int) -> None:
        if bounds not in self._pictures:
            self._pictures[bounds] = self._picture(bounds)
        canvas.paste(self._pictures[bounds], 0, 0)

    def _picture(self, bounds: Bounds) -> Image.Image:
        room = self.size(bounds, 0)
        # Lines align within the width asked for, even where the bounds cut it off.
        line_width = self.width or room.width
        lines = self.lines(self.width or bounds.width)
        face = self.face
        mask = Image.new("L", (room.width, room.height), 0)
        for index, line in enumerate(lines):
            baseline = face.ascent + index * (face.height + self.linespacing)
            spare = line_width - text_width(face, line)
            x = {"center": spare // 2, "right": spare}.get(self.align, 0)
            mask = ImageChops.lighter(mask, text_mask(face, line, mask.size, x, baseline))
        return colored(mask, self.color)
