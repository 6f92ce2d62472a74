"""Marquee: how many frames a scroll takes and where the child is in each."""

from __future__ import annotations

import pytest
from PIL import Image as PILImage

from shared.starlark.render.animation import Transformation
from shared.starlark.render.animation_transforms import Keyframe, Translate
from shared.starlark.render.box import Box, Padding
from shared.starlark.render.errors import WidgetError
from shared.starlark.render.flex import Column, Row, Stack
from shared.starlark.render.image import Image
from shared.starlark.render.marquee import Marquee
from shared.starlark.render.root import Root, render_frames
from shared.starlark.render.shapes import Circle
from shared.starlark.render.text import Text, WrappedText
from shared.starlark.render.timing import Sequence
from shared.starlark.render.widget import Bounds, Canvas
from tests.shared.starlark.render.frame_maps import rows as letters
from tests.shared.starlark.render.pictures import encoded, paint, rows

PANEL = Bounds(64, 32)  # the room frames are counted in, a 64x32 panel


def strip(length: int, vertical: bool = False) -> Image:
    """A 1-pixel strip whose pixel i is coloured (10 * i + 5, 0, 0)."""
    size = (1, length) if vertical else (length, 1)
    picture = PILImage.new("RGBA", size)
    for index in range(length):
        picture.putpixel((0, index) if vertical else (index, 0), (10 * index + 5, 0, 0, 255))
    return Image(src=encoded(picture, "PNG"))


def where(widget: Marquee, frame: int, vertical: bool = False) -> int | None:
    """Where the strip's first pixel is drawn at ``frame`` (None: nothing shows)."""
    bounds = Bounds(64, 32)
    image = paint(widget, bounds.width, bounds.height, frame)
    line = [image.getpixel((0, i) if vertical else (i, 0)) for i in range(64 if not vertical
                                                                            else 32)]
    for position, pixel in enumerate(line):
        if isinstance(pixel, tuple) and pixel[3]:
            return position - (pixel[0] - 5) // 10
    return None


def test_child_that_fits_does_not_scroll() -> None:
    marquee = Marquee(child=strip(10), width=10)
    assert marquee.frame_count(PANEL) == 1
    assert marquee.size(Bounds(64, 32), 0) == Bounds(10, 1)
    assert [where(marquee, frame) for frame in (0, 5)] == [0, 0]


@pytest.mark.parametrize(("align", "position"), [("start", 0), ("center", 3), ("end", 5),
                                                 ("", 0)])
def test_child_that_fits_is_placed_by_align(align: str, position: int) -> None:
    # Centring halves both lengths first: 12 // 2 - 7 // 2 = 3.
    marquee = Marquee(child=strip(7), width=12, align=align)
    assert where(marquee, 0) == position


def test_scroll_leaves_to_the_left_then_comes_back_from_the_right() -> None:
    marquee = Marquee(child=strip(15), width=10)
    assert marquee.frame_count(PANEL) == 15 + 10  # equal offsets: the last frame is the first
    assert marquee.size(Bounds(64, 32), 0) == Bounds(10, 1)
    positions = [where(marquee, frame) for frame in range(26)]
    assert positions[:15] == [-frame for frame in range(15)]
    assert positions[15] is None  # wholly out of view
    assert positions[16:] == [9, 8, 7, 6, 5, 4, 3, 2, 1, 0]


def test_offsets_set_where_the_scroll_starts_and_ends() -> None:
    marquee = Marquee(child=strip(15), width=10, offset_start=5, offset_end=3)
    assert marquee.frame_count(PANEL) == 15 + 5 + 10 - 3 + 1
    assert marquee.offset(Bounds(64, 32), 0) == 5
    assert marquee.offset(Bounds(64, 32), 20) == -15
    assert marquee.offset(Bounds(64, 32), 27) == 3
    assert marquee.offset(Bounds(64, 32), 100) == 3
    assert where(marquee, 0) == 5


def test_offsets_are_held_to_minus_the_child_length() -> None:
    marquee = Marquee(child=strip(15), width=10, offset_start=-40, offset_end=-40)
    assert marquee.frame_count(PANEL) == 15 - 15 + 10 + 15
    assert marquee.offset(Bounds(64, 32), 0) == -15


def test_delay_holds_the_start_position() -> None:
    marquee = Marquee(child=strip(15), width=10, delay=3)
    assert marquee.frame_count(PANEL) == 25 + 3
    assert [marquee.offset(Bounds(64, 32), frame) for frame in range(6)] == [0, 0, 0, 0, -1, -2]


def test_vertical_scroll_moves_bottom_to_top() -> None:
    marquee = Marquee(child=strip(12, vertical=True), height=8, scroll_direction="vertical")
    assert marquee.frame_count(PANEL) == 12 + 8
    assert marquee.size(Bounds(64, 32), 0) == Bounds(1, 8)
    assert where(marquee, 2, vertical=True) == -2
    assert where(marquee, 19, vertical=True) == 1


