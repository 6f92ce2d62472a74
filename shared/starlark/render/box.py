"""Box and Padding: the app format's single-child containers.

A Box fills the room it is given unless it has a width or height, and centres its
child; Padding insets its child by ``pad`` (an int, or left, top, right, bottom).
Sizes follow the app format even where a fixed width is larger than the room: the
parent's clip cuts what does not fit, and a child wider than a Box stays centred.
"""

from __future__ import annotations

from shared.starlark.render.errors import WidgetError
from shared.starlark.render.offsets import inside, shifted
from shared.starlark.render.widget import Bounds, Canvas, Widget
from shared.starlark.render.widget_args import (
    bool_arg,
    int_arg,
    optional_color,
    optional_widget,
    widget_arg,
)


class Box(Widget):
    """A rectangle, transparent unless coloured, that centres an optional child."""

    def __init__(self, child: object = None, width: object = None, height: object = None,
                 padding: object = None, color: object = None) -> None:
        self.child = optional_widget("Box", "child", child)
        self.width = int_arg("Box", "width", width, minimum=0)
        self.height = int_arg("Box", "height", height, minimum=0)
        self.padding = int_arg("Box", "padding", padding, minimum=0)
        self.color = optional_color("Box", "color", color)

    def size(self, bounds: Bounds, frame: int) -> Bounds:
        return Bounds(self.width or bounds.width, self.height or bounds.height)

    def paint(self, canvas: Canvas, bounds: Bounds, frame: int) -> None:
        width, height = self.width or bounds.width, self.height or bounds.height
        if self.color is not None:
            canvas.fill(0, 0, width, height, self.color)
        if self.child is None:
            return
        pad = self.padding
        room = Bounds(width - 2 * pad, height - 2 * pad)
        if room.width < 0 or room.height < 0:
            return
        taken = self.child.size(room, frame)
        with canvas.at(pad, pad, room), \
                shifted(canvas, width // 2 - taken.width // 2 - pad,
                        height // 2 - taken.height // 2 - pad):
            self.child.paint(canvas, room, frame)

    def frame_count(self, bounds: Bounds) -> int:
        if self.child is None:
            return 1
        width, height = self.width or bounds.width, self.height or bounds.height
        return self.child.frame_count(inside(width - 2 * self.padding,
                                             height - 2 * self.padding))


def _insets(value: object) -> tuple[int, int, int, int]:
    """``pad`` as (left, top, right, bottom); negative insets are allowed, as apps use them."""
    if value is None:
        return (0, 0, 0, 0)
    if isinstance(value, list | tuple):
        if len(value) != 4:
            raise WidgetError("Padding", "pad", f"must be an int or 4 ints, not {len(value)} items")
        left, top, right, bottom = (int_arg("Padding", "pad", side) for side in value)
        return (left, top, right, bottom)
    side = int_arg("Padding", "pad", value)
    return (side, side, side, side)


class Padding(Widget):
    """Its child with room around it, optionally on a coloured background."""

    def __init__(self, child: object = None, pad: object = None, expanded: object = None,
                 color: object = None) -> None:
        self.child = widget_arg("Padding", "child", child)
        self.pad = _insets(pad)
        self.expanded = bool_arg("Padding", "expanded", expanded)
        self.color = optional_color("Padding", "color", color)

    def _room(self, bounds: Bounds) -> Bounds:
        left, top, right, bottom = self.pad
        return inside(bounds.width - left - right, bounds.height - top - bottom)

    def size(self, bounds: Bounds, frame: int) -> Bounds:
        if self.expanded:
            return bounds
        left, top, right, bottom = self.pad
        taken = self.child.size(self._room(bounds), frame)
        return inside(taken.width + left + right, taken.height + top + bottom)

    def paint(self, canvas: Canvas, bounds: Bounds, frame: int) -> None:
        own = self.size(bounds, frame)
        if self.color is not None:
            canvas.fill(0, 0, own.width, own.height, self.color)
        left, top, right, bottom = self.pad
        # Apps use negative padding to nudge a child; the clip then starts at the edge.
        clip_x, clip_y = max(0, left), max(0, top)
        clip = inside(own.width - left - right, own.height - top - bottom)
        with canvas.at(clip_x, clip_y, clip), shifted(canvas, left - clip_x, top - clip_y):
            self.child.paint(canvas, self._room(bounds), frame)

    def frame_count(self, bounds: Bounds) -> int:
        return self.child.frame_count(self._room(bounds))
