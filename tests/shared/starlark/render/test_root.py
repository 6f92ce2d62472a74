"""Root and render_frames: frame count, cap, delay, size and the black background."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from PIL import Image

from shared.starlark.render.box import Box, Padding
from shared.starlark.render.errors import TooManyFrames, WidgetError
from shared.starlark.render.flex import Column, Row, Stack
from shared.starlark.render.root import Root, render_frames
from shared.starlark.render.timing import Animation
from shared.starlark.render.widget import Bounds, Canvas
from tests.shared.starlark.render.frame_maps import rows


def test_static_tree_gives_one_black_rgb_frame_of_the_panel_size(tmp_path: Path) -> None:
    frames = render_frames(Root(Box(width=2, height=1, color="#f00")))
    assert frames.delay_ms == 50
    assert len(frames.images) == 1
    path = tmp_path / "frame.png"
    frames.images[0].save(path)
    with Image.open(path) as image:
        assert image.mode == "RGB" and image.size == (64, 32)
        assert image.getpixel((0, 0)) == (255, 0, 0)
        assert image.getpixel((2, 0)) == (0, 0, 0)
        assert image.getpixel((63, 31)) == (0, 0, 0)


def test_translucent_colours_blend_over_black() -> None:
    frames = render_frames(Root(Box(color="#ff000080")), width=1, height=1)
    assert frames.images[0].getpixel((0, 0)) == (128, 0, 0)


def test_frames_are_the_size_asked_for() -> None:
    frames = render_frames(Root(Box(color="#0f0")), width=128, height=64)
    assert frames.images[0].size == (128, 64)
    assert frames.images[0].getpixel((127, 63)) == (0, 255, 0)


def test_delay_is_kept_and_zero_means_the_default() -> None:
    assert render_frames(Root(Box(), delay=120)).delay_ms == 120
    assert render_frames(Root(Box(), delay=0)).delay_ms == 50
    root = Root(Box(), max_age=300, show_full_animation=True)
    assert (root.max_age, root.show_full_animation) == (300, True)


def test_the_frames_say_whether_the_app_asks_to_be_seen_through() -> None:
    assert render_frames(Root(Box(), show_full_animation=True)).show_full_animation is True
    assert render_frames(Root(Box())).show_full_animation is False


def test_frame_count_is_the_longest_animation_in_the_tree() -> None:
    blink = Animation(children=[Box(width=1, height=1, color="#f00"), Box(width=1, height=1)])
    three = Animation(children=[Box(width=1, height=1, color=c) for c in ("#f00", "#0f0", "#00f")])
    frames = render_frames(Root(Row(children=[blink, three])), width=2, height=1)
    assert [rows(image)[0] for image in frames.images] == ["rr", ".g", "rb"]


def test_more_frames_than_allowed_is_refused_before_painting() -> None:
    painted: list[int] = []

    class Counting(Box):
        def paint(self, canvas: Canvas, bounds: Bounds, frame: int) -> None:
            painted.append(frame)

    many = Animation(children=[Counting()] * 10_000)
    refusal = "^Root: child has 10000 frames, more than the 8000 allowed$"
    with pytest.raises(TooManyFrames, match=refusal) as refused:
        render_frames(Root(many))
    assert (refused.value.count, refused.value.allowed) == (10_000, 8000)
    assert painted == []


def test_only_the_first_max_frames_are_painted_as_pixlet_keeps_them() -> None:
    painted: list[int] = []

    class Counting(Box):
        def paint(self, canvas: Canvas, bounds: Bounds, frame: int) -> None:
            painted.append(frame)
            super().paint(canvas, bounds, frame)

    colours = ("#f00", "#0f0", "#00f", "#fff")
    four = Animation(children=[Counting(width=1, height=1, color=c) for c in colours])
    frames = render_frames(Root(four), width=1, height=1, max_frames=3)
    assert [rows(image) for image in frames.images] == [["r"], ["g"], ["b"]]
    assert painted == [0, 1, 2]


def test_refusal_is_configurable_and_separate_from_the_kept_frames() -> None:
    three = Animation(children=[Box(), Box(), Box()])
    assert len(render_frames(Root(three), max_frames=3, refuse_over=3).images) == 3
    assert len(render_frames(Root(three), max_frames=2, refuse_over=3).images) == 2
    with pytest.raises(WidgetError, match="has 3 frames, more than the 2 allowed"):
        render_frames(Root(three), refuse_over=2)


def test_static_panel_tree_renders_well_under_ten_milliseconds() -> None:
    tree = Root(Column(children=[
        Row(children=[Box(width=8, height=8, color="#f00"),
                      Padding(child=Box(color="#0f0"), pad=1)],
            expanded=True, main_align="space_between"),
        Stack(children=[Box(color="#00f"), Box(width=10, height=4, color="#fff")]),
    ]))
    render_frames(tree)
    start = time.perf_counter()
    for _ in range(20):
        render_frames(tree)
    assert (time.perf_counter() - start) / 20 < 0.010


@pytest.mark.parametrize(("make", "message"), [
    (lambda: Root(), "Root: child must be a widget, not NoneType"),
    (lambda: Root(Box(), delay=-5), "Root: delay must be at least 0, not -5"),
    (lambda: Root(Box(), max_age="1h"), "Root: max_age must be a whole number, not str"),
    (lambda: Root(Box(), show_full_animation="yes"), "Root: show_full_animation must be True or"),
])
def test_bad_arguments_name_root_and_argument(make: object, message: str) -> None:
    with pytest.raises(WidgetError, match="^" + message):
        make()  # type: ignore[operator]
