"""Circle and PieChart: filled round shapes with smoothed edges.

Edges are smoothed as the app format's vector drawing smooths them: a pixel's
opacity is the share of it the shape covers (measured on an 8x finer grid). Both
widgets are as big as their diameter; a Circle's child is centred on it.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from shared.starlark.render.color import parse_color
from shared.starlark.render.errors import WidgetError
from shared.starlark.render.offsets import shifted
from shared.starlark.render.widget import Bounds, Canvas, Color, Widget
from shared.starlark.render.widget_args import int_arg, number_arg, optional_widget, sequence_arg

_FINE = 8  # sub-pixels per pixel side when measuring coverage
MAX_DIAMETER = 256  # four times a large panel's height; the coverage grid is _FINE² bigger


@lru_cache(maxsize=64)
def _disc(diameter: int) -> Image.Image:
    """Coverage ("L") of a disc filling a ``diameter`` square."""
    fine = Image.new("L", (diameter * _FINE, diameter * _FINE), 0)
    ImageDraw.Draw(fine).ellipse((0, 0, diameter * _FINE - 1, diameter * _FINE - 1), fill=255)
    return fine.reduce(_FINE)


def _coloured(mask: Image.Image, color: Color) -> Image.Image:
    """An RGBA image of ``color`` whose opacity is ``mask`` scaled by the colour's alpha."""
    image = Image.new("RGBA", mask.size, color)
    if color[3] != 255:
        mask = mask.point(lambda level: level * color[3] // 255)
    image.putalpha(mask)
    return image


class Circle(Widget):
    """A filled circle of ``diameter`` with an optional child at its centre."""

    def __init__(self, child: object = None, color: object = None,
                 diameter: object = None) -> None:
        self.child = optional_widget("Circle", "child", child)
        if color is None:
            raise WidgetError("Circle", "color", "is required")
        self.color = parse_color(color, "Circle", "color")
        if diameter is None:
            raise WidgetError("Circle", "diameter", "is required")
        self.diameter = int_arg("Circle", "diameter", diameter, minimum=0,
                                maximum=MAX_DIAMETER)
        self._image = _coloured(_disc(self.diameter), self.color) if self.diameter else None

    def size(self, bounds: Bounds, frame: int) -> Bounds:
        return Bounds(self.diameter, self.diameter)

    def paint(self, canvas: Canvas, bounds: Bounds, frame: int) -> None:
        if self._image is not None:
            canvas.paste(self._image, 0, 0)
        if self.child is None:
            return
        room = Bounds(self.diameter, self.diameter)
        taken = self.child.size(room, frame)
        centre = (self.diameter + 1) // 2
        with shifted(canvas, centre - taken.width // 2, centre - taken.height // 2):
            self.child.paint(canvas, room, frame)

    def frame_count(self, bounds: Bounds) -> int:
        if self.child is None:
            return 1
        return self.child.frame_count(Bounds(self.diameter, self.diameter))


class PieChart(Widget):
    """A disc cut into slices sized by ``weights``, coloured by ``colors`` in turn."""

    def __init__(self, colors: object = None, weights: object = None,
                 diameter: object = None) -> None:
        colours = [parse_color(item, "PieChart", "colors")
                   for item in sequence_arg("PieChart", "colors", colors)]
        weights_given = [number_arg("PieChart", "weights", item)
                         for item in sequence_arg("PieChart", "weights", weights)]
        if any(weight < 0 for weight in weights_given):
            raise WidgetError("PieChart", "weights", "must not be negative")
        if weights_given and not colours:
            raise WidgetError("PieChart", "colors", "must name at least one colour")
        if diameter is None:
            raise WidgetError("PieChart", "diameter", "is required")
        self.diameter = int_arg("PieChart", "diameter", diameter, minimum=0,
                                maximum=MAX_DIAMETER)
        self.colors, self.weights = colours, weights_given
        self._image = self._draw() if self.diameter and sum(weights_given) > 0 else None

    def _draw(self) -> Image.Image:
        """All slices on one finer grid, averaged back: neighbours share their edge pixels."""
        side = self.diameter * _FINE
        fine = Image.new("RGBA", (side, side), (0, 0, 0, 0))
        draw = ImageDraw.Draw(fine)
        total, start = sum(self.weights), 0.0
        for index, weight in enumerate(self.weights):
            end = start + weight / total
            if end > start:
                draw.pieslice((0, 0, side - 1, side - 1), start * 360, end * 360,
                              fill=self.colors[index % len(self.colors)])
            start = end
        return fine.convert("RGBa").reduce(_FINE).convert("RGBA")

    def size(self, bounds: Bounds, frame: int) -> Bounds:
        return Bounds(self.diameter, self.diameter)

    def paint(self, canvas: Canvas, bounds: Bounds, frame: int) -> None:
        if self._image is not None:
            canvas.paste(self._image, 0, 0)
