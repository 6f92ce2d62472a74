"""The font ladders as the existing system ships them, measured from the real BDF files.

The expected rung of each fit is worked out here from the rung heights read out of the
font files (FONT_ASCENT + FONT_DESCENT), not from the code under test.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from shared.fonts import FontManager
from shared.plugin_api.common.adaptive_layout import LayoutContext
from shared.plugin_api.common.font_ladders import (
    LADDER_ARCADE,
    LADDER_DEFAULT,
    LADDER_GRID,
    FontStep,
    font_line_height,
)

GRID_RUNGS = [
    ("10x20", 20), ("9x18", 18), ("9x15", 15), ("8x13", 13), ("7x13", 13), ("6x13", 13),
    ("6x12", 12), ("6x10", 10), ("6x9", 9), ("5x8", 8), ("5x7", 7), ("4x6", 6),
    ("tom-thumb", 6),
]


@pytest.fixture(scope="module")
def fonts() -> FontManager:
    return FontManager({})


def _bdf_property(path: Path, name: str) -> int:
    match = re.search(rf"^{name}\s+(-?\d+)", path.read_text(encoding="latin-1"), re.MULTILINE)
    assert match, f"{path.name} has no {name}"
    return int(match.group(1))


def _bdf_advance(path: Path, code: int) -> int:
    """The DWIDTH (advance) of the glyph with ENCODING ``code`` in a BDF file."""
    text = path.read_text(encoding="latin-1")
    glyph = re.search(rf"^ENCODING {code}\n(?:.*\n)*?DWIDTH (\d+)", text, re.MULTILINE)
    assert glyph, f"{path.name} has no glyph {code}"
    return int(glyph.group(1))


def _rung_path(fonts: FontManager, step: FontStep) -> Path:
    return fonts.catalog()[step.family].path


def _line_heights(fonts: FontManager) -> list[tuple[str, int]]:
    """(family, FONT_ASCENT + FONT_DESCENT) of each grid rung, read from its file."""
    heights = []
    for step in LADDER_GRID:
        path = _rung_path(fonts, step)
        heights.append((step.family, _bdf_property(path, "FONT_ASCENT")
                        + _bdf_property(path, "FONT_DESCENT")))
    return heights


def test_the_grid_ladder_has_the_existing_systems_rungs_in_order() -> None:
    assert [(step.family, step.size_px) for step in LADDER_GRID] == GRID_RUNGS
    assert LADDER_DEFAULT == LADDER_GRID


def test_the_arcade_ladder_is_press_start_2p_on_its_8_pixel_grid(fonts: FontManager) -> None:
    assert [step.size_px for step in LADDER_ARCADE] == [32, 24, 16, 8]
    for step in LADDER_ARCADE:
        font = fonts.get_font(step.family, step.size_px)
        assert font.getname()[0] == "Press Start 2P" and font.size == step.size_px


@pytest.mark.parametrize(("family", "size_px"), GRID_RUNGS)
def test_each_rung_is_its_own_shipped_bdf_at_its_native_height(
    fonts: FontManager, family: str, size_px: int
) -> None:
    step = FontStep(family, size_px)
    path = _rung_path(fonts, step)
    assert path.name == f"{family}.bdf" and path.parent.name == "fonts"
    assert _bdf_property(path, "PIXEL_SIZE") == size_px
    font = fonts.get_font(family, size_px)
    line_h = _bdf_property(path, "FONT_ASCENT") + _bdf_property(path, "FONT_DESCENT")
    assert font_line_height(font) == line_h == size_px
    # The loaded face is that file's: its advance for "M" is the file's DWIDTH.
    assert font.getlength("M") == _bdf_advance(path, ord("M"))


@pytest.mark.parametrize(
    ("rows", "box_h", "expected"),
    [(1, 32, "10x20"), (1, 19, "9x18"), (1, 17, "9x15"), (2, 32, "9x15"), (2, 26, "8x13"),
     (2, 25, "6x12"), (3, 32, "6x10"), (3, 27, "6x9"), (4, 32, "5x8"), (4, 28, "5x7"),
     (5, 32, "4x6")],
)
def test_font_for_rows_picks_the_tallest_rung_whose_rows_fit(
    fonts: FontManager, rows: int, box_h: int, expected: str
) -> None:
    computed = next(family for family, line_h in _line_heights(fonts) if rows * line_h <= box_h)
    assert computed == expected
    fit = LayoutContext(128, 32, fonts).font_for_rows(rows, box_h)
    assert (fit.family, fit.fits, fit.line_height) == (expected, True, dict(GRID_RUNGS)[expected])


def test_font_for_rows_with_no_rung_short_enough_gives_the_smallest_unfit(
    fonts: FontManager,
) -> None:
    fit = LayoutContext(128, 32, fonts).font_for_rows(2, 11)
    assert (fit.family, fit.fits) == ("tom-thumb", False)


def _expected_proportional(fonts: FontManager, target: float, text: str, box_w: int) -> str:
    """The first rung at or below ``target`` whose text advance fits ``box_w``."""
    for step in LADDER_GRID:
        if step.size_px <= target:
            path = _rung_path(fonts, step)
            if sum(_bdf_advance(path, ord(c)) for c in text) <= box_w:
                return step.family
    return LADDER_GRID[-1].family


@pytest.mark.parametrize(
    ("panel", "base", "box_w", "expected"),
    [((128, 32), 13, 200, "8x13"), ((128, 32), 14, 200, "8x13"), ((128, 32), 16, 200, "9x15"),
     ((128, 32), 9, 200, "6x9"), ((128, 32), 11, 200, "6x10"), ((256, 64), 8, 200, "9x15"),
     ((128, 32), 13, 30, "7x13"), ((128, 32), 13, 25, "6x13")],
)
def test_fit_text_proportional_picks_the_rung_at_or_below_the_scaled_size(
    fonts: FontManager, panel: tuple[int, int], base: int, box_w: int, expected: str
) -> None:
    ctx = LayoutContext(panel[0], panel[1], fonts)
    computed = _expected_proportional(fonts, base * ctx.scale, "WWWW", box_w)
    assert computed == expected
    fit = ctx.fit_text_proportional("WWWW", (box_w, 40), base_size_px=base)
    assert (fit.family, fit.fits) == (expected, True)


def test_fit_text_proportional_below_every_rung_uses_the_smallest(fonts: FontManager) -> None:
    fit = LayoutContext(128, 32, fonts).fit_text_proportional("ab", (100, 20), base_size_px=4)
    assert fit.family == "tom-thumb"
