"""Row, Column and Stack: placement of children, pixel for pixel, as the app format lays out."""

from __future__ import annotations

import pytest

from shared.starlark.render.box import Box
from shared.starlark.render.errors import WidgetError
from shared.starlark.render.flex import Column, Row, Stack
from shared.starlark.render.timing import Animation, Sequence
from shared.starlark.render.widget import Bounds, Widget
from tests.shared.starlark.render.frame_maps import picture


def _three() -> list[Box]:
    return [Box(width=1, height=1, color="#f00"), Box(width=2, height=2, color="#0f0"),
            Box(width=1, height=3, color="#00f")]


def test_row_is_as_small_as_its_children_and_as_tall_as_the_tallest() -> None:
    row = Row(children=_three())
    assert row.size(Bounds(64, 32), 0) == Bounds(4, 3)
    assert picture(row, 6, 4) == ["rggb..", ".ggb..", "...b..", "......"]


@pytest.mark.parametrize(("align", "top_row"), [
    ("start", "rggb......"),
    ("end", "......rggb"),
    ("center", "...rggb..."),
    # 6 spare pixels, 2 gaps: 3 each.
    ("space_between", "r...gg...b"),
    # 6 spare, 4 slots of 1 and 2 left over for the first two slots.
    ("space_evenly", "..r..gg.b."),
    # 6 spare, 2 per child, half of that at the ends.
    ("space_around", ".r..gg..b."),
])
def test_expanded_row_spreads_spare_width_by_main_align(align: str, top_row: str) -> None:
    row = Row(children=_three(), expanded=True, main_align=align)
    assert picture(row, 10, 3)[0] == top_row


def test_space_between_gives_remainder_pixels_to_the_first_gaps() -> None:
    row = Row(children=_three(), expanded=True, main_align="space_between")
    # 7 spare pixels over 2 gaps: 4 then 3, the first child still at the edge.
    assert picture(row, 11, 1)[0] == "r....gg...b"


@pytest.mark.parametrize(("align", "column_of_red"), [
    ("start", "r.."), ("center", ".r."), ("end", "..r"),
])
def test_row_cross_align_places_short_children(align: str, column_of_red: str) -> None:
    row = Row(children=_three(), cross_align=align)
    image = picture(row, 4, 3)
    assert "".join(line[0] for line in image) == column_of_red
    assert "".join(line[1] for line in image) == {"start": "gg.", "center": "gg.",
                                                  "end": ".gg"}[align]


def test_column_stacks_downwards_and_aligns_across() -> None:
    column = Column(children=_three(), cross_align="end", expanded=True,
                    main_align="end")
    assert picture(column, 3, 8) == [
        "...", "...", ".r.", "gg.", "gg.", ".b.", ".b.", ".b.",
    ]
    # Not expanded, the column is only as tall as its children.
    assert Column(children=_three()).size(Bounds(64, 32), 0) == Bounds(2, 6)


def test_box_without_size_in_a_row_takes_the_room_its_siblings_left() -> None:
    row = Row(children=[Box(width=2, color="#f00"), Box(color="#00f")])
    assert picture(row, 5, 2) == ["rrbbb", "rrbbb"]


def test_row_stops_at_the_child_that_fills_it() -> None:
    row = Row(children=[Box(width=4, height=1, color="#f00"), Box(width=1, height=2, color="#0f0")])
    assert picture(row, 3, 2) == ["rrr", "..."]
    assert row.size(Bounds(3, 2), 0) == Bounds(3, 1)


def test_stack_paints_later_children_over_earlier_and_takes_the_largest_size() -> None:
    stack = Stack(children=[Box(width=3, height=2, color="#f00"), Box(width=1, height=1,
                                                                         color="#00f")])
    assert stack.size(Bounds(64, 32), 0) == Bounds(3, 2)
    assert picture(stack, 4, 3) == ["brr.", "rrr.", "...."]


def test_nested_row_in_column_inherits_remaining_room() -> None:
    tree = Column(children=[Box(height=1, color="#fff"),
                            Row(children=[Box(width=1, height=1, color="#f00")],
                                expanded=True, main_align="end")])
    assert picture(tree, 4, 3) == ["wwww", "...r", "...."]


@pytest.mark.parametrize(("make", "message"), [
    (lambda: Row(children=[Box(), "text"]), "Row: children item 1 must be a widget, not str"),
    (lambda: Row(children=Box()), "Row: children must be a list of widgets, not Box"),
    (lambda: Column(main_align="middle"), "Column: main_align must be one of 'start'"),
    (lambda: Row(cross_align="space_between"), "Row: cross_align must be one of 'start'"),
    (lambda: Row(expanded=1), "Row: expanded must be True or False, not int"),
    (lambda: Stack(children=[None, 3]), "Stack: children item 1 must be a widget, not int"),
])
def test_bad_arguments_name_widget_and_argument(make: object, message: str) -> None:
    with pytest.raises(WidgetError, match="^" + message):
        make()  # type: ignore[operator]


def test_child_taller_than_a_centred_row_is_centred_rounding_towards_zero() -> None:
    tall = Box(width=1, height=5, child=Column(children=[
        Box(width=1, height=1, color=colour) for colour in ("#f00", "#0f0", "#00f", "#fff", "#ff0")
    ]))
    row = Row(children=[Box(width=1, height=1, color="#f00"), tall], cross_align="center")
    # The row is 2 high; the 5-high child starts at (2 - 5) / 2 = -1.5, made -1.
    assert picture(row, 2, 2) == ["rg", ".b"]


@pytest.mark.parametrize("layout", [Row, Column, Stack, Animation, Sequence])
def test_none_children_are_skipped_as_pixlet_skips_them(layout: type[Widget]) -> None:
    red, green = Box(width=1, height=1, color="#f00"), Box(width=1, height=1, color="#0f0")
    widget = layout(children=[None, red, None, green, None])  # type: ignore[call-arg]
    assert widget.children == [red, green]  # type: ignore[attr-defined]
    on_top = ["g"] if layout is Stack else ["r"]  # a Stack paints the later child over
    assert picture(widget, 1, 1) == on_top
