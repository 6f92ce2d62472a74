"""The shipped fonts and the shared font manager."""

from __future__ import annotations

import logging
import shutil
from pathlib import Path

import pytest
from PIL import ImageFont

from shared.fonts import SHIPPED_FONTS_DIR, FontManager
from shared.fonts.catalog import bdf_pixel_size

BITMAP_SIZES = {
    "4x6": 6, "5x7": 7, "5x8": 8, "6x9": 9, "6x10": 10, "6x12": 12, "6x13": 13, "7x13": 13,
    "8x13": 13, "9x15": 15, "9x18": 18, "10x20": 20, "tom-thumb": 6,
    "spleen-6x12": 12, "spleen-8x16": 16, "spleen-12x24": 24,
}


@pytest.fixture(scope="module")
def fonts() -> FontManager:
    return FontManager()


def test_catalog_lists_the_shipped_bitmap_and_ttf_fonts(fonts: FontManager) -> None:
    catalog = fonts.catalog()
    assert {f for f, info in catalog.items() if info.kind == "bitmap"} == set(BITMAP_SIZES)
    ttf = catalog["press-start-2p"]
    assert ttf.kind == "ttf" and ttf.native_size is None
    assert ttf.path.name == "PressStart2P-Regular.ttf"
    assert {f: catalog[f].native_size for f in BITMAP_SIZES} == BITMAP_SIZES


@pytest.mark.parametrize(("family", "size"), sorted(BITMAP_SIZES.items()))
def test_bitmap_fonts_load_at_their_native_size(family: str, size: int) -> None:
    path = SHIPPED_FONTS_DIR / f"{family}.bdf"
    font = ImageFont.truetype(str(path), size)
    ascent, descent = font.getmetrics()
    assert ascent + descent == size
    assert font.getlength("A") > 0
    with pytest.raises(OSError):
        ImageFont.truetype(str(path), size + 1)


def test_every_shipped_font_is_named_in_the_readme_with_a_licence_file() -> None:
    readme = (SHIPPED_FONTS_DIR / "README.md").read_text()
    for path in SHIPPED_FONTS_DIR.iterdir():
        if path.suffix in {".bdf", ".ttf"}:
            assert f"`{path.name}`" in readme
    for licence in ("LICENSE-misc-fixed.txt", "LICENSE-spleen.txt", "OFL-PressStart2P.txt",
                    "LICENSE-tom-thumb.txt"):
        assert (SHIPPED_FONTS_DIR / licence).stat().st_size > 100
        assert licence in readme


def test_get_font_returns_cached_fonts_of_the_asked_size(fonts: FontManager) -> None:
    font = fonts.get_font("press-start-2p", 16)
    assert isinstance(font, ImageFont.FreeTypeFont) and font.size == 16
    assert fonts.get_font("press-start-2p", 16) is font
    assert fonts.get_font("Press_Start", 16) is font
    assert fonts.get_font("PressStart2P-Regular", 16) is font
    assert fonts.get_font("5x7", 7).size == 7
    assert fonts.get_font("five_by_seven").size == 7
    assert fonts.get_font("press-start-2p", "lg").size == 12


def test_a_bitmap_family_at_another_size_is_given_at_its_native_size(
    fonts: FontManager,
) -> None:
    assert fonts.get_font("4x6", 12).size == 6
    assert fonts.get_font("spleen-8x16", 10).size == 16


def test_a_collection_gives_the_tallest_strike_that_fits(fonts: FontManager) -> None:
    assert fonts.get_font("fixed", 9).size == 9
    assert fonts.get_font("fixed", 11).size == 10
    assert fonts.get_font("fixed", 14).size == 13
    assert fonts.get_font("fixed", 14).getlength("M") == 8  # 6x13, 7x13, 8x13 tie: widest
    assert fonts.get_font("fixed", 3).size == 6
    assert fonts.get_font("spleen", 20).size == 16


def test_unknown_family_falls_back_to_the_default_and_logs_once(
    caplog: pytest.LogCaptureFixture,
) -> None:
    fonts = FontManager()
    with caplog.at_level(logging.WARNING, logger="shared.fonts.manager"):
        first = fonts.get_font("no-such-font", 10)
        second = fonts.get_font("no-such-font", 10)
    assert first is second
    assert first.getname()[0] == "Press Start 2P" and first.size == 10
    assert [r.getMessage() for r in caplog.records].count(
        "font family 'no-such-font' is not in the catalog; using press-start-2p") == 1


