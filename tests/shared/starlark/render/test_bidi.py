"""Right-to-left runs put in drawing order, and Text drawing them that way."""

from __future__ import annotations

import pytest

from shared.starlark.render.bidi import visual_order
from shared.starlark.render.text import Text
from tests.shared.starlark.render.pictures import paint, rows

SHALOM = "\u05e9\u05dc\u05d5\u05dd"
OLAM = "\u05e2\u05d5\u05dc\u05dd"


@pytest.mark.parametrize(("logical", "visual"), [
    ("", ""),
    ("Pixlet 12:30", "Pixlet 12:30"),
    (SHALOM, SHALOM[::-1]),
    (f"abc {SHALOM} def", f"abc {SHALOM[::-1]} def"),
    (f"{SHALOM} abc", f"abc {SHALOM[::-1]}"),
    (f"123 {SHALOM}", f"{SHALOM[::-1]} 123"),
    (f"{SHALOM}, {SHALOM}!", f"!{SHALOM[::-1]} ,{SHALOM[::-1]}"),
    # A space between two right-to-left words belongs to their run.
    (f"abc {SHALOM} {OLAM} def", f"abc {OLAM[::-1]} {SHALOM[::-1]} def"),
    # Numbers after Latin letters stay with them.
    (f"{SHALOM} abc 123", f"abc 123 {SHALOM[::-1]}"),
])
def test_visual_order(logical: str, visual: str) -> None:
    assert visual_order(logical) == visual


def test_hebrew_text_is_drawn_right_to_left() -> None:
    # Pesach: pe, samekh, het; drawn het first (two legs), pe last (one leg, right).
    picture = rows(paint(Text(content="\u05e4\u05e1\u05d7", font="6x13"), 18, 13))
    assert picture[5] == "#####.#####.#####."
    assert picture[8] == ".#..#..#..#.....#."
