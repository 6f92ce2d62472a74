"""The named fonts apps use: every one ships and parses; measuring and drawing text."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from shared.starlark.render.bdf import parse_bdf
from shared.starlark.render.fonts import (
    DEFAULT_FONT,
    FONTS,
    FONTS_DIR,
    UnknownFontError,
    colored,
    font,
    text_mask,
    text_width,
)

TINY = """STARTFONT 2.1
FONT_ASCENT 3
FONT_DESCENT 1
DEFAULT_CHAR 63
STARTCHAR A
ENCODING 65
DWIDTH 4 0
BBX 1 3 1 0
BITMAP
80
80
80
ENDCHAR
ENDFONT
"""
ROOT = Path(__file__).resolve().parents[4]


@pytest.mark.parametrize("name", sorted(FONTS))
def test_every_named_font_ships_and_parses(name: str) -> None:
    face = font(name)
    assert (FONTS_DIR / FONTS[name]).is_file()
    assert face.height > 0
    assert face.glyph(ord("0")) is not None


def test_every_shipped_font_file_has_a_name() -> None:
    shipped = {path.name for path in FONTS_DIR.glob("*.bdf")}
    assert shipped == set(FONTS.values())
    assert DEFAULT_FONT == "tb-8"


def test_font_files_and_licence_are_package_data() -> None:
    settings = tomllib.loads((ROOT / "pyproject.toml").read_text())
    patterns = settings["tool"]["setuptools"]["package-data"]["shared.starlark"]
    assert {"fonts/*.bdf", "fonts/*.txt", "fonts/*.md"} <= set(patterns)
    assert (FONTS_DIR / "LICENSE.txt").read_text().lstrip().startswith("Apache License")
    assert "Apache-2.0" in (FONTS_DIR / "PROVENANCE.md").read_text()


def test_unknown_font_name_is_refused() -> None:
    with pytest.raises(UnknownFontError):
        font("comic-sans")


def test_width_is_the_sum_of_advances() -> None:
    # tb-8 is proportional: "Q" advances 5, "!" 2, "i" 4.
    assert text_width(font("tb-8"), "Q!i") == 5 + 2 + 4
    assert text_width(font("6x13"), "Q!i") == 18
    assert text_width(font("tb-8"), "") == 0


def test_character_the_font_lacks_draws_its_default_character() -> None:
    face = font("tb-8")
    assert text_width(face, "\u4e00") == text_width(face, "\x00")


def test_character_lacking_with_no_default_takes_no_room() -> None:
    # tom-thumb names no DEFAULT_CHAR: a character it lacks is drawn as a space.
    assert text_width(font("tom-thumb"), "a\u4e00b") == text_width(font("tom-thumb"), "a b")
    bare = parse_bdf(TINY.replace("DEFAULT_CHAR 63\n", ""), "tiny.bdf")
    assert text_width(bare, "AZA") == 8
    assert text_mask(bare, "ZA", (4, 4), 0, 3).tobytes()[1::4] == bytes([255, 255, 255, 0])


def test_mask_draws_glyph_below_its_baseline() -> None:
    face = font("tb-8")
    mask = text_mask(face, "q", (5, 8), 0, 7)  # "q" has a descender one row below
    bits = mask.tobytes()
    assert bits[7 * 5 + 3] == 255
    assert sum(bits[7 * 5:8 * 5]) == 255


def test_colour_alpha_scales_the_mask() -> None:
    face = font("tb-8")
    image = colored(text_mask(face, "l", (5, 8), 0, 7), (10, 20, 30, 128))
    data = image.tobytes()
    lit = {data[i:i + 4] for i in range(0, len(data), 4) if data[i + 3]}
    assert lit == {bytes((10, 20, 30, 128))}
