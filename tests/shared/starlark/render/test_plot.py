"""Plot: scaling, pixel lines, dots, the y = 0 colour switch and the surface fill."""

from __future__ import annotations

import re

import pytest

from shared.starlark.render.box import Box
from shared.starlark.render.errors import WidgetError
from shared.starlark.render.flex import Row
from shared.starlark.render.plot import Plot
from shared.starlark.render.root import Root, render_frames
from shared.starlark.render.widget import Bounds
from tests.shared.starlark.render.frame_maps import picture

PEAK = [(0, 0), (2, 2), (4, 0)]


def test_line_joins_the_scaled_points_pixel_by_pixel() -> None:
    assert picture(Plot(data=PEAK, width=5, height=3), 5, 3) == ["..w..", ".w.w.", "w...w"]


def test_scatter_draws_only_the_points() -> None:
    plot = Plot(data=PEAK, width=5, height=3, chart_type="scatter")
    assert picture(plot, 5, 3) == ["..w..", ".....", "w...w"]


def test_plot_is_its_own_size_wherever_it_is() -> None:
    plot = Plot(data=PEAK, width=5, height=3, color="#0f0")
    assert plot.size(Bounds(64, 32), 0) == Bounds(5, 3)
    row = Row(children=[Box(width=2, height=1, color="#f00"), plot])
    assert picture(row, 7, 3) == ["rr..g..", "...g.g.", "..g...g"]


def test_below_zero_uses_inverted_colours_and_fill_runs_to_the_zero_row() -> None:
    plot = Plot(data=[(0, 1), (1, -1)], width=2, height=3, color="#0f0",
                color_inverted="#f00", fill=True)
    # y = 0 is the middle row: green above it, red below, the fill a third as bright.
    assert picture(plot, 2, 3) == ["g.", "Gg", ".r"]


def test_fill_colours_can_be_given() -> None:
    plot = Plot(data=[(0, 1), (1, -1)], width=2, height=3, color="#0f0",
                color_inverted="#f00", fill=True, fill_color="#fff", fill_color_inverted="#ff0")
    assert picture(plot, 2, 3) == ["g.", "wg", ".r"]


def test_default_fill_colour_is_dimmed_as_the_app_format_computes_it() -> None:
    plot = Plot(data=[(0, 1), (1, 1)], width=2, height=2, y_lim=(0, 1), color="#800000",
                fill=True)
    image = render_frames(Root(plot), 2, 2).images[0]
    # The format's 16-bit arithmetic keeps the low byte: 0x80 dims to 213, not 0x2a.
    assert image.getpixel((0, 1)) == (213, 0, 0)
    assert image.getpixel((0, 0)) == (128, 0, 0)


def test_limits_with_one_end_given_take_the_other_from_the_data() -> None:
    plot = Plot(data=[(0, 5), (9, 5)], width=10, height=3, x_lim=(-10, None))
    assert picture(plot, 10, 3) == ["..........", ".....wwwww", ".........."]


def test_a_flat_series_sits_in_the_middle_and_one_point_draws_no_line() -> None:
    assert picture(Plot(data=[(0, 7), (2, 7)], width=3, height=3), 3, 3)[1] == "www"
    assert picture(Plot(data=[(0, 7)], width=3, height=3), 3, 3) == ["...", "...", "..."]
    assert picture(Plot(data=[], width=3, height=1), 3, 1) == ["..."]


def test_halves_round_away_from_zero() -> None:
    # x = 1 of 0..2 across 2 pixels is 0.5: pixel 1 (rounding half to even would give 0).
    plot = Plot(data=[(0, 0), (1, 0)], width=2, height=1, x_lim=(0, 2), chart_type="scatter")
    assert picture(plot, 2, 1) == ["ww"]
    # x = 5 of 0..10 across 6 pixels is 2.5: pixel 3, not 2.
    plot = Plot(data=[(5, 0)], width=6, height=1, x_lim=(0, 10), chart_type="scatter")
    assert picture(plot, 6, 1) == ["...w.."]


@pytest.mark.parametrize(("make", "message"), [
    (lambda: Plot(data=[(1,)], width=2, height=2), "Plot: data item 0 must be an (x, y) pair"),
    (lambda: Plot(data=[("a", 1)], width=2, height=2), "Plot: data must be a number, not str"),
    (lambda: Plot(data=[], height=2), "Plot: width is required"),
    (lambda: Plot(data=[], width=0, height=2), "Plot: width must be at least 1, not 0"),
    (lambda: Plot(data=[], width=2, height=10**9), "Plot: height must be at most 1024, not"),
    (lambda: Plot(data=[], width=2, height=2, chart_type="bar"), "Plot: chart_type must be one"),
    (lambda: Plot(data=[], width=2, height=2, y_lim=(1, 2, 3)), "Plot: y_lim must be a (low"),
    (lambda: Plot(data=[], width=2, height=2, color="#12"), "Plot: color is not a colour"),
])
def test_bad_arguments_name_widget_and_argument(make: object, message: str) -> None:
    with pytest.raises(WidgetError, match="^" + re.escape(message)):
        make()  # type: ignore[operator]
