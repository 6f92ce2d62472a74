"""Animation and Sequence: widgets whose frames are their children.

An Animation shows child ``i`` at frame ``i`` and starts over after its last
child; a Sequence plays each child for that child's own frame count, one after
another, and shows nothing after the last.
"""

from __future__ import annotations

from shared.starlark.render.widget import Bounds, Canvas, Widget
from shared.starlark.render.widget_args import widgets_arg


class Animation(Widget):
    """One child per frame, looping."""

    def __init__(self, children: object = None) -> None:
        self.children = widgets_arg("Animation", "children", children)

    def _current(self, frame: int) -> Widget | None:
        return self.children[frame % len(self.children)] if self.children else None

    def size(self, bounds: Bounds, frame: int) -> Bounds:
        child = self._current(frame)
        return child.size(bounds, frame) if child is not None else Bounds(0, 0)

    def paint(self, canvas: Canvas, bounds: Bounds, frame: int) -> None:
        child = self._current(frame)
        if child is not None:
            child.paint(canvas, bounds, frame)

    def frame_count(self, bounds: Bounds) -> int:
        return max(1, len(self.children))


class Sequence(Widget):
    """Each child for its own frame count, one after another."""

    def __init__(self, children: object = None) -> None:
        self.children = widgets_arg("Sequence", "children", children)
        self._counts: dict[Bounds, list[int]] = {}

    def _counted(self, bounds: Bounds) -> list[int]:
        """Each child's frame count in ``bounds``, counted once per bounds."""
        if bounds not in self._counts:
            self._counts[bounds] = [child.frame_count(bounds) for child in self.children]
        return self._counts[bounds]

    def _current(self, bounds: Bounds, frame: int) -> tuple[Widget, int] | None:
        start = 0
        for child, count in zip(self.children, self._counted(bounds), strict=True):
            if frame < start + count:
                return child, frame - start
            start += count
        return None

    def size(self, bounds: Bounds, frame: int) -> Bounds:
        current = self._current(bounds, frame)
        return current[0].size(bounds, current[1]) if current else Bounds(0, 0)

    def paint(self, canvas: Canvas, bounds: Bounds, frame: int) -> None:
        current = self._current(bounds, frame)
        if current is not None:
            current[0].paint(canvas, bounds, current[1])

    def frame_count(self, bounds: Bounds) -> int:
        return max(1, sum(self._counted(bounds)))
