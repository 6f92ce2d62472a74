"""Moving the canvas origin the way a widget translates a child, clipping no further.

``Canvas.at`` both moves and clips to the bounds given; app-format parents often
only translate (a Box centres a child that may overflow it, a transform moves
its child), so the right and bottom of the clip stay the parent's. ``Canvas.at``
always starts the clip at the new origin, so a move right or down also hides what
the child would draw left of or above it; a move left or up hides nothing more.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from shared.starlark.render.widget import Bounds, Canvas

# Wider than any panel: the clip is then only what the enclosing ``at`` allows.
_UNBOUNDED = Bounds(1 << 20, 1 << 20)


@contextmanager
def shifted(canvas: Canvas, x: int, y: int) -> Iterator[None]:
    """Paint with the origin moved by (x, y) and the clip left as it was."""
    with canvas.at(x, y, _UNBOUNDED):
        yield


def inside(width: int, height: int) -> Bounds:
    """Bounds of this size, negative sizes read as empty."""
    return Bounds(max(0, width), max(0, height))
