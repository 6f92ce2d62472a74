"""Animation and Sequence: which child shows at which frame."""

from __future__ import annotations

import pytest

from shared.starlark.render.box import Box, Padding
from shared.starlark.render.errors import WidgetError
from shared.starlark.render.flex import Row
from shared.starlark.render.marquee import Marquee
from shared.starlark.render.text import WrappedText
from shared.starlark.render.timing import Animation, Sequence
from shared.starlark.render.widget import Bounds
from tests.shared.starlark.render.frame_maps import pictures

PANEL = Bounds(64, 32)  # the room frames are counted in, a 64x32 panel


def _dot(color: str, width: int = 1) -> Box:
    return Box(width=width, height=1, color=color)


def test_animation_shows_child_i_at_frame_i_and_sizes_to_it() -> None:
    animation = Animation(children=[_dot("#f00"), _dot("#0f0", 2), _dot("#00f", 3)])
    assert animation.frame_count(PANEL) == 3
    assert [frame[0] for frame in pictures(animation, 3, 1)] == ["r..", "gg.", "bbb"]
    assert animation.size(Bounds(9, 9), 1) == Bounds(2, 1)


def test_animation_loops_when_the_tree_has_more_frames() -> None:
    short = Animation(children=[_dot("#f00"), _dot("#0f0")])
    long = Animation(children=[_dot("#00f"), _dot("#fff"), _dot("#ff0")])
    assert [frame[0] for frame in pictures(Row(children=[short, long]), 2, 1)] == [
        "rb", "gw", "ry",
    ]


def test_animation_inside_padding_inside_row_counts_its_frames() -> None:
    nested = Row(children=[_dot("#fff"), Padding(child=Animation(children=[_dot("#f00")] * 4),
                                                 pad=0)])
    assert nested.frame_count(PANEL) == 4


def test_sequence_plays_children_one_after_another() -> None:
    sequence = Sequence(children=[
        Animation(children=[_dot("#f00"), _dot("#0f0")]),
        _dot("#00f"),
        Animation(children=[_dot("#fff"), _dot("#ff0")]),
    ])
    assert sequence.frame_count(PANEL) == 5
    assert [frame[0] for frame in pictures(sequence, 1, 1)] == ["r", "g", "b", "w", "y"]


def test_sequence_child_sees_its_own_frame_numbers() -> None:
    inner = Sequence(children=[_dot("#f00"), Animation(children=[_dot("#0f0"), _dot("#00f")])])
    outer = Sequence(children=[_dot("#fff"), inner])
    assert [frame[0] for frame in pictures(outer, 1, 1)] == ["w", "r", "g", "b"]


def test_sequence_shows_nothing_after_its_last_frame() -> None:
    sequence = Sequence(children=[_dot("#f00")])
    longer = Animation(children=[Box(width=1, height=1), Box(width=1, height=1)])
    frames = pictures(Row(children=[sequence, longer]), 1, 1)
    assert [frame[0] for frame in frames] == ["r", "."]
    assert sequence.size(Bounds(5, 5), 3) == Bounds(0, 0)


def test_empty_animation_and_sequence_take_no_room_and_one_frame() -> None:
    for widget in (Animation(children=[]), Sequence(children=[])):
        assert widget.frame_count(PANEL) == 1
        assert widget.size(Bounds(4, 4), 0) == Bounds(0, 0)


@pytest.mark.parametrize(("make", "message"), [
    (lambda: Animation(children=[Box(), 3]),
     "Animation: children item 1 must be a widget, not int"),
    (lambda: Sequence(children="abc"), "Sequence: children must be a list of widgets, not str"),
])
def test_bad_arguments_name_widget_and_argument(make: object, message: str) -> None:
    with pytest.raises(WidgetError, match="^" + message):
        make()  # type: ignore[operator]


def test_a_sequence_counts_each_child_in_the_room_it_is_painted_in() -> None:
    # In 12 pixels the wrapped text is two lines: the Marquee scrolls 16 + 4 frames, then red.
    scroll = Marquee(child=WrappedText(content="AB CD."), height=4, scroll_direction="vertical")
    red = Box(width=1, height=1, color="#f00")
    sequence = Sequence(children=[scroll, red])
    assert sequence.frame_count(Bounds(12, 4)) == 20 + 1
    assert sequence.frame_count(PANEL) == 12 + 1
    shown = pictures(Row(children=[Box(width=52, height=1), sequence]), 64, 4)
    assert len(shown) == 21
    assert [frame[0][52] for frame in shown[19:]] == [".", "r"]
