"""Marquee: a child scrolled right to left (or bottom to top) when it does not fit.

The child is laid out in ten times the Marquee's length and only its frame 0 is
shown. Along the scroll axis the Marquee is ``width`` (or ``height``) long; across
it, as thick as the child. A child that fits does not scroll and is placed by
``align``. One that does not starts at ``offset_start``, stays there ``delay``
frames, moves one pixel a frame until it has left, then comes back in from the
far side until it reaches ``offset_end``; offsets are held to no less than minus
the child's length. That takes ``length + offset_start + size - offset_end + 1 +
delay`` frames, one fewer when both offsets are equal (the last frame would
repeat the first); past the end the child stays at ``offset_end``.
"""

from __future__ import annotations

from dataclasses import dataclass

from shared.starlark.render.offsets import shifted
from shared.starlark.render.widget import Bounds, Canvas, Widget
from shared.starlark.render.widget_args import int_arg, str_arg, widget_arg


@dataclass(frozen=True)
class _Run:
    """One scroll: the child's length along the axis, the Marquee's, and the offsets."""

    child: int
    size: int
    start: int
    end: int
    delay: int

    @property
    def scrolls(self) -> bool:
        return self.child > self.size

    def frames(self) -> int:
        if not self.scrolls:
            return 1
        repeat = 0 if self.start == self.end else 1
        return self.child + self.start + self.size - self.end + repeat + self.delay

    def offset(self, frame: int) -> int:
        """Where the child's leading edge is at ``frame`` (when it scrolls)."""
        gone = self.child + self.start + self.delay
        back = gone + self.size - self.end
        if frame <= self.delay:
            return self.start
        if frame <= gone:
            return self.start - frame + self.delay
        if frame <= back:
            return self.end + back - frame
        return self.end


class Marquee(Widget):
    """Scrolls its child horizontally (the default) or vertically."""

    def __init__(self, child: object = None, width: object = None, height: object = None,
                 offset_start: object = None, offset_end: object = None,
                 scroll_direction: object = None, align: object = None,
                 delay: object = None) -> None:
        self.child = widget_arg("Marquee", "child", child)
        self.width = int_arg("Marquee", "width", width, minimum=0)
        self.height = int_arg("Marquee", "height", height, minimum=0)
        self.offset_start = int_arg("Marquee", "offset_start", offset_start)
        self.offset_end = int_arg("Marquee", "offset_end", offset_end)
        # As in the app format, any direction but "vertical" scrolls horizontally and
        # any alignment but "center" or "end" is "start".
        self.vertical = str_arg("Marquee", "scroll_direction", scroll_direction) == "vertical"
        self.align = str_arg("Marquee", "align", align, "start")
        self.delay = int_arg("Marquee", "delay", delay, minimum=0)

    def _child_bounds(self, bounds: Bounds) -> Bounds:
        if self.vertical:
            return Bounds(bounds.width, self.height * 10)
        return Bounds(self.width * 10, bounds.height)

    def _run(self, bounds: Bounds) -> tuple[_Run, Bounds]:
        room = self._child_bounds(bounds)
        child = self.child.size(room, 0)
        length = child.height if self.vertical else child.width
        size = self.height if self.vertical else self.width
        run = _Run(length, size, max(self.offset_start, -length),
                   max(self.offset_end, -length), self.delay)
        return run, child

    def size(self, bounds: Bounds, frame: int) -> Bounds:
        _, child = self._run(bounds)
        if self.vertical:
            return Bounds(min(child.width, bounds.width), min(self.height, bounds.height))
        return Bounds(min(self.width, bounds.width), min(child.height, bounds.height))

    def frame_count(self, bounds: Bounds) -> int:
        """Frames of one full scroll in ``bounds``."""
        return self._run(bounds)[0].frames()

    def offset(self, bounds: Bounds, frame: int) -> int:
        """How far along the scroll axis the child is drawn at ``frame``."""
        run, _ = self._run(bounds)
        if run.scrolls:
            return run.offset(frame)
        if self.align == "center":
            return run.size // 2 - run.child // 2
        if self.align == "end":
            return run.size - run.child
        return 0

    def paint(self, canvas: Canvas, bounds: Bounds, frame: int) -> None:
        shift = self.offset(bounds, frame)
        room = self._child_bounds(bounds)
        x, y = (0, shift) if self.vertical else (shift, 0)
        # Clipped to the Marquee's own box; the scroll itself only translates, as in pixlet.
        with canvas.at(0, 0, self.size(bounds, frame)), shifted(canvas, x, y):
            self.child.paint(canvas, room, 0)
