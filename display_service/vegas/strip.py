"""Segments and the strip: a queue of segment images placed side by side.

The strip is never drawn as one image. Each segment keeps its own image and its place
(``x``, in strip pixels); ``compose(x)`` builds only the panel-wide window starting at
strip pixel ``x`` from the few segments that overlap it. Segments that have scrolled
past are dropped with ``drop_before``, so what the strip holds is what is on the panel
plus the few segments queued beyond its right edge.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import Any

from PIL import Image, ImageDraw

from display_service.vegas.settings import Color, VegasSettings

SEPARATOR = "separator"
GAP = "gap"


@dataclass(frozen=True, eq=False)
class Segment:
    """One image of the ticker: a plugin's content, a separator or a blank gap.

    ``image`` is RGB and exactly the panel's height. ``mode`` is ``scroll``, ``fixed``
    or ``static`` for plugin content (a static segment holds still at the left edge),
    ``separator`` or ``gap`` otherwise; ``plugin_id`` is None for the last two.
    """

    image: Image.Image
    plugin_id: str | None
    mode: str = "scroll"

    @property
    def width(self) -> int:
        return self.image.width


@dataclass(eq=False)
class Placed:
    """A segment at its place on the strip; ``width`` shrinks when a cut trims it."""

    segment: Segment
    x: int
    width: int
    cycle: int
    index: int  # position in its cycle's content list; -1 for separators and gaps

    @property
    def end(self) -> int:
        return self.x + self.width


class Strip:
    """The queue of placed segments and the composition of the visible window."""

    def __init__(self, width: int, height: int, background: Color, start: int = 0) -> None:
        self.width = width
        self.height = height
        self.background = background
        self.placed: deque[Placed] = deque()
        self.tail = start  # strip x where the next segment goes

    def append(self, segment: Segment, cycle: int, index: int) -> Placed:
        """Place ``segment`` at the tail of the strip and return its placement."""
        placed = Placed(segment, self.tail, segment.width, cycle, index)
        self.placed.append(placed)
        self.tail = placed.end
        return placed

    def drop_before(self, x: int) -> None:
        """Forget every segment that ends at or before strip pixel ``x``."""
        while self.placed and self.placed[0].end <= x:
            self.placed.popleft()

    def trim_after(self, edge: int) -> tuple[list[Placed], Placed | None]:
        """Remove what lies beyond strip pixel ``edge``; return (removed, trimmed)."""
        removed: list[Placed] = []
        while self.placed and self.placed[-1].x >= edge:
            removed.append(self.placed.pop())
        removed.reverse()
        trimmed = None
        if self.placed and self.placed[-1].end > edge:
            trimmed = self.placed[-1]
            trimmed.width = edge - trimmed.x
        self.tail = min(self.tail, max(edge, self.placed[-1].end if self.placed else edge))
        return removed, trimmed

    def compose(self, x: int) -> Image.Image:
        """Return a new panel-sized image of the strip from pixel ``x``."""
        window = Image.new("RGB", (self.width, self.height), self.background)
        right = x + self.width
        for placed in self.placed:
            if placed.x >= right:
                break
            if placed.end <= x:
                continue
            image = placed.segment.image
            if placed.width == image.width:
                window.paste(image, (placed.x - x, 0))  # paste clips to the window
                continue
            left, stop = max(x, placed.x), min(right, placed.end)
            window.paste(image.crop((left - placed.x, 0, stop - placed.x, self.height)),
                         (left - x, 0))
        return window

    @property
    def segments_held(self) -> int:
        return len(self.placed)

    @property
    def pixels_held(self) -> int:
        return sum(p.segment.image.width * p.segment.image.height for p in self.placed)


def render_separator(settings: VegasSettings, height: int, font: Any) -> Segment | None:
    """Return the separator segment: its text between ``separator_padding`` blank pixels.

    Text that draws nothing (empty or spaces) gives a blank gap as wide as its advance
    plus the padding on both sides; None when that is no pixel at all.
    """
    pad = settings.separator_padding
    text = settings.separator
    width = 2 * pad + (_text_width(text, font) if text else 0)
    if width <= 0:
        return None
    if not text.strip():
        return Segment(Image.new("RGB", (width, height), settings.background_color), None,
                       SEPARATOR)
    image = Image.new("RGB", (width, height), settings.background_color)
    _left, top, _right, bottom = _text_box(text, font)
    y = (height - (bottom - top)) // 2 - top
    ImageDraw.Draw(image).text((pad, y), text, font=font, fill=settings.separator_color)
    return Segment(image, None, SEPARATOR)


def gap_segment(width: int, height: int, background: Color) -> Segment:
    """Return a blank segment ``width`` pixels wide."""
    return Segment(Image.new("RGB", (max(1, width), height), background), None, GAP)


def _text_box(text: str, font: Any) -> tuple[int, int, int, int]:
    scratch = ImageDraw.Draw(Image.new("1", (1, 1)))
    left, top, right, bottom = scratch.textbbox((0, 0), text, font=font)
    return int(left), int(top), int(right), int(bottom)


def _text_width(text: str, font: Any) -> int:
    if hasattr(font, "getlength"):
        return int(round(font.getlength(text)))
    left, _top, right, _bottom = _text_box(text, font)
    return right - left
