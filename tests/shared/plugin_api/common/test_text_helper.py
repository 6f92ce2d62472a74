"""TextHelper: fonts by file name from ledpanel's fonts, outlined text, measuring, wrapping."""

from __future__ import annotations

import logging
import shutil
from pathlib import Path

import pytest
from PIL import Image, ImageDraw, ImageFont

from shared.fonts import SHIPPED_FONTS_DIR, FontManager
from shared.plugin_api.common.text_helper import TextHelper

PRESS_START = SHIPPED_FONTS_DIR / "PressStart2P-Regular.ttf"


@pytest.fixture
def helper() -> TextHelper:
    return TextHelper(font_manager=FontManager())


def font_path(font: object) -> Path | None:
    path = getattr(font, "path", None)
    return Path(path) if isinstance(path, str) else None  # Pillow's own font: a BytesIO


def test_the_default_roles_come_from_the_shipped_fonts(helper: TextHelper) -> None:
    fonts = helper.load_fonts()
    assert set(fonts) == {"score", "time", "team", "status", "detail", "rank"}
    assert font_path(fonts["score"]) == PRESS_START and fonts["score"].size == 10
    assert font_path(fonts["time"]) == PRESS_START and fonts["time"].size == 8
    assert font_path(fonts["status"]) == SHIPPED_FONTS_DIR / "4x6.bdf"  # "4x6-font.ttf"


def test_a_plugins_own_font_dir_is_searched_first(tmp_path: Path) -> None:
    own = tmp_path / "fonts"
    own.mkdir()
    shutil.copy(PRESS_START, own / "Custom.ttf")
    helper = TextHelper(own, font_manager=FontManager())
    font = helper.load_fonts({"big": {"file": "Custom.ttf", "size": 12}})["big"]
    assert font_path(font) == own / "Custom.ttf" and font.size == 12  # type: ignore[union-attr]


def test_a_font_name_never_reaches_outside_the_font_dir(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    own = tmp_path / "fonts"
    own.mkdir()
    shutil.copy(PRESS_START, tmp_path / "outside.ttf")
    helper = TextHelper(own, font_manager=FontManager())
    with caplog.at_level(logging.WARNING):
        font = helper.load_font("../outside.ttf", 8)
    assert font_path(font) != tmp_path / "outside.ttf"
    assert "outside.ttf not found" in caplog.text


def test_a_missing_font_is_pillows_default_with_one_warning(
    helper: TextHelper, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.WARNING):
        fonts = helper.load_fonts({"a": {"file": "Nope.ttf", "size": 9}})
        helper.load_font("Nope.ttf", 10)
        broken = helper.load_fonts({"b": {"file": "x.ttf"}, "c": "oops"})  # type: ignore[dict-item]
    assert font_path(fonts["a"]) is None
    assert isinstance(fonts["a"], ImageFont.FreeTypeFont | ImageFont.ImageFont)
    assert set(broken) == {"b", "c"}
    assert caplog.text.count("Nope.ttf not found") == 1
    assert "'b': needs a file name and a whole size" in caplog.text


def test_outlined_text_has_the_outline_around_the_fill(helper: TextHelper) -> None:
    font = helper.load_font("PressStart2P-Regular.ttf", 8)
    image = Image.new("RGB", (40, 16))
    helper.draw_text_with_outline(ImageDraw.Draw(image), "H", (4, 4), font,
                                  fill=(255, 255, 255), outline_color=(255, 0, 0))
    colors = {color for _count, color in image.getcolors(1024) or []}
    assert (255, 255, 255) in colors and (255, 0, 0) in colors
    plain = Image.new("RGB", (40, 16))
    helper.draw_text_with_outline(ImageDraw.Draw(plain), "H", (4, 4), font,
                                  fill=(255, 255, 255), outline_color=(255, 0, 0),
                                  outline_width=0)
    assert (255, 0, 0) not in {color for _count, color in plain.getcolors(1024) or []}


def test_measuring_centering_and_text_images(helper: TextHelper) -> None:
    font = helper.load_font("PressStart2P-Regular.ttf", 8)
    assert helper.get_text_width("ABCD", font) == 32  # 8 px per glyph
    assert helper.get_text_height("ABCD", font) == 8
    assert helper.get_text_dimensions("AB", font) == (16, 8)
    assert helper.center_text("AB", font, 64, 32) == (24, 12)
    assert helper.get_text_width("AB\nABCD", font) >= 32  # several lines: no exception
    image = helper.create_text_image("AB", font, padding=2)
    assert image.size == (20, 12) and image.mode == "RGB"


def test_wrapping_keeps_each_line_within_the_width(helper: TextHelper) -> None:
    font = helper.load_font("PressStart2P-Regular.ttf", 8)
    lines = helper.wrap_text("one two three four", font, 64)
    assert lines == ["one two", "three", "four"]
    assert all(helper.get_text_width(line, font) <= 64 for line in lines)
    assert helper.wrap_text("one two three four", font, 64, max_lines=2) == ["one two", "three"]
    assert helper.wrap_text("extraordinarily", font, 16) == ["extraordinarily"]


def test_multiline_text_draws_each_line_below_the_last(helper: TextHelper) -> None:
    font = helper.load_font("PressStart2P-Regular.ttf", 8)
    image = Image.new("RGB", (40, 40))
    helper.draw_multiline_text(ImageDraw.Draw(image), "A\n\nB", (2, 2), font, line_spacing=2)
    rows = [y for y in range(40) if any(image.getpixel((x, y)) != (0, 0, 0) for x in range(40))]
    third = 2 + 2 * (helper.get_text_height("A", font) + 2)  # past the blank line
    assert rows[0] <= 3 and third <= rows[-1] < third + 8


def test_the_font_cache_counts_and_clears(helper: TextHelper) -> None:
    helper.load_fonts()
    assert helper.get_font_cache_stats() == {"cached_fonts": 3}  # distinct (file, size)
    helper.clear_font_cache()
    assert helper.get_font_cache_stats() == {"cached_fonts": 0}


def test_without_a_font_dir_it_reports_the_shipped_folder_and_serves_it_from_the_catalog(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A decoy assets/fonts in the working directory must never be read.
    decoy = tmp_path / "assets" / "fonts"
    decoy.mkdir(parents=True)
    shutil.copy(PRESS_START, decoy / "Decoy.ttf")
    monkeypatch.chdir(tmp_path)
    for helper in (TextHelper(font_manager=FontManager()),
                   TextHelper("assets/fonts", font_manager=FontManager())):
        assert helper.font_dir == Path("assets/fonts")
        assert font_path(helper.load_font("PressStart2P-Regular.ttf", 8)) == PRESS_START
        assert font_path(helper.load_font("Decoy.ttf", 8)) is None  # Pillow's own font


def test_the_default_font_configuration_is_what_load_fonts_uses(helper: TextHelper) -> None:
    config = helper._get_default_font_config()
    assert config["score"] == {"file": "PressStart2P-Regular.ttf", "size": 10}
    assert set(config) == set(helper.load_fonts())
    config["score"]["size"] = 99  # a copy: changing it changes nothing else
    assert helper._get_default_font_config()["score"]["size"] == 10
