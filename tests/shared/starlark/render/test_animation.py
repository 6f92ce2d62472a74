"""The animation module: curves, keyframe interpolation frame by frame, and moved pixels."""

from __future__ import annotations

import re

import pytest

from shared.starlark.render.animation import (
    ANIMATION_WIDGETS,
    AnimatedPositioned,
    Transformation,
)
from shared.starlark.render.animation_curves import NAMED_CURVES, curve_arg
from shared.starlark.render.animation_transforms import Keyframe, Origin, Rotate, Scale, Translate
from shared.starlark.render.box import Box, Padding
from shared.starlark.render.errors import WidgetError
from shared.starlark.render.flex import Row
from shared.starlark.render.root import Root, render_frames
from shared.starlark.render.timing import Sequence
from shared.starlark.render.widget import Bounds
from tests.shared.starlark.render.frame_maps import picture, pictures

PANEL = Bounds(64, 32)  # the room frames are counted in, a 64x32 panel


def _dot() -> Box:
    return Box(width=1, height=1, color="#f00")


def _slide(to: float, **options: object) -> Transformation:
    keyframes = [Keyframe(0.0, [Translate(0, 0)]), Keyframe(1.0, [Translate(to, 0)])]
    return Transformation(child=_dot(), keyframes=keyframes, **options)


def _tops(widget: Transformation | AnimatedPositioned, width: int) -> list[str]:
    return [frame[0] for frame in pictures(widget, width, 1)]


def test_named_curves_and_cubic_bezier_strings() -> None:
    assert NAMED_CURVES["linear"](0.3) == 0.3
    # Half-way along the ease_in curve (control points 0.3, 0 and 1, 1) x is 0.6125, y 0.5.
    assert NAMED_CURVES["ease_in"](0.6125) == pytest.approx(0.5, abs=0.001)
    assert NAMED_CURVES["ease_in_out"](0.5) == pytest.approx(0.5, abs=0.001)
    # The search for x stops within 0.0001, so the ends are near, not exact.
    assert NAMED_CURVES["ease_out"](0.0) == pytest.approx(0.0, abs=0.01)
    written = curve_arg("Keyframe", "cubic-bezier(.3, 0, 1, 1)")
    assert written(0.6125) == pytest.approx(0.5, abs=0.001)
    assert curve_arg("Keyframe", lambda t: t * t)(0.5) == 0.25


def test_linear_slide_moves_one_pixel_a_frame() -> None:
    slide = _slide(4, duration=5)
    assert slide.frame_count(PANEL) == 5
    assert _tops(slide, 5) == ["r....", ".r...", "..r..", "...r.", "....r"]


def test_delay_waits_before_and_after_and_fill_mode_picks_the_end_kept() -> None:
    slide = _slide(2, duration=3, delay=2)
    assert slide.frame_count(PANEL) == 7
    assert [slide.progress(frame) for frame in range(8)] == [0, 0, 0, 0.5, 1, 1, 1, 1]
    assert _tops(slide, 3) == ["r..", "r..", "r..", ".r.", "..r", "..r", "..r"]
    assert _slide(2, duration=3, fill_mode="backwards").progress(3) == 0.0


def test_directions_reverse_and_alternate() -> None:
    assert _tops(_slide(2, duration=3, direction="reverse"), 3) == ["..r", ".r.", "r.."]
    alternate = _slide(2, duration=3, direction="alternate")
    assert alternate.frame_count(PANEL) == 6
    assert _tops(alternate, 3) == ["r..", ".r.", "..r", "..r", ".r.", "r.."]
    back_first = _slide(2, duration=3, direction="alternate-reverse")
    assert _tops(back_first, 3) == ["..r", ".r.", "r..", "r..", ".r.", "..r"]


@pytest.mark.parametrize(("rounding", "tops"), [
    # Positions 0, 0.75, 1.5, 2.25, 3.
    ("round", ["r...", ".r..", "..r.", "..r.", "...r"]),
    ("floor", ["r...", "r...", ".r..", "..r.", "...r"]),
    ("ceil", ["r...", ".r..", "..r.", "...r", "...r"]),
])
def test_rounding_of_moves(rounding: str, tops: list[str]) -> None:
    assert _tops(_slide(3, duration=5, rounding=rounding), 4) == tops


def test_halfway_pixels_round_away_from_zero() -> None:
    # Positions 0, 2.5 and 5: 2.5 is drawn at 3 (rounding half to even would give 2).
    assert _tops(_slide(5, duration=3), 6)[1] == "...r.."
    assert _tops(_slide(-5, duration=3), 1) == ["r", ".", "."]


