"""The BDF reader: glyph boxes and bitmaps, default glyphs, refusing broken files."""

from __future__ import annotations

from pathlib import Path

import pytest

from shared.starlark.render.bdf import BdfError, load_bdf, parse_bdf

TINY = """STARTFONT 2.1
FONT tiny
SIZE 4 75 75
FONTBOUNDINGBOX 3 4 0 -1
STARTPROPERTIES 3
FONT_ASCENT 3
FONT_DESCENT 1
DEFAULT_CHAR 63
ENDPROPERTIES
CHARS 2
STARTCHAR A
ENCODING 65
SWIDTH 500 0
DWIDTH 4 0
BBX 3 3 1 0
BITMAP
40
A0
E0
ENDCHAR
STARTCHAR question
ENCODING 63
SWIDTH 500 0
DWIDTH 2 0
BBX 1 2 0 -1
BITMAP
80
80
ENDCHAR
ENDFONT
"""


def test_glyph_keeps_box_advance_and_bitmap() -> None:
    font = parse_bdf(TINY, "tiny.bdf")
    glyph = font.glyph(ord("A"))
    assert glyph is not None
    assert (font.ascent, font.descent, font.height) == (3, 1, 4)
    assert (glyph.width, glyph.height, glyph.x_offset, glyph.y_offset, glyph.advance) == \
        (3, 3, 1, 0, 4)
    assert glyph.mask.tobytes() == bytes([0, 255, 0, 255, 0, 255, 255, 255, 255])


def test_rows_wider_than_the_box_and_loose_endchar_lines_are_read() -> None:
    loose = TINY.replace("40\nA0\nE0\nENDCHAR", "4000\nA0FF\nE0 \nENDCHAR  ")
    glyph = parse_bdf(loose, "tiny.bdf").glyph(ord("A"))
    assert glyph is not None
    assert glyph.mask.tobytes() == bytes([0, 255, 0, 255, 0, 255, 255, 255, 255])


def test_missing_character_falls_back_to_default_char() -> None:
    font = parse_bdf(TINY, "tiny.bdf")
    assert font.glyph(ord("Z")) is font.glyph(ord("?"))


def test_font_without_default_char_or_space_has_no_fallback() -> None:
    font = parse_bdf(TINY.replace("DEFAULT_CHAR 63\n", ""), "tiny.bdf")
    assert font.default_char == 32
    assert font.glyph(ord("Z")) is None


@pytest.mark.parametrize(("broken", "expected"), [
    (TINY.replace("STARTFONT 2.1", "STARTFOO"), "not a BDF font"),
    (TINY.replace("BBX 3 3 1 0", "BBX 3 x 1 0"), "line 15: BBX has a value"),
    (TINY.replace("A0\n", "ZZ\n"), "not hex"),
    (TINY.replace("E0\nENDCHAR", "ENDCHAR", 1), "2 bitmap rows, its box says 3"),
    (TINY.replace("FONT_ASCENT 3\n", ""), "no FONT_ASCENT"),
    (TINY[:TINY.rindex("ENDCHAR")], "no ENDCHAR"),
    (TINY.replace("DWIDTH 4 0\n", ""), "without BBX or DWIDTH"),
    (TINY.replace("BBX 3 3 1 0\n", ""), "line 15: glyph without BBX"),
])
def test_malformed_file_is_refused_naming_the_problem(broken: str, expected: str) -> None:
    with pytest.raises(BdfError, match=expected) as caught:
        parse_bdf(broken, "tiny.bdf")
    assert "tiny.bdf" in str(caught.value)


def test_file_is_parsed_once_per_process(tmp_path: Path) -> None:
    path = tmp_path / "tiny.bdf"
    path.write_text(TINY)
    first = load_bdf(path)
    path.write_text("garbage")
    assert load_bdf(path) is first


def test_unreadable_file_is_a_bdf_error(tmp_path: Path) -> None:
    with pytest.raises(BdfError, match="absent.bdf: cannot be read"):
        load_bdf(tmp_path / "absent.bdf")
