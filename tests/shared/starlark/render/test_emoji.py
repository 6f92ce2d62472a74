"""Emoji: a bitmap font's glyph where one exists, else a placeholder box, at the asked size."""

from __future__ import annotations

import pytest

from shared.starlark.render.emoji import PLACEHOLDER, Emoji
from shared.starlark.render.errors import WidgetError
from shared.starlark.render.widget import Bounds
from tests.shared.starlark.render.pictures import paint, rows


def test_symbol_a_font_has_is_drawn_from_it_centred_in_white() -> None:
    emoji = Emoji(emoji="\u2665", height=10)  # the heart is in 6x10, the tallest that fits
    assert emoji.drawn_from_font
    assert emoji.size(Bounds(64, 32), 0) == Bounds(10, 10)
    image = paint(emoji, 10, 10)
    assert rows(image) == [
        "..........",
        "..........",
        "...#.#....",
        "..#####...",
        "..#####...",
        "..#####...",
        "...###....",
        "....#.....",
        "..........",
        "..........",
    ]
    assert image.getpixel((4, 3)) == (255, 255, 255, 255)


def test_glyph_grows_by_whole_factors_and_variation_selector_is_ignored() -> None:
    emoji = Emoji(emoji="\u2665\ufe0f", height=20)
    picture = rows(paint(emoji, 20, 20))
    assert picture[3] == ".########..########."
    assert picture[4] == picture[3]  # every glyph row drawn twice


def test_emoji_no_font_has_is_a_placeholder_box() -> None:
    emoji = Emoji(emoji="\U0001f600", height=5)
    assert not emoji.drawn_from_font
    image = paint(emoji, 5, 5)
    assert rows(image) == ["#####", "#...#", "#...#", "#...#", "#####"]
    assert image.getpixel((0, 0)) == PLACEHOLDER


def test_width_and_height_both_set_the_box() -> None:
    assert Emoji(emoji="\U0001f600", width=8, height=6).size(Bounds(64, 32), 0) == Bounds(8, 6)
    assert Emoji(emoji="\U0001f600", width=7).size(Bounds(64, 32), 0) == Bounds(7, 7)
    assert Emoji(emoji="\U0001f600", height=40).size(Bounds(64, 32), 0) == Bounds(40, 32)


@pytest.mark.parametrize(("arguments", "argument"), [
    ({"height": 8}, "emoji"),
    ({"emoji": "", "height": 8}, "emoji"),
    ({"emoji": "\ufe0f", "height": 8}, "emoji"),
    ({"emoji": 128512, "height": 8}, "emoji"),
    ({"emoji": "x"}, "height"),
    ({"emoji": "x", "height": 0}, "height"),
    ({"emoji": "x", "height": "8"}, "height"),
    ({"emoji": "x", "width": -3}, "width"),
    ({"emoji": "x", "width": 5000, "height": 8}, "width"),
    ({"emoji": "x", "height": 10**9}, "height"),
])
def test_bad_argument_names_widget_and_argument(arguments: dict[str, object],
                                                argument: str) -> None:
    with pytest.raises(WidgetError) as caught:
        Emoji(**arguments)
    assert (caught.value.widget, caught.value.argument) == ("Emoji", argument)