def test_fractional_moves_share_the_colour_between_pixels() -> None:
    half = _slide(1, duration=3, rounding="none")
    image = render_frames(Root(half), 3, 1).images[1]
    # Half the dot on each of two pixels: half-bright red, not darkened further.
    assert [image.getpixel((x, 0)) for x in range(3)] == [(128, 0, 0), (128, 0, 0), (0, 0, 0)]


def test_missing_end_keyframes_are_bare_and_curves_ease_from_their_keyframe() -> None:
    middle = Keyframe(0.5, [Translate(4, 0)], curve="ease_in")
    slide = Transformation(child=_dot(), keyframes=[middle], duration=5)
    # Frame 1 is 0.5 of the way to the middle keyframe, linear; after it, ease_in
    # from the middle back to the bare end: 0.5 of the way eased is ~0.16 of the move.
    assert slide.transforms(1) == [Translate(2.0, 0.0)]
    eased = slide.transforms(3)[0]
    assert isinstance(eased, Translate) and eased.x == pytest.approx(4 - 4 * NAMED_CURVES[
        "ease_in"](0.5))
    end = slide.transforms(4)[0]
    assert isinstance(end, Translate) and end.x == pytest.approx(0, abs=0.01)


def test_transform_lists_of_different_kinds_leave_the_child_alone() -> None:
    mixed = Transformation(child=_dot(), duration=3, keyframes=[
        Keyframe(0.0, [Translate(2, 0)]), Keyframe(1.0, [Rotate(90)])])
    assert mixed.transforms(1) == []
    assert _tops(mixed, 3)[1] == "r.."


def _arrow() -> Row:
    return Row(children=[Box(width=1, height=2, color="#f00"), Box(width=3, height=2,
                                                                      color="#00f")])


def _held(transforms: list[Rotate | Scale | Translate], **options: object) -> Transformation:
    keyframes = [Keyframe(0.0, transforms), Keyframe(1.0, transforms)]
    return Transformation(child=_arrow(), keyframes=keyframes, duration=2, width=4, height=4,
                          **options)


def test_rotation_turns_the_child_about_its_centre_clockwise() -> None:
    assert picture(_held([Rotate(180)]), 5, 3) == ["bbbr.", "bbbr.", "....."]
    # A quarter turn clockwise about (2, 1): the red left end goes to the top, off the panel.
    assert picture(_held([Rotate(90)]), 4, 4) == [".bb.", ".bb.", ".bb.", "...."]


def test_scale_about_a_chosen_origin() -> None:
    assert picture(_held([Scale(2, 1)], origin=Origin(0, 0)), 8, 2) == ["rrbbbbbb", "rrbbbbbb"]
    assert picture(_held([Scale(2, 2)]), 6, 4) == ["bbbbbb", "bbbbbb", "bbbbbb", "......"]


def test_huge_scales_and_bounds_draw_only_what_a_panel_can_show() -> None:
    blown_up = _held([Scale(100_000, 100_000)])
    # The arrow's blue part, scaled about its centre, covers the whole panel.
    assert picture(blown_up, 4, 2) == ["bbbb", "bbbb"]
    turned = Transformation(child=_dot(), duration=2, keyframes=[Keyframe(0.0, [Rotate(90)]),
                                                                 Keyframe(1.0, [Rotate(90)])])
    # Negative padding hands the turned dot a billion-pixel square: it is painted aside
    # no bigger than a panel could need.
    huge_room = Padding(child=turned, pad=(0, 0, -10**9, -10**9))
    assert picture(huge_room, 3, 1) == ["r.."]


def test_transformation_takes_its_width_and_height_or_its_bounds() -> None:
    assert _held([]).size(Bounds(64, 32), 0) == Bounds(4, 4)
    assert _slide(1, duration=2).size(Bounds(64, 32), 0) == Bounds(64, 32)


def test_wait_for_child_plays_all_of_a_longer_child() -> None:
    long_child = Sequence(children=[_dot()] * 9)
    slide = Transformation(child=long_child, duration=3, wait_for_child=True,
                           keyframes=[Keyframe(1.0, [Translate(2, 0)])])
    assert slide.frame_count(PANEL) == 9
    assert _tops(slide, 3)[8] == "..r"


def test_slides_in_a_sequence_play_one_after_another() -> None:
    first, second = _slide(2, duration=3), _slide(-2, duration=2)
    sequence = Sequence(children=[first, second])
    assert sequence.frame_count(PANEL) == 5
    assert [frame[0] for frame in pictures(Row(children=[Box(width=2, height=1), sequence]),
                                           5, 1)] == ["..r..", "...r.", "....r", "..r..", "....."]