def test_fonts_load_from_a_path(fonts: FontManager) -> None:
    assert fonts.get_font("assets/fonts/PressStart2P-Regular.ttf", 24).size == 24
    assert fonts.get_font(str(SHIPPED_FONTS_DIR / "6x10.bdf"), 10).size == 10


def test_get_native_bdf_size(fonts: FontManager, tmp_path: Path) -> None:
    assert fonts.get_native_bdf_size("4x6") == 6
    assert fonts.get_native_bdf_size("five_by_seven") == 7
    assert fonts.get_native_bdf_size("spleen-12x24") == 24
    assert fonts.get_native_bdf_size("fixed") == 6
    assert fonts.get_native_bdf_size(SHIPPED_FONTS_DIR / "9x18.bdf") == 18
    assert fonts.get_native_bdf_size("assets/fonts/5x8.bdf") == 8
    assert fonts.get_native_bdf_size("press-start-2p") is None
    assert fonts.get_native_bdf_size("no-such-font") is None
    renamed = tmp_path / "tiny.font.bin"
    shutil.copy(SHIPPED_FONTS_DIR / "4x6.bdf", renamed)
    assert fonts.get_native_bdf_size(renamed) is None  # not a bitmap font suffix
    assert bdf_pixel_size(SHIPPED_FONTS_DIR / "10x20.bdf") == 20


def test_cache_generation_is_an_integer_bumped_when_fonts_may_be_stale(
    tmp_path: Path,
) -> None:
    shutil.copy(SHIPPED_FONTS_DIR / "5x7.bdf", tmp_path / "5x7.bdf")
    fonts = FontManager([tmp_path])
    start = fonts.cache_generation
    assert isinstance(start, int)
    old = fonts.get_font("5x7", 7)
    fonts.reload()
    assert fonts.cache_generation == start + 1
    assert fonts.get_font("5x7", 7) is not old
    fonts.clear_cache()
    assert fonts.cache_generation == start + 2


def test_reload_picks_up_new_font_files(tmp_path: Path) -> None:
    fonts = FontManager([tmp_path])
    assert fonts.catalog() == {}
    assert fonts.get_font("whatever", 9).size == 9  # nothing at all: Pillow's own font
    shutil.copy(SHIPPED_FONTS_DIR / "6x10.bdf", tmp_path / "mine.bdf")
    fonts.reload()
    assert fonts.get_native_bdf_size("mine") == 10
    assert fonts.get_font("mine").size == 10


def test_add_font_registers_a_file_under_a_family(tmp_path: Path) -> None:
    fonts = FontManager([tmp_path])
    generation = fonts.cache_generation
    assert fonts.add_font(SHIPPED_FONTS_DIR / "spleen-6x12.bdf", "Plugin-Small") is True
    assert fonts.cache_generation == generation + 1
    assert fonts.get_font("plugin-small").size == 12
    assert fonts.get_font_catalog()["plugin-small"].endswith("spleen-6x12.bdf")
    assert fonts.add_font(tmp_path / "missing.ttf") is False


def test_measure_text_and_height(fonts: FontManager) -> None:
    font = fonts.get_font("press-start-2p", 8)
    width, height, baseline = fonts.measure_text("AB", font)
    assert width == 16 and 0 < height <= 8 and baseline >= 0
    assert fonts.get_font_height(fonts.get_font("5x7", 7)) == 7
    assert fonts.resolve_font("clock.time", "5x8", 8).size == 8
    assert fonts.get_size_tokens()["md"] == 10


@pytest.mark.parametrize("config", [{}, {"display": {"hardware": {"rows": 32}}}])
def test_a_config_dict_as_in_the_existing_system_gives_the_shipped_fonts(config: dict) -> None:
    fonts = FontManager(config)  # community plugins call FontManager({})
    assert fonts.font_dirs == [SHIPPED_FONTS_DIR]
    assert set(fonts.catalog()) == set(FontManager().catalog()) != set()


def test_the_catalog_lists_shipped_fonts_in_reading_order(tmp_path: Path) -> None:
    from shared.fonts.uploads import FontUploads

    families = [entry["family"] for entry in FontUploads(tmp_path / "uploads").catalog()]
    fixed = [f for f in families if f[0].isdigit()]
    assert fixed == ["4x6", "5x7", "5x8", "6x9", "6x10", "6x12", "6x13", "7x13", "8x13",
                     "9x15", "9x18", "10x20"]
    assert families.index("spleen-6x12") < families.index("spleen-8x16") < families.index(
        "spleen-12x24") < families.index("tom-thumb")
