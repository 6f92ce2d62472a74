"""Transforms and keyframes of the app format's animation module, and how they interpolate.

Transforms apply in list order to the child's drawing, like a chain of canvas
transforms: the last in the list acts on the child first. Rotate and Scale act
about the origin (a share of the child's size, the centre by default); Translate
moves by whole pixels after rounding each offset. Between two keyframes the lists
are paired item by item, the shorter padded with do-nothing transforms of the
other's kinds; a pair of different kinds stops the whole list from applying.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from shared.starlark.render.animation_curves import Curve, curve_arg
from shared.starlark.render.errors import WidgetError
from shared.starlark.render.widget_args import number_arg, sequence_arg

# x' = a x + b y + c, y' = d x + e y + f
Affine = tuple[float, float, float, float, float, float]
IDENTITY: Affine = (1.0, 0.0, 0.0, 0.0, 1.0, 0.0)


def then(outer: Affine, inner: Affine) -> Affine:
    """The affine map applying ``inner`` first, then ``outer``."""
    a, b, c, d, e, f = outer
    p, q, r, s, t, u = inner
    return (a * p + b * s, a * q + b * t, a * r + b * u + c,
            d * p + e * s, d * q + e * t, d * r + e * u + f)


def _about(origin: tuple[float, float], inner: Affine) -> Affine:
    ox, oy = origin
    return then((1, 0, ox, 0, 1, oy), then(inner, (1, 0, -ox, 0, 1, -oy)))


def _round_half_away(value: float) -> float:
    return math.copysign(math.floor(abs(value) + 0.5), value)


ROUNDINGS: dict[str, Callable[[float], float]] = {
    "round": _round_half_away, "floor": math.floor, "ceil": math.ceil, "none": lambda v: v,
}


def _required(widget: str, name: str, value: object) -> float:
    if value is None:
        raise WidgetError(widget, name, "is required")
    return number_arg(widget, name, value)


@dataclass(frozen=True)
class Translate:
    """Move by (x, y) pixels."""

    x: float
    y: float

    def __init__(self, x: object = None, y: object = None) -> None:
        object.__setattr__(self, "x", _required("Translate", "x", x))
        object.__setattr__(self, "y", _required("Translate", "y", y))

    def matrix(self, origin: tuple[float, float], rounding: Callable[[float], float]) -> Affine:
        return (1.0, 0.0, rounding(self.x), 0.0, 1.0, rounding(self.y))


@dataclass(frozen=True)
class Scale:
    """Scale by (x, y) about the origin."""

    x: float
    y: float

    def __init__(self, x: object = None, y: object = None) -> None:
        object.__setattr__(self, "x", _required("Scale", "x", x))
        object.__setattr__(self, "y", _required("Scale", "y", y))

    def matrix(self, origin: tuple[float, float], rounding: Callable[[float], float]) -> Affine:
        return _about(origin, (self.x, 0.0, 0.0, 0.0, self.y, 0.0))


@dataclass(frozen=True)
class Rotate:
    """Rotate by ``angle`` degrees, clockwise on the panel, about the origin."""

    angle: float

    def __init__(self, angle: object = None) -> None:
        object.__setattr__(self, "angle", _required("Rotate", "angle", angle))

    def matrix(self, origin: tuple[float, float], rounding: Callable[[float], float]) -> Affine:
        radians = math.radians(self.angle)
        cos, sin = math.cos(radians), math.sin(radians)
        return _about(origin, (cos, -sin, 0.0, sin, cos, 0.0))


Transform = Translate | Scale | Rotate
_DO_NOTHING: dict[type, Transform] = {
    Translate: Translate(0, 0), Scale: Scale(1, 1), Rotate: Rotate(0),
}


@dataclass(frozen=True)
class Origin:
    """The anchor of Rotate and Scale, as shares of the child's width and height."""

    x: float
    y: float

    def __init__(self, x: object = None, y: object = None) -> None:
        object.__setattr__(self, "x", _required("Origin", "x", x))
        object.__setattr__(self, "y", _required("Origin", "y", y))


CENTRE = Origin(0.5, 0.5)


@dataclass(frozen=True)
class Keyframe:
    """The transforms at ``percentage`` (0.0-1.0) of the animation, eased by ``curve`` onwards."""

    percentage: float
    transforms: tuple[Transform, ...]
    curve: Curve

    def __init__(self, percentage: object = None, transforms: object = None,
                 curve: object = None) -> None:
        object.__setattr__(self, "percentage", _required("Keyframe", "percentage", percentage))
        object.__setattr__(self, "transforms", _transforms(transforms))
        object.__setattr__(self, "curve", curve_arg("Keyframe", curve))


def _transforms(value: object) -> tuple[Transform, ...]:
    items = sequence_arg("Keyframe", "transforms", value)
    for index, item in enumerate(items):
        if not isinstance(item, Translate | Scale | Rotate):
            raise WidgetError("Keyframe", "transforms",
                              f"item {index} must be a Translate, Scale or Rotate, "
                              f"not {type(item).__name__}")
    return tuple(items)  # type: ignore[arg-type]


def _padded(short: Sequence[Transform], long: Sequence[Transform]) -> list[Transform]:
    return [*short, *(_DO_NOTHING[type(item)] for item in long[len(short):])]


def _between(start: Transform, end: Transform, progress: float) -> Transform | None:
    def lerp(a: float, b: float) -> float:
        return a + (b - a) * progress

    if isinstance(start, Translate) and isinstance(end, Translate):
        return Translate(lerp(start.x, end.x), lerp(start.y, end.y))
    if isinstance(start, Scale) and isinstance(end, Scale):
        return Scale(lerp(start.x, end.x), lerp(start.y, end.y))
    if isinstance(start, Rotate) and isinstance(end, Rotate):
        return Rotate(lerp(start.angle, end.angle))
    return None


def interpolate(start: Sequence[Transform], end: Sequence[Transform],
                progress: float) -> list[Transform]:
    """The transforms ``progress`` of the way from ``start`` to ``end``; [] if kinds differ."""
    start, end = _padded(start, end), _padded(end, start)
    result = [_between(a, b, progress) for a, b in zip(start, end, strict=True)]
    if any(item is None for item in result):
        return []
    return [item for item in result if item is not None]


def combined(transforms: Sequence[Transform], origin: tuple[float, float],
             rounding: Callable[[float], float]) -> Affine:
    """One affine map doing ``transforms`` in the app format's order."""
    matrix = IDENTITY
    for transform in transforms:
        matrix = then(matrix, transform.matrix(origin, rounding))
    return matrix
