"""Plot: a data series drawn as a line (or dots) in a fixed-size box, optionally filled.

Points are scaled into the box by ``x_lim``/``y_lim`` (a missing end is taken from
the data), rounded to whole pixels and joined by straight pixel lines. Pixels
below y = 0 use the inverted colours; the optional fill runs from each line
pixel to the y = 0 row, in the line colour dimmed to a third unless given.
"""

from __future__ import annotations

import math
from collections.abc import Iterator

from PIL import Image

from shared.starlark.render.errors import WidgetError
from shared.starlark.render.widget import Bounds, Canvas, Color, Widget
from shared.starlark.render.widget_args import (
    MAX_EXTENT,
    bool_arg,
    choice_arg,
    int_arg,
    number_arg,
    optional_color,
    sequence_arg,
)

WHITE: Color = (255, 255, 255, 255)
_DIM = 0x55  # the fill's share of the line colour


def _dimmed(color: Color) -> Color:
    # As the app format computes it, on 16-bit channels kept to their low byte.
    red, green, blue = ((channel * 257 * _DIM // 255) & 0xFF for channel in color[:3])
    return (red, green, blue, 255)


def _nearest(value: float) -> int:
    """``value`` rounded to a whole number, halves away from zero."""
    return int(math.copysign(math.floor(abs(value) + 0.5), value))


def _points(data: object) -> list[tuple[float, float]]:
    points = []
    for index, item in enumerate(sequence_arg("Plot", "data", data)):
        if not isinstance(item, list | tuple) or len(item) != 2:
            raise WidgetError("Plot", "data", f"item {index} must be an (x, y) pair")
        points.append((number_arg("Plot", "data", item[0]), number_arg("Plot", "data", item[1])))
    return points


def _limit(name: str, value: object) -> tuple[float, float]:
    """A (low, high) pair; a missing end (None) is NaN, taken from the data later."""
    if value is None:
        return (math.nan, math.nan)
    if not isinstance(value, list | tuple) or len(value) != 2:
        raise WidgetError("Plot", name, "must be a (low, high) pair")
    low, high = (math.nan if end is None else number_arg("Plot", name, end) for end in value)
    return (low, high)


def _axis(limit: tuple[float, float], values: list[float], centre: bool) -> tuple[float, float]:
    """The low and high ends of one axis, filled in from the data where not given."""
    low = min(values) if math.isnan(limit[0]) else limit[0]
    high = max(values) if math.isnan(limit[1]) else limit[1]
    if high < low:
        if math.isnan(limit[0]):
            low = high - 0.5
        else:
            high = low + 0.5
    if low == high:
        smallest = min(values)
        low, high = (smallest - 0.5, smallest + 0.5) if centre else (smallest, smallest + 0.5)
    return low, high


def _segment(x0: int, y0: int, x1: int, y1: int) -> Iterator[tuple[int, int]]:
    """The pixels of a straight line from (x0, y0) to (x1, y1), both ends included."""
    dx, dy = abs(x1 - x0), -abs(y1 - y0)
    sx, sy = (1 if x0 < x1 else -1), (1 if y0 < y1 else -1)
    error = dx + dy
    yield x0, y0
    while (x0, y0) != (x1, y1):
        twice = 2 * error
        if twice >= dy:
            error, x0 = error + dy, x0 + sx
        if twice <= dx:
            error, y0 = error + dx, y0 + sy
        yield x0, y0


class Plot(Widget):
    """A data series in a ``width`` x ``height`` box."""

    def __init__(self, data: object = None, width: object = None, height: object = None,
                 color: object = None, color_inverted: object = None, x_lim: object = None,
                 y_lim: object = None, fill: object = None, fill_color: object = None,
                 fill_color_inverted: object = None, chart_type: object = None) -> None:
        self.data = _points(data)
        for name, value in (("width", width), ("height", height)):
            if value is None:
                raise WidgetError("Plot", name, "is required")
        self.width = int_arg("Plot", "width", width, minimum=1, maximum=MAX_EXTENT)
        self.height = int_arg("Plot", "height", height, minimum=1, maximum=MAX_EXTENT)
        self.color = optional_color("Plot", "color", color) or WHITE
        self.color_inverted = optional_color("Plot", "color_inverted", color_inverted) or self.color
        self.fill_color = optional_color("Plot", "fill_color", fill_color) or _dimmed(self.color)
        self.fill_color_inverted = (optional_color("Plot", "fill_color_inverted",
                                                   fill_color_inverted)
                                    or _dimmed(self.color_inverted))
        self.x_lim, self.y_lim = _limit("x_lim", x_lim), _limit("y_lim", y_lim)
        self.fill = bool_arg("Plot", "fill", fill)
        self.chart_type = choice_arg("Plot", "chart_type", chart_type, ("line", "scatter"), "line")
        self._image: Image.Image | None = None

    def size(self, bounds: Bounds, frame: int) -> Bounds:
        return Bounds(self.width, self.height)

    def paint(self, canvas: Canvas, bounds: Bounds, frame: int) -> None:
        if self._image is None:
            self._image = self._draw()
        canvas.paste(self._image, 0, 0)

    def _scaled(self) -> tuple[list[tuple[int, int]], int]:
        """The data as pixel positions, and the pixel row of y = 0."""
        x_low, x_high = _axis(self.x_lim, [x for x, _ in self.data], centre=False)
        y_low, y_high = _axis(self.y_lim, [y for _, y in self.data], centre=True)
        right, bottom = self.width - 1, self.height - 1

        def row(y: float) -> int:
            return bottom - _nearest((y - y_low) / (y_high - y_low) * bottom)

        pixels = [(_nearest((x - x_low) / (x_high - x_low) * right), row(y))
                  for x, y in self.data]
        return pixels, row(0.0)

    def _draw(self) -> Image.Image:
        image = Image.new("RGBA", (self.width, self.height), (0, 0, 0, 0))
        if not self.data:
            return image
        points, zero = self._scaled()
        line = [pixel for start, end in zip(points, points[1:], strict=False)
                for pixel in _segment(*start, *end)]
        if self.fill:
            self._fill(image, line, zero)
        for x, y in (points if self.chart_type == "scatter" else line):
            _put(image, x, y, self.color_inverted if y > zero else self.color)
        return image

    def _fill(self, image: Image.Image, line: list[tuple[int, int]], zero: int) -> None:
        """Each line pixel's column, from the line to the y = 0 row."""
        for x, y in line:
            if not (0 <= x < self.width and 0 <= y < self.height):
                continue
            if y > zero:
                for row in range(y, max(zero, -1), -1):
                    _put(image, x, row, self.fill_color_inverted)
            else:
                for row in range(y, min(zero, self.height) + 1):
                    _put(image, x, row, self.fill_color)


def _put(image: Image.Image, x: int, y: int, color: Color) -> None:
    if 0 <= x < image.width and 0 <= y < image.height:
        image.putpixel((x, y), color)
