"""WrappedText: where lines break, how they align and space, and the room it takes."""

from __future__ import annotations

import pytest

from shared.starlark.render.errors import WidgetError
from shared.starlark.render.fonts import font
from shared.starlark.render.text import WrappedText, wrap_lines
from shared.starlark.render.widget import Bounds
from tests.shared.starlark.render.pictures import paint_sized, rows

AB = [
    ".##..###.",
    "#..#.#..#",
    "#..#.###.",
    "####.#..#",
    "#..#.#..#",
    "#..#.###.",
]
CD = [
    ".##..###....",
    "#..#.#..#...",
    "#....#..#...",
    "#....#..#...",
    "#..#.#..#...",
    ".##..###..#.",
]
BLANK = "." * 12


def test_text_that_fits_stays_on_one_line_as_wide_as_its_glyphs() -> None:
    text = WrappedText(content="AB CD.")
    assert text.size(Bounds(64, 32), 0) == Bounds(25, 8)
    assert rows(paint_sized(text, 25, 8))[1] == ".##..###......##..###...."


def test_line_breaks_before_the_word_that_would_pass_the_width() -> None:
    text = WrappedText(content="AB CD.")
    assert text.size(Bounds(21, 16), 0) == Bounds(12, 16)
    left = [line + "..." for line in AB]
    assert rows(paint_sized(text, 21, 16)) == [BLANK, *left, BLANK, BLANK, *CD, BLANK]


def test_overflow_is_cut_at_the_bounds() -> None:
    text = WrappedText(content="AB CD.")
    assert text.size(Bounds(7, 12), 0) == Bounds(7, 12)
    assert rows(paint_sized(text, 7, 12)) == [
        ".......", *(line[:7] for line in AB), ".......", ".......",
        *(line[:7] for line in CD[:3])]


def test_width_and_height_arguments_override_the_bounds() -> None:
    text = WrappedText(content="AB CD.", width=7, height=12)
    assert text.size(Bounds(40, 40), 0) == Bounds(7, 12)
    unsized = WrappedText(content="AB CD.")
    assert rows(paint_sized(text, 40, 40)) == rows(paint_sized(unsized, 7, 12))
    narrow = WrappedText(content="AB CD.", width=3)
    assert narrow.size(Bounds(9, 5), 0) == Bounds(3, 5)
    assert rows(paint_sized(narrow, 9, 5)) == ["...", ".##", "#..", "#..", "###"]


@pytest.mark.parametrize("spacing", [1, 2])
def test_linespacing_adds_rows_between_lines(spacing: int) -> None:
    text = WrappedText(content="AB CD.", linespacing=spacing)
    assert text.size(Bounds(21, 40), 0) == Bounds(12, 2 * (8 + spacing))
    image = rows(paint_sized(text, 21, 40))
    assert image[9 + spacing:15 + spacing] == CD


def test_negative_linespacing_pulls_lines_together() -> None:
    text = WrappedText(content="AB CD.", linespacing=-2)
    assert text.size(Bounds(21, 40), 0) == Bounds(12, 16)
    assert rows(paint_sized(text, 21, 40))[7:13] == CD


@pytest.mark.parametrize(("align", "shift"), [("left", 0), ("right", 2), ("center", 1),
                                              ("middle", 0)])
def test_each_line_is_aligned_within_the_widest(align: str, shift: int) -> None:
    # "AB" advances 10 pixels, "CD." 12: the first line has 2 to spare.
    text = WrappedText(content="AB CD.", align=align)
    image = rows(paint_sized(text, 21, 16))
    assert image[1:7] == ["." * shift + line + "." * (3 - shift) for line in AB]
    assert image[9:15] == CD


def test_centring_rounds_an_odd_spare_pixel_down() -> None:
    text = WrappedText(content="AB", width=13, align="center")  # 3 pixels to spare
    assert rows(paint_sized(text, 64, 32))[1:7] == ["." + line + "..." for line in AB]


def test_lines_align_within_the_asked_width_even_when_bounds_cut_it() -> None:
    text = WrappedText(content="AB", width=20, align="right")  # "AB" starts at x = 10
    assert text.size(Bounds(12, 8), 0) == Bounds(12, 8)
    assert rows(paint_sized(text, 12, 8))[1:7] == ["." * 10 + line[:2] for line in AB]


def test_words_wider_than_the_width_get_their_own_line() -> None:
    face = font("tb-8")
    assert wrap_lines(face, "a verylongword b", 20) == ["a", "verylongword", "b"]


def test_newlines_break_spaces_are_trimmed_and_empty_lines_dropped() -> None:
    face = font("tb-8")
    assert wrap_lines(face, "  one  two\n\nthree   ", 64) == ["one  two", "three"]
    assert wrap_lines(face, "", 64) == []


def test_empty_text_takes_no_room() -> None:
    assert WrappedText(content="").size(Bounds(64, 32), 0) == Bounds(0, 0)


@pytest.mark.parametrize(("arguments", "argument"), [
    ({}, "content"),
    ({"content": ["a"]}, "content"),
    ({"content": "x", "font": "Arial"}, "font"),
    ({"content": "x", "width": -1}, "width"),
    ({"content": "x", "linespacing": "1"}, "linespacing"),
    ({"content": "x", "align": 1}, "align"),
    ({"content": "x", "color": "red"}, "color"),
])
def test_bad_argument_names_widget_and_argument(arguments: dict[str, object],
                                                argument: str) -> None:
    with pytest.raises(WidgetError) as caught:
        WrappedText(**arguments)
    assert (caught.value.widget, caught.value.argument) == ("WrappedText", argument)


def test_each_room_is_drawn_once_and_kept() -> None:
    text = WrappedText(content="AB CD.")
    first = paint_sized(text, 21, 16, 0)
    assert rows(paint_sized(text, 21, 16, 5)) == rows(first)
    assert len(text._pictures) == 1
    assert rows(paint_sized(text, 64, 8)) == rows(paint_sized(WrappedText(content="AB CD."), 64, 8))
