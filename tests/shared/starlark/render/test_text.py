"""Text: one line in a named font, its size, baseline, offset, colour and arguments."""

from __future__ import annotations

import pytest

from shared.starlark.render.errors import WidgetError
from shared.starlark.render.text import MAX_TEXT_WIDTH, Text
from shared.starlark.render.widget import Bounds
from tests.shared.starlark.render.pictures import paint, rows


def test_default_font_is_tb8_in_white() -> None:
    text = Text(content="A")
    image = paint(text, 5, 8)
    assert rows(image) == [
        ".....",
        ".##..",
        "#..#.",
        "#..#.",
        "####.",
        "#..#.",
        "#..#.",
        ".....",
    ]
    assert image.getpixel((1, 1)) == (255, 255, 255, 255)
    assert text.size(Bounds(64, 32), 0) == Bounds(5, 8)


def test_tb8_is_proportional_and_draws_descenders_on_the_last_row() -> None:
    text = Text(content="Qq!")
    assert text.size(Bounds(64, 32), 0) == Bounds(12, 8)
    assert rows(paint(text, 12, 8)) == [
        "............",
        ".##.......#.",
        "#..#......#.",
        "#..#..###.#.",
        "##.#.#..#.#.",
        "#.##..###...",
        ".##.....#.#.",
        "...#....#...",
    ]


def test_6x13_glyphs_sit_on_the_baseline_two_rows_up() -> None:
    text = Text(content="Qq", font="6x13")
    assert text.size(Bounds(64, 32), 0) == Bounds(12, 13)
    assert rows(paint(text, 12, 13)) == [
        "............",
        "............",
        ".###........",
        "#...#.......",
        "#...#.......",
        "#...#..####.",
        "#...#.#...#.",
        "#...#.#...#.",
        "#...#.#...#.",
        "#.#.#..####.",
        ".###......#.",
        "....#.....#.",
        "..........#.",
    ]


def test_height_and_negative_offset_push_text_down_and_cut_the_bottom() -> None:
    text = Text(content="Qq", font="6x13", height=10, offset=-2, color="#0f0")
    assert text.size(Bounds(64, 32), 0) == Bounds(12, 10)
    image = paint(text, 12, 10)
    assert rows(image) == [
        "............",
        ".###........",
        "#...#.......",
        "#...#.......",
        "#...#..####.",
        "#...#.#...#.",
        "#...#.#...#.",
        "#...#.#...#.",
        "#.#.#..####.",
        ".###......#.",
    ]
    assert image.getpixel((1, 1)) == (0, 255, 0, 255)


def test_positive_offset_lifts_text() -> None:
    image = paint(Text(content="A", offset=2), 5, 8)
    assert rows(image)[:3] == ["#..#.", "#..#.", "####."]
    assert rows(image)[5:] == [".....", ".....", "....."]


def test_size_is_held_to_the_bounds_and_painting_is_clipped() -> None:
    text = Text(content="Hello")
    assert text.size(Bounds(64, 32), 0) == Bounds(23, 8)
    assert text.size(Bounds(10, 5), 0) == Bounds(10, 5)
    assert rows(paint(text, 10, 5)) == rows(paint(text, 23, 8).crop((0, 0, 10, 5)))


def test_very_long_text_is_cut_at_the_width_limit() -> None:
    text = Text(content="W" * 400)
    assert text.size(Bounds(5000, 32), 0) == Bounds(MAX_TEXT_WIDTH, 8)


def test_empty_text_takes_no_width() -> None:
    assert Text(content="").size(Bounds(64, 32), 0) == Bounds(0, 8)


@pytest.mark.parametrize(("arguments", "argument"), [
    ({}, "content"),
    ({"content": 5}, "content"),
    ({"content": "x", "font": "nope"}, "font"),
    ({"content": "x", "height": "8"}, "height"),
    ({"content": "x", "height": -1}, "height"),
    ({"content": "x", "height": 10**9}, "height"),
    ({"content": "x", "offset": 1.5}, "offset"),
    ({"content": "x", "offset": True}, "offset"),
    ({"content": "x", "color": "#12"}, "color"),
])
def test_bad_argument_names_widget_and_argument(arguments: dict[str, object],
                                                argument: str) -> None:
    with pytest.raises(WidgetError) as caught:
        Text(**arguments)
    assert (caught.value.widget, caught.value.argument) == ("Text", argument)
    assert str(caught.value).startswith(f"Text: {argument} ")
