"""FirstFrames: a widget showing only the first frames of its child.

pixlet paints at most 2000 frames of a tree and drops the rest; the render package's
``render_frames`` refuses such a tree instead, so the runtime hands it a tree cut to
the frames that will be shown.
"""

from __future__ import annotations

from shared.starlark.render.widget import Bounds, Canvas, Widget


class FirstFrames(Widget):
    """``child`` limited to its first ``count`` frames."""

    def __init__(self, child: Widget, count: int) -> None:
        self.child = child
        self.count = count

    def size(self, bounds: Bounds, frame: int) -> Bounds:
        """The child's size at ``frame``."""
        return self.child.size(bounds, frame)

    def paint(self, canvas: Canvas, bounds: Bounds, frame: int) -> None:
        """The child's frame ``frame``."""
        self.child.paint(canvas, bounds, frame)

    def frame_count(self) -> int:
        """At most ``count``."""
        return min(self.count, self.child.frame_count())