def test_animated_positioned_moves_with_its_curve_and_holds_the_end() -> None:
    moving = AnimatedPositioned(child=_dot(), x_start=0, x_end=4, duration=4, curve="linear",
                                delay=1, hold=2)
    assert moving.frame_count(PANEL) == 7
    assert _tops(moving, 5) == ["r....", "r....", ".r...", "..r..", "...r.", "....r", "....r"]
    assert moving.size(Bounds(9, 9), 0) == Bounds(9, 9)
    leftwards = AnimatedPositioned(child=_dot(), x_start=3, x_end=0, y_start=0, y_end=0,
                                   duration=3, curve="linear")
    assert [leftwards.position(frame) for frame in range(4)] == [(3, 0), (2, 0), (1, 0), (0, 0)]


def test_animation_module_names() -> None:
    assert set(ANIMATION_WIDGETS) == {"Transformation", "AnimatedPositioned", "Keyframe",
                                      "Translate", "Scale", "Rotate", "Origin"}


@pytest.mark.parametrize(("make", "message"), [
    (lambda: Transformation(child=_dot(), duration=3), "Transformation: keyframes is required"),
    (lambda: Transformation(child=_dot(), keyframes=[]), "Transformation: duration is required"),
    (lambda: Transformation(child=_dot(), keyframes=[Translate(1, 1)], duration=3),
     "Transformation: keyframes item 0 must be a Keyframe, not Translate"),
    (lambda: _slide(1, duration=3, direction="sideways"), "Transformation: direction must be"),
    (lambda: _slide(1, duration=3, rounding="up"), "Transformation: rounding must be one of"),
    (lambda: _slide(1, duration=3, origin=(0, 0)), "Transformation: origin must be an Origin"),
    (lambda: Keyframe(0.5, [Box()]), "Keyframe: transforms item 0 must be a Translate"),
    (lambda: Keyframe(0.5, [], curve="bouncy"), "Keyframe: curve is not a curve: 'bouncy'"),
    (lambda: Keyframe(None, []), "Keyframe: percentage is required"),
    (lambda: Translate(1), "Translate: y is required"),
    (lambda: Rotate("90"), "Rotate: angle must be a number, not str"),
    (lambda: _slide(1, duration=3, width=5000), "Transformation: width must be at most 1024"),
    (lambda: AnimatedPositioned(child=_dot(), duration=-1), "AnimatedPositioned: duration must"),
])
def test_bad_arguments_name_widget_and_argument(make: object, message: str) -> None:
    with pytest.raises(WidgetError, match="^" + re.escape(message)):
        make()  # type: ignore[operator]


def test_a_turned_child_drawn_far_from_its_corner_is_still_shown() -> None:
    far = Row(children=[Box(width=200, height=1), Box(width=1, height=1, color="#f00")])
    turned = Transformation(child=far, duration=2, width=201, height=1, origin=Origin(0, 0),
                            keyframes=[Keyframe(0.0, [Rotate(0.001)]),
                                       Keyframe(1.0, [Rotate(0.001)])])
    image = render_frames(Root(turned), 202, 1).images[0]
    assert image.getpixel((200, 0)) == (255, 0, 0)


def _moved_left(by: int) -> Transformation:
    """Two red pixels held ``by`` pixels left of where they would be."""
    keyframes = [Keyframe(0.0, [Translate(-by, 0)]), Keyframe(1.0, [Translate(-by, 0)])]
    return Transformation(child=Box(width=2, height=1, color="#f00"), keyframes=keyframes,
                          duration=2, width=2, height=1)


def test_a_moved_child_is_cut_by_its_parents_clip_not_by_a_translate() -> None:
    # pixlet's Padding and Row clip each child to the box they placed it in, starting at
    # the child's own origin; a Transformation translates without a clip of its own.
    in_padding = Padding(child=_moved_left(1), pad=(4, 0, 0, 0))
    in_row = Row(children=[Box(width=4, height=1), _moved_left(1)])
    assert picture(in_padding, 8, 1) == ["....r..."]
    assert picture(in_row, 8, 1) == ["....r..."]
    # The Padding's own (blue) area is outside that box: the moved pixel is hidden there too.
    assert picture(Padding(child=_moved_left(1), pad=(4, 0, 0, 0), color="#00f"), 8, 1) == \
        ["bbbbrb.."]
    # A Box clips at its own edge and only translates to centre: the move shows whole.
    assert picture(Box(width=6, height=1, child=_moved_left(1)), 8, 1) == [".rr....."]

