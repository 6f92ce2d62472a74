"""Easing curves of the app format's animation module: named, cubic-bezier, or a function.

A curve maps progress (0..1) to eased progress. "ease_in", "ease_out" and
"ease_in_out" are fixed cubic Béziers; "cubic-bezier(a, b, c, d)" names one with
control points (a, b) and (c, d). The Bézier is solved for x by halving the
interval until within 0.0001, as the app format does, so eased positions round
to the same pixels.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable

from shared.starlark.render.errors import WidgetError

Curve = Callable[[float], float]

_NUMBER = r"([+-]?(?:[0-9]*\.)?[0-9]+)"
_CUBIC_BEZIER = re.compile(rf"^cubic-bezier\({_NUMBER}, {_NUMBER}, {_NUMBER}, {_NUMBER}\)$")
_EPSILON = 0.0001
_MAX_HALVINGS = 64  # more than enough for _EPSILON; ends the search on odd input


def linear(progress: float) -> float:
    """Progress unchanged."""
    return progress


def cubic_bezier(a: float, b: float, c: float, d: float) -> Curve:
    """The curve through (0, 0), control points (a, b) and (c, d), and (1, 1)."""

    def along(t: float, first: float, second: float) -> float:
        return 3 * first * (1 - t) ** 2 * t + 3 * second * (1 - t) * t * t + t ** 3

    def curve(progress: float) -> float:
        if math.isnan(progress):
            return progress
        low, high = 0.0, 1.0
        middle = 0.5
        for _ in range(_MAX_HALVINGS):
            middle = low + (high - low) / 2
            x = along(middle, a, c)
            if abs(x - progress) < _EPSILON:
                break
            low, high = (middle, high) if x < progress else (low, middle)
        return along(middle, b, d)

    return curve


NAMED_CURVES: dict[str, Curve] = {
    "linear": linear,
    "ease_in": cubic_bezier(0.3, 0, 1, 1),
    "ease_out": cubic_bezier(0, 0, 0, 1),
    "ease_in_out": cubic_bezier(0.65, 0, 0.35, 1),
}


def curve_arg(widget: str, value: object, name: str = "curve") -> Curve:
    """``value`` as a curve: a name, a "cubic-bezier(a, b, c, d)" string or a function."""
    if value is None or value == "":
        return linear
    if isinstance(value, str):
        match = _CUBIC_BEZIER.match(value)
        if match:
            a, b, c, d = (float(group) for group in match.groups())
            return cubic_bezier(a, b, c, d)
        if value in NAMED_CURVES:
            return NAMED_CURVES[value]
        raise WidgetError(widget, name, f"is not a curve: {value[:40]!r} (use one of "
                          f"{', '.join(NAMED_CURVES)} or 'cubic-bezier(a, b, c, d)')")
    if callable(value):
        return _checked(widget, name, value)
    raise WidgetError(widget, name, f"must be a curve name or function, not {type(value).__name__}")


def _checked(widget: str, name: str, function: Callable[[float], object]) -> Curve:
    """An app's own curve function, whose answer must be a number."""

    def curve(progress: float) -> float:
        answer = function(progress)
        if isinstance(answer, bool) or not isinstance(answer, int | float):
            raise WidgetError(widget, name, f"function gave {type(answer).__name__}, not a number")
        return float(answer)

    return curve
