"""The app format's ``animation`` module: Transformation, AnimatedPositioned and their parts.

A Transformation plays keyframed transforms over ``duration`` frames after
``delay`` frames, holds for ``delay`` frames more (or plays back, when
alternating), then keeps the ``fill_mode`` end. Moves by whole pixels paint the
child straight onto the panel; rotations, scales and fractional moves paint it
aside and resample it, smoothing edges as the format's vector drawing does.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from PIL import Image

from shared.starlark.render.animation_curves import curve_arg
from shared.starlark.render.animation_transforms import (
    CENTRE,
    ROUNDINGS,
    Affine,
    Keyframe,
    Origin,
    Rotate,
    Scale,
    Transform,
    Translate,
    combined,
    interpolate,
)
from shared.starlark.render.errors import WidgetError
from shared.starlark.render.offsets import shifted
from shared.starlark.render.widget import Bounds, Canvas, Widget
from shared.starlark.render.widget_args import (
    MAX_EXTENT,
    bool_arg,
    choice_arg,
    int_arg,
    sequence_arg,
    widget_arg,
)

DIRECTIONS = ("normal", "reverse", "alternate", "alternate-reverse")
FILL_MODES = {"forwards": 1.0, "backwards": 0.0}
_FINE = 4  # sub-pixels per pixel side when resampling a rotated or scaled child
_REACH = 128  # how far beyond its own box a moved child is still drawn (a 2x panel)


def _keyframes(value: object) -> list[Keyframe]:
    """Keyframes by time, with a bare one added at 0.0 and 1.0 where missing."""
    if value is None:
        raise WidgetError("Transformation", "keyframes", "is required")
    given: list[Keyframe] = []
    for index, item in enumerate(sequence_arg("Transformation", "keyframes", value)):
        if not isinstance(item, Keyframe):
            raise WidgetError("Transformation", "keyframes",
                              f"item {index} must be a Keyframe, not {type(item).__name__}")
        given.append(item)
    ordered = sorted(given, key=lambda keyframe: keyframe.percentage)
    if not ordered or ordered[0].percentage != 0.0:
        ordered.insert(0, Keyframe(0.0, []))
    if ordered[-1].percentage != 1.0:
        ordered.append(Keyframe(1.0, []))
    return ordered


def _required_int(widget: str, name: str, value: object) -> int:
    if value is None:
        raise WidgetError(widget, name, "is required")
    return int_arg(widget, name, value, minimum=0)


class Transformation(Widget):
    """Its child moved, scaled and rotated by keyframes over time."""

    def __init__(self, child: object = None, keyframes: object = None, duration: object = None,
                 delay: object = None, width: object = None, height: object = None,
                 origin: object = None, direction: object = None, fill_mode: object = None,
                 rounding: object = None, wait_for_child: object = None) -> None:
        name = "Transformation"
        self.child = widget_arg(name, "child", child)
        self.keyframes = _keyframes(keyframes)
        self.duration = _required_int(name, "duration", duration)
        self.delay = int_arg(name, "delay", delay, minimum=0)
        self.width = int_arg(name, "width", width, minimum=0, maximum=MAX_EXTENT)
        self.height = int_arg(name, "height", height, minimum=0, maximum=MAX_EXTENT)
        if origin is not None and not isinstance(origin, Origin):
            raise WidgetError(name, "origin", f"must be an Origin, not {type(origin).__name__}")
        self.origin = origin or CENTRE
        self.direction = choice_arg(name, "direction", direction, DIRECTIONS, "normal")
        self.fill = FILL_MODES[choice_arg(name, "fill_mode", fill_mode, FILL_MODES, "forwards")]
        self.rounding = ROUNDINGS[choice_arg(name, "rounding", rounding, ROUNDINGS, "round")]
        self.wait_for_child = bool_arg(name, "wait_for_child", wait_for_child)

    def frame_count(self, bounds: Bounds) -> int:
        if self.direction.startswith("alternate"):
            own = 2 * (self.delay + self.duration)
        else:
            own = 2 * self.delay + self.duration
        child = self.child.frame_count(self.size(bounds, 0))
        return max(1, child if self.wait_for_child and child > own else own)

    def progress(self, frame: int) -> float:
        """How far through its keyframes the animation is at ``frame`` (NaN: not playing)."""
        delay, duration = self.delay, self.duration
        played = frame - delay
        if frame < delay:
            value = 0.0
        elif frame < delay + duration:
            value = played / (duration - 1) if duration > 1 else math.nan
        elif frame < 2 * delay + duration:
            value = 1.0
        elif self.direction.startswith("alternate") and frame < 2 * (delay + duration):
            back = frame - 2 * delay - duration
            value = 1.0 - back / (duration - 1) if duration > 1 else math.nan
        else:
            value = self.fill
        return 1.0 - value if self.direction.endswith("reverse") else value

    def transforms(self, frame: int) -> list[Transform]:
        """The transforms in force at ``frame``."""
        progress = self.progress(frame)
        if not 0.0 <= progress <= 1.0:
            return []
        for start, end in zip(self.keyframes, self.keyframes[1:], strict=False):
            if start.percentage <= progress <= end.percentage:
                span = end.percentage - start.percentage
                local = (progress - start.percentage) / span if span else 1.0
                return interpolate(start.transforms, end.transforms, start.curve(local))
        return []

    def size(self, bounds: Bounds, frame: int) -> Bounds:
        return Bounds(self.width or bounds.width, self.height or bounds.height)

    def paint(self, canvas: Canvas, bounds: Bounds, frame: int) -> None:
        own = self.size(bounds, frame)
        taken = self.child.size(own, frame)
        origin = (self.origin.x * taken.width, self.origin.y * taken.height)
        # Snapped, so that a quarter turn is exact and takes the whole-pixel path when it can.
        matrix = _snapped(combined(self.transforms(frame), origin, self.rounding))
        a, b, c, d, e, f = matrix
        if (a, b, d, e) == (1.0, 0.0, 0.0, 1.0) and c.is_integer() and f.is_integer():
            with shifted(canvas, int(c), int(f)):
                self.child.paint(canvas, own, frame)
            return
        _paint_resampled(canvas, self.child, own, frame, matrix)


def _snapped(matrix: Affine) -> Affine:
    a, b, c, d, e, f = (round(value, 9) + 0.0 for value in matrix)
    return (a, b, c, d, e, f)


def _paint_resampled(canvas: Canvas, child: Widget, own: Bounds, frame: int,
                     matrix: Affine) -> None:
    """Paint ``child`` aside, map what it drew through ``matrix`` and blend the result in."""
    if own.width <= 0 or own.height <= 0:
        return
    # Painted aside at most MAX_EXTENT square: a child handed a huge room costs no more.
    aside = Canvas(min(own.width, MAX_EXTENT), min(own.height, MAX_EXTENT))
    child.paint(aside, own, frame)
    drawn = aside.image.getbbox()
    if drawn is None:
        return
    x0, y0 = drawn[0], drawn[1]
    a, b, c, d, e, f = matrix
    # The drawn part alone, with the map moved to start where it starts.
    reach = (-_REACH, -_REACH, own.width + _REACH, own.height + _REACH)
    moved = _mapped(aside.image.crop(drawn), (a, b, a * x0 + b * y0 + c, d, e, d * x0 + e * y0 + f),
                    reach)
    if moved is not None:
        canvas.paste(moved[0], moved[1], moved[2])


def _mapped(image: Image.Image, matrix: Affine, reach: tuple[int, int, int, int]
            ) -> tuple[Image.Image, int, int] | None:
    """``image`` through ``matrix``: the result and where its top-left corner goes.

    Sampled on a grid _FINE times finer and averaged back, so each pixel shows how much
    of it the moved shapes cover, as vector drawing does. Only the part inside ``reach``
    (left, top, right, bottom) is made, so a huge scale costs no more than a panel.
    """
    a, b, c, d, e, f = matrix
    determinant = a * e - b * d
    if abs(determinant) < 1e-9:
        return None
    width, height = image.size
    corners = [(a * x + b * y + c, d * x + e * y + f)
               for x, y in ((0, 0), (width, 0), (0, height), (width, height))]
    left = max(reach[0], math.floor(min(x for x, _ in corners)))
    top = max(reach[1], math.floor(min(y for _, y in corners)))
    right = min(reach[2], math.ceil(max(x for x, _ in corners)))
    bottom = min(reach[3], math.ceil(max(y for _, y in corners)))
    if right <= left or bottom <= top:
        return None
    # Pillow wants the inverse map: from a fine pixel of the result back into the image.
    ia, ib, id_, ie = e / determinant, -b / determinant, -d / determinant, a / determinant
    dx, dy = left - c, top - f
    inverse = (ia / _FINE, ib / _FINE, ia * dx + ib * dy,
               id_ / _FINE, ie / _FINE, id_ * dx + ie * dy)
    fine = image.transform(((right - left) * _FINE, (bottom - top) * _FINE),
                           Image.Transform.AFFINE, inverse, resample=Image.Resampling.NEAREST)
    return fine.convert("RGBa").reduce(_FINE).convert("RGBA"), left, top


class AnimatedPositioned(Widget):
    """Its child moved from (x_start, y_start) to (x_end, y_end) over ``duration`` frames."""

    def __init__(self, child: object = None, x_start: object = None, x_end: object = None,
                 y_start: object = None, y_end: object = None, duration: object = None,
                 curve: object = None, delay: object = None, hold: object = None) -> None:
        name = "AnimatedPositioned"
        self.child = widget_arg(name, "child", child)
        self.x_start, self.x_end = int_arg(name, "x_start", x_start), int_arg(name, "x_end", x_end)
        self.y_start, self.y_end = int_arg(name, "y_start", y_start), int_arg(name, "y_end", y_end)
        self.duration = _required_int(name, "duration", duration)
        self.curve = curve_arg(name, curve)
        self.delay = int_arg(name, "delay", delay, minimum=0)
        self.hold = int_arg(name, "hold", hold, minimum=0)

    def frame_count(self, bounds: Bounds) -> int:
        return max(1, self.duration + self.delay + self.hold)

    def position(self, frame: int) -> tuple[int, int]:
        """Where the child is at ``frame``."""
        if frame < self.delay:
            share = 0.0
        elif frame >= self.delay + self.duration:
            share = 1.0
        else:
            share = self.curve((frame - self.delay) / self.duration)

        def along(start: int, end: int) -> int:
            step = math.ceil(abs(end - start) * share)
            return start + (step if end >= start else -step)

        return along(self.x_start, self.x_end), along(self.y_start, self.y_end)

    def size(self, bounds: Bounds, frame: int) -> Bounds:
        return bounds

    def paint(self, canvas: Canvas, bounds: Bounds, frame: int) -> None:
        x, y = self.position(frame)
        with shifted(canvas, x, y):
            self.child.paint(canvas, bounds, frame)


ANIMATION_WIDGETS: dict[str, Callable[..., object]] = {
    "Transformation": Transformation,
    "AnimatedPositioned": AnimatedPositioned,
    "Keyframe": Keyframe,
    "Translate": Translate,
    "Scale": Scale,
    "Rotate": Rotate,
    "Origin": Origin,
}
