"""Row, Column and Stack: the app format's multi-child layouts.

A Row or Column gives each child the room its earlier siblings left, stops at the
first child that fills the main axis, and is as long as its children (or all the
room when ``expanded``) and as thick as its thickest child. ``main_align`` spreads
the spare length; remainders of the division go one pixel at a time to the first
gaps. A Stack paints its children over each other at its origin.
"""

from __future__ import annotations

from dataclasses import dataclass

from shared.starlark.render.widget import Bounds, Canvas, Widget
from shared.starlark.render.widget_args import bool_arg, choice_arg, widgets_arg

MAIN_ALIGNS = ("start", "end", "center", "space_between", "space_around", "space_evenly")
CROSS_ALIGNS = ("start", "end", "center")


@dataclass(frozen=True)
class _Measured:
    """The children that fit, their (main, cross) sizes, and the line's own size."""

    sizes: list[tuple[int, int]]
    length: int
    thickness: int


def _spacing(align: str, spare: int, count: int) -> tuple[int, int, int]:
    """(offset before the first child, gap between children, pixels of remainder)."""
    if align == "end":
        return spare, 0, 0
    if align == "center":
        return spare // 2, 0, 0
    if align == "space_evenly":
        return spare // (count + 1), spare // (count + 1), spare % (count + 1)
    if align == "space_around" and count:
        return spare // count // 2, spare // count, spare % count
    if align == "space_between" and count > 1:
        gap, rest = divmod(spare, count - 1)
        # The first child stays at the edge: its remainder pixel is taken back.
        return (-1, gap, rest + 1) if rest else (0, gap, 0)
    return 0, 0, 0


class _Line(Widget):
    """Children along one axis: the shared body of Row and Column."""

    vertical = False
    name = "Row"

    def __init__(self, children: object = None, main_align: object = None,
                 cross_align: object = None, expanded: object = None) -> None:
        self.children = widgets_arg(self.name, "children", children)
        self.main_align = choice_arg(self.name, "main_align", main_align, MAIN_ALIGNS, "start")
        self.cross_align = choice_arg(self.name, "cross_align", cross_align,
                                      CROSS_ALIGNS, "start")
        self.expanded = bool_arg(self.name, "expanded", expanded)

    def _axes(self, bounds: Bounds) -> tuple[int, int]:
        return (bounds.height, bounds.width) if self.vertical else (bounds.width, bounds.height)

    def _bounds(self, main: int, cross: int) -> Bounds:
        return Bounds(cross, main) if self.vertical else Bounds(main, cross)

    def _measure(self, bounds: Bounds, frame: int) -> _Measured:
        room, cross_room = self._axes(bounds)
        sizes: list[tuple[int, int]] = []
        used = thickest = 0
        for child in self.children:
            main, cross = self._axes(child.size(self._bounds(room - used, cross_room), frame))
            sizes.append((main, cross))
            used += main
            thickest = max(thickest, cross)
            if used >= room:
                break
        length = room if self.expanded else used
        return _Measured(sizes, min(length, room), min(thickest, cross_room))

    def size(self, bounds: Bounds, frame: int) -> Bounds:
        line = self._measure(bounds, frame)
        return self._bounds(line.length, line.thickness)

    def paint(self, canvas: Canvas, bounds: Bounds, frame: int) -> None:
        line = self._measure(bounds, frame)
        room, cross_room = self._axes(bounds)
        spare = max(0, line.length - sum(main for main, _ in line.sizes))
        offset, gap, rest = _spacing(self.main_align, spare, len(line.sizes))
        used = 0
        for child, (main, cross) in zip(self.children, line.sizes, strict=False):
            if rest > 0:
                offset, rest = offset + 1, rest - 1
            across = self._cross_offset(line.thickness - cross)
            x, y = (across, offset) if self.vertical else (offset, across)
            with canvas.at(x, y, self._bounds(main, cross)):
                child.paint(canvas, self._bounds(room - used, cross_room), frame)
            used += main
            offset += main + gap
            if offset >= room:
                break

    def _cross_offset(self, spare: int) -> int:
        if self.cross_align == "center":
            return int(spare / 2)  # toward zero: a child thicker than the line sits centred
        return spare if self.cross_align == "end" else 0

    def frame_count(self, bounds: Bounds) -> int:
        """The most frames of any child, each counted in the room it is painted in."""
        room, cross_room = self._axes(bounds)
        sizes = self._measure(bounds, 0).sizes
        count = used = 0
        for index, child in enumerate(self.children):
            count = max(count, child.frame_count(self._bounds(max(0, room - used), cross_room)))
            used += sizes[index][0] if index < len(sizes) else 0
        return max(1, count)


class Row(_Line):
    """Children left to right."""

    vertical = False
    name = "Row"


class Column(_Line):
    """Children top to bottom."""

    vertical = True
    name = "Column"


class Stack(Widget):
    """Children painted over each other, as big as the biggest of them."""

    def __init__(self, children: object = None) -> None:
        self.children = widgets_arg("Stack", "children", children)

    def size(self, bounds: Bounds, frame: int) -> Bounds:
        width = height = 0
        for child in self.children:
            taken = child.size(bounds, frame)
            width, height = max(width, taken.width), max(height, taken.height)
        return Bounds(min(width, bounds.width), min(height, bounds.height))

    def paint(self, canvas: Canvas, bounds: Bounds, frame: int) -> None:
        for child in self.children:
            child.paint(canvas, bounds, frame)

    def frame_count(self, bounds: Bounds) -> int:
        return max((child.frame_count(bounds) for child in self.children), default=1)
