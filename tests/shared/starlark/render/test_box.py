"""Box and Padding: filling, centring and insets, pixel for pixel."""

from __future__ import annotations

import pytest

from shared.starlark.render.box import Box, Padding
from shared.starlark.render.errors import WidgetError
from shared.starlark.render.flex import Row
from shared.starlark.render.widget import Bounds
from tests.shared.starlark.render.frame_maps import picture


def test_box_without_size_fills_its_bounds_with_its_colour() -> None:
    assert Box(color="#f00").size(Bounds(5, 3), 0) == Bounds(5, 3)
    assert picture(Box(color="#f00"), 3, 2) == ["rrr", "rrr"]


def test_box_without_colour_is_transparent() -> None:
    assert picture(Box(width=2, height=2), 3, 2) == ["...", "..."]


def test_box_centres_its_child_rounding_towards_the_top_left() -> None:
    box = Box(width=5, height=4, color="#00f", child=Box(width=2, height=1, color="#f00"))
    # 5 // 2 - 2 // 2 = 1 across; 4 // 2 - 1 // 2 = 2 down.
    assert picture(box, 6, 4) == ["bbbbb.", "bbbbb.", "brrbb.", "bbbbb."]


def test_box_padding_shrinks_the_room_its_child_fills() -> None:
    box = Box(width=5, height=4, padding=1, color="#00f", child=Box(color="#f00"))
    assert picture(box, 5, 4) == ["bbbbb", "brrrb", "brrrb", "bbbbb"]


def test_child_wider_than_its_box_stays_centred_and_clipped() -> None:
    wide = Row(children=[Box(width=1, height=1, color="#f00"), Box(width=4, height=1, color="#0f0"),
                         Box(width=1, height=1, color="#00f")])
    box = Box(width=4, height=1, child=Box(width=6, height=1, child=wide))
    # The 6-pixel child starts at 4 // 2 - 6 // 2 = -1: its ends are cut, not its right side.
    assert picture(box, 6, 1) == ["gggg.."]


def test_padding_with_one_int_insets_every_side() -> None:
    padded = Padding(child=Box(width=2, height=1, color="#f00"), pad=1, color="#00f")
    assert padded.size(Bounds(64, 32), 0) == Bounds(4, 3)
    assert picture(padded, 5, 4) == ["bbbb.", "brrb.", "bbbb.", "....."]


def test_padding_with_four_ints_is_left_top_right_bottom() -> None:
    padded = Padding(child=Box(width=1, height=1, color="#f00"), pad=(2, 1, 0, 0))
    assert padded.size(Bounds(64, 32), 0) == Bounds(3, 2)
    assert picture(padded, 4, 3) == ["....", "..r.", "...."]


def test_expanded_padding_takes_all_its_bounds() -> None:
    padded = Padding(child=Box(width=1, height=1), pad=[1, 1, 1, 1], expanded=True,
                     color="#0f0")
    assert padded.size(Bounds(4, 3), 0) == Bounds(4, 3)
    assert picture(padded, 4, 3) == ["gggg", "gggg", "gggg"]


def test_negative_padding_moves_the_child_up_and_left() -> None:
    padded = Padding(child=Box(width=3, height=2, color="#f00",
                               child=Box(width=1, height=1, color="#00f")), pad=(-1, -1, 0, 0))
    # The child's centre pixel (1, 1) lands on (0, 0); the padding is one pixel shorter.
    assert picture(padded, 4, 2) == ["br..", "...."]


def test_negative_padding_clips_from_the_padding_edge_not_beyond_it() -> None:
    nudged = Padding(child=Box(width=3, height=1, color="#f00"), pad=(-1, 0, 0, 0))
    # 2 wide, centred at 2 in the box; the child starts at 1 but shows only from 2.
    assert picture(Box(width=6, height=1, child=nudged), 6, 1) == ["..rr.."]


@pytest.mark.parametrize(("make", "message"), [
    (lambda: Box(width=-1), "Box: width must be at least 0, not -1"),
    (lambda: Box(height="10"), "Box: height must be a whole number, not str"),
    (lambda: Box(child="x"), "Box: child must be a widget, not str"),
    (lambda: Box(color="blue"), "Box: color is not a colour: 'blue'"),
    (lambda: Padding(child=Box(), pad=(1, 2)), "Padding: pad must be an int or 4 ints"),
    (lambda: Padding(child=Box(), pad="1"), "Padding: pad must be a whole number, not str"),
    (lambda: Padding(pad=1), "Padding: child must be a widget, not NoneType"),
])
def test_bad_arguments_name_widget_and_argument(make: object, message: str) -> None:
    with pytest.raises(WidgetError, match="^" + message):
        make()  # type: ignore[operator]
