"""Moving the canvas origin the way a widget translates a child, clipping no further.

``Canvas.at`` both moves and clips to the bounds given; app-format parents often
only translate (a Box centres a child that may overflow it, a transform moves
its child), so the clip stays the parent's on every side: a child moved right
can still draw left of its new origin, up to the parent's clip, as in pixlet.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from shared.starlark.render.widget import Bounds, Canvas


@contextmanager
def shifted(canvas: Canvas, x: int, y: int) -> Iterator[None]:
    """Paint with the origin moved by (x, y) and the clip left as it was."""
    with canvas.moved(x, y):
        yield


def inside(width: int, height: int) -> Bounds:
    """Bounds of this size, negative sizes read as empty."""
    return Bounds(max(0, width), max(0, height))
