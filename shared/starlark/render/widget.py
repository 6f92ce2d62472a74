"""Widget and Canvas: the contract every widget of a scripted app's tree keeps.

Layout follows the app format's rules: a parent asks a child how much room it
takes inside given bounds (``size``), then paints it at a place inside them
(``paint``). A child may report a size larger than its bounds (a Box with a fixed
width, a Circle): the parent places it anyway and its clip cuts what does not fit.

Frames are whole: a tree painted in ``bounds`` has ``frame_count(bounds)`` frames,
the most of any of its children counted in the bounds each is painted in (a
Marquee's scroll, a wrapped text's lines, depend on them). Painting frame ``i`` of
a tree paints frame ``i`` of each child; a child past its own count decides what it
shows, as in the app format: Animation and animated Image loop, Marquee and
Transformation hold their end, Sequence shows nothing.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from PIL import Image

Color = tuple[int, int, int, int]


@dataclass(frozen=True)
class Bounds:
    """The room a parent gives a child, in pixels."""

    width: int
    height: int


class Canvas:
    """An RGBA image painted through an offset and a clip, so children draw at (0, 0)."""

    def __init__(self, width: int, height: int) -> None:
        self.image = Image.new("RGBA", (width, height), (0, 0, 0, 0))
        self._origin = (0, 0)
        self._clip = (0, 0, width, height)

    @contextmanager
    def at(self, x: int, y: int, bounds: Bounds) -> Iterator[None]:
        """Paint within ``bounds`` placed at (x, y) of the current origin, clipped.

        As a pixlet Row, Column or Padding does: the clip becomes the box placed (within
        the clip already there), so nothing shows left of or above the new origin.
        """
        saved = self._origin, self._clip
        ox, oy = saved[0][0] + x, saved[0][1] + y
        left, top, right, bottom = saved[1]
        self._origin = (ox, oy)
        self._clip = (max(left, ox), max(top, oy),
                      min(right, ox + bounds.width), min(bottom, oy + bounds.height))
        try:
            yield
        finally:
            self._origin, self._clip = saved

    @contextmanager
    def moved(self, x: int, y: int) -> Iterator[None]:
        """Paint with the origin moved by (x, y) and the clip as it was (a bare translate)."""
        saved = self._origin
        self._origin = (saved[0] + x, saved[1] + y)
        try:
            yield
        finally:
            self._origin = saved

    def fill(self, x: int, y: int, width: int, height: int, color: Color) -> None:
        """Blend a rectangle of ``color`` (alpha-composited over what is there)."""
        box = self._clipped(x, y, width, height)
        if box is None or color[3] == 0:
            return
        if color[3] == 255:  # opaque: compositing would give the colour itself, so set it
            self.image.paste(color, box)
            return
        patch = Image.new("RGBA", (box[2] - box[0], box[3] - box[1]), color)
        self.image.alpha_composite(patch, (box[0], box[1]))

    def paste(self, image: Image.Image, x: int, y: int) -> None:
        """Blend an RGBA ``image`` with its top-left corner at (x, y), clipped."""
        box = self._clipped(x, y, image.width, image.height)
        if box is None:
            return
        ax, ay = self._origin[0] + x, self._origin[1] + y
        part = image.crop((box[0] - ax, box[1] - ay, box[2] - ax, box[3] - ay))
        self.image.alpha_composite(part.convert("RGBA"), (box[0], box[1]))

    def _clipped(self, x: int, y: int, width: int, height: int
                 ) -> tuple[int, int, int, int] | None:
        ax, ay = self._origin[0] + x, self._origin[1] + y
        left, top, right, bottom = self._clip
        box = (max(left, ax), max(top, ay), min(right, ax + width), min(bottom, ay + height))
        return box if box[0] < box[2] and box[1] < box[3] else None


class Widget:
    """One node of an app's tree. Subclasses keep their constructor's settings."""

    def size(self, bounds: Bounds, frame: int) -> Bounds:
        """The room this widget takes in ``bounds`` at ``frame`` (may be more than them)."""
        raise NotImplementedError

    def paint(self, canvas: Canvas, bounds: Bounds, frame: int) -> None:
        """Draw frame ``frame`` at the canvas origin, within ``bounds``."""
        raise NotImplementedError

    def frame_count(self, bounds: Bounds) -> int:
        """How many frames this widget has when painted in ``bounds`` (at least 1)."""
        return 1
