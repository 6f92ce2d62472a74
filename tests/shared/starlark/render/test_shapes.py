"""Circle and PieChart: their size, filled interiors, smoothed rims and centred children."""

from __future__ import annotations

import re

import pytest
from PIL import Image, ImageOps

from shared.starlark.render.box import Box
from shared.starlark.render.errors import WidgetError
from shared.starlark.render.root import Root, render_frames
from shared.starlark.render.shapes import Circle, PieChart
from shared.starlark.render.timing import Animation
from shared.starlark.render.widget import Bounds, Widget

PANEL = Bounds(64, 32)  # the room frames are counted in, a 64x32 panel


def _frame(widget: Widget, width: int, height: int) -> Image.Image:
    return render_frames(Root(widget), width, height).images[0]


def test_circle_fills_its_middle_leaves_its_corners_and_smooths_its_rim() -> None:
    circle = Circle(diameter=8, color="#f00")
    assert circle.size(Bounds(4, 4), 0) == Bounds(8, 8)
    image = _frame(circle, 9, 9)
    assert image.getpixel((4, 4)) == (255, 0, 0)
    assert image.getpixel((0, 0)) == (0, 0, 0)
    assert image.getpixel((8, 4)) == (0, 0, 0)
    rim = image.getpixel((0, 2))
    assert isinstance(rim, tuple) and 0 < rim[0] < 255 and rim[1:] == (0, 0)
    disc = image.crop((0, 0, 8, 8))
    assert disc.tobytes() == ImageOps.mirror(disc).tobytes() == ImageOps.flip(disc).tobytes()
    assert disc.tobytes() == disc.transpose(Image.Transpose.TRANSPOSE).tobytes()


def test_circle_centres_its_child_rounding_the_centre_up() -> None:
    circle = Circle(diameter=5, color="#f00", child=Box(width=1, height=1, color="#00f"))
    image = _frame(circle, 5, 5)
    # The centre of a 5-wide circle is taken as pixel 3, as the app format does.
    assert image.getpixel((3, 3)) == (0, 0, 255)
    assert image.getpixel((2, 2)) == (255, 0, 0)


def test_circle_counts_its_childs_frames() -> None:
    blink = Animation(children=[Box(width=1, height=1), Box(width=1, height=1)])
    assert Circle(diameter=3, color="#fff", child=blink).frame_count(PANEL) == 2


def test_pie_chart_slices_run_clockwise_from_three_oclock() -> None:
    pie = PieChart(colors=["#f00", "#00f"], weights=[3, 1], diameter=8)
    assert pie.size(Bounds(64, 32), 0) == Bounds(8, 8)
    image = _frame(pie, 8, 8)
    # Three quarters red from three o'clock through six and nine to twelve; the last
    # quarter (top right) blue.
    assert image.getpixel((5, 2)) == (0, 0, 255)
    assert image.getpixel((5, 5)) == (255, 0, 0)
    assert image.getpixel((2, 5)) == (255, 0, 0)
    assert image.getpixel((2, 2)) == (255, 0, 0)
    assert image.getpixel((0, 0)) == (0, 0, 0)


def test_pie_chart_reuses_colours_in_turn() -> None:
    pie = PieChart(colors=["#f00", "#00f"], weights=[1, 1, 1, 1], diameter=8)
    image = _frame(pie, 8, 8)
    assert [image.getpixel(xy) for xy in ((5, 5), (2, 5), (2, 2), (5, 2))] == [
        (255, 0, 0), (0, 0, 255), (255, 0, 0), (0, 0, 255)]


def test_neighbouring_slices_share_the_pixels_their_edge_crosses() -> None:
    pie = PieChart(colors=["#f00", "#0f0", "#00f"], weights=[1, 1, 1], diameter=8)
    # The edge at 120 degrees runs through pixel (2, 6): red and green split it, with no
    # dark seam between them.
    pixel = _frame(pie, 8, 8).getpixel((2, 6))
    assert isinstance(pixel, tuple)
    red, green, blue = pixel
    assert red > 0 and green > 0 and blue == 0 and red + green >= 250


def test_pie_chart_with_no_weight_draws_nothing() -> None:
    image = _frame(PieChart(colors=["#f00"], weights=[0, 0], diameter=4), 4, 4)
    assert image.getextrema() == ((0, 0), (0, 0), (0, 0))


@pytest.mark.parametrize(("make", "message"), [
    (lambda: Circle(diameter=4), "Circle: color is required"),
    (lambda: Circle(color="#fff"), "Circle: diameter is required"),
    (lambda: Circle(color="#fff", diameter=-2), "Circle: diameter must be at least 0, not -2"),
    (lambda: Circle(color="#fff", diameter=2, child=[]), "Circle: child must be a widget"),
    (lambda: PieChart(colors=[], weights=[1], diameter=4), "PieChart: colors must name at"),
    (lambda: Circle(color="#fff", diameter=10**6), "Circle: diameter must be at most 256, not"),
    (lambda: PieChart(colors=["#fff"], weights=[1], diameter=257), "PieChart: diameter must be at"),
    (lambda: PieChart(colors=["#f00"], weights=[-1], diameter=4),
     "PieChart: weights must not be negative"),
    (lambda: PieChart(colors=["nope"], weights=[1], diameter=4), "PieChart: colors is not a"),
    (lambda: PieChart(colors=["#f00"], weights="1", diameter=4), "PieChart: weights must be a"),
])
def test_bad_arguments_name_widget_and_argument(make: object, message: str) -> None:
    with pytest.raises(WidgetError, match="^" + re.escape(message)):
        make()  # type: ignore[operator]