def test_scrolled_text_is_clipped_to_the_marquee() -> None:
    marquee = Marquee(child=Text(content="AAA"), width=7)
    assert marquee.frame_count(PANEL) == 15 + 7
    image = rows(paint(marquee, 20, 8, 1))
    assert image[4] == "###.###" + "." * 13


def test_marquee_clips_its_child_even_when_the_parent_does_not() -> None:
    marquee = Marquee(child=Text(content="AAA"), width=7)
    canvas = Canvas(20, 8)
    marquee.paint(canvas, Bounds(20, 8), 1)
    assert rows(canvas.image)[4] == "###.###" + "." * 13


def test_frame_count_follows_the_bounds_it_is_given() -> None:
    # Wrapped text is one line in 64 pixels and two in 12.
    marquee = Marquee(child=WrappedText(content="AB CD."), height=4,
                      scroll_direction="vertical")
    assert marquee.frame_count(PANEL) == 8 + 4
    assert marquee.frame_count(Bounds(12, 32)) == 16 + 4


def test_a_marquee_in_a_narrow_row_plays_its_whole_scroll() -> None:
    # The Row leaves the Marquee 12 pixels: its text wraps to two lines, 16 pixels to scroll.
    marquee = Marquee(child=WrappedText(content="AB CD."), height=4,
                      scroll_direction="vertical")
    row = Row(children=[Box(width=52, height=1), marquee])
    assert row.frame_count(Bounds(64, 4)) == 16 + 4
    frames = render_frames(Root(row), width=64, height=4)
    assert len(frames.images) == 20
    window = [letters(image.crop((52, 0, 64, 4))) for image in frames.images]
    # Frame 14: the foot of "CD." leaving at the top; 16: gone; 19: "AB" coming back in.
    assert window[14] == [".ww..www..w.", "." * 12, "." * 12, "." * 12]
    assert window[16] == ["." * 12] * 4
    assert window[19] == ["." * 12, "." * 12, ".ww..www....", "w..w.w..w..."]


def _scroll() -> Marquee:
    return Marquee(child=WrappedText(content="AB CD."), height=4, scroll_direction="vertical")


@pytest.mark.parametrize("make", [
    lambda: Padding(child=_scroll(), pad=(26, 0, 26, 0)),
    lambda: Box(width=12, child=_scroll()),
    lambda: Box(width=16, padding=2, child=_scroll()),
    lambda: Circle(diameter=12, color="#fff", child=_scroll()),
    lambda: Stack(children=[Box(width=12, child=_scroll())]),
    lambda: Column(children=[Box(height=1), Box(width=12, child=_scroll())]),
    lambda: Sequence(children=[Box(width=12, child=_scroll())]),
    lambda: Transformation(child=_scroll(), width=12, duration=1, wait_for_child=True,
                           keyframes=[Keyframe(0.0, [Translate(0, 0)])]),
], ids=["padding", "box", "box-padding", "circle", "stack", "column", "sequence",
        "transformation"])
def test_every_container_counts_a_childs_frames_in_the_room_it_gives(make: object) -> None:
    # Each gives the Marquee 12 pixels: two lines of text, 16 + 4 frames (one line: 12).
    assert make().frame_count(PANEL) == 16 + 4  # type: ignore[operator]


def test_a_placed_child_may_draw_left_of_its_origin_inside_the_marquee() -> None:
    # The child (2 wide) is aligned to the end at x=6 and draws its pixels one further
    # left; the Marquee clips to its own box only, so both show.
    moved = Transformation(child=Box(width=2, height=1, color="#f00"), width=2, height=1,
                           duration=2, keyframes=[Keyframe(0.0, [Translate(-1, 0)]),
                                                  Keyframe(1.0, [Translate(-1, 0)])])
    marquee = Marquee(child=moved, width=8, align="end")
    assert letters(render_frames(Root(marquee), width=10, height=1).images[0]) == [".....rr..."]


@pytest.mark.parametrize(("arguments", "argument"), [
    ({}, "child"),
    ({"child": "text"}, "child"),
    ({"width": "64"}, "width"),
    ({"width": -1}, "width"),
    ({"offset_start": 1.0}, "offset_start"),
    ({"offset_end": None, "delay": -1}, "delay"),
    ({"scroll_direction": 1}, "scroll_direction"),
    ({"align": 0}, "align"),
])
def test_bad_argument_names_widget_and_argument(arguments: dict[str, object],
                                                argument: str) -> None:
    if argument != "child":
        arguments = {"child": strip(3), **arguments}
    with pytest.raises(WidgetError) as caught:
        Marquee(**arguments)
    assert (caught.value.widget, caught.value.argument) == ("Marquee", argument)
