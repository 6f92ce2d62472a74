"""The plugin-facing surface of the display manager: sizes, fonts, text, frame hold."""

from __future__ import annotations

import pytest
from PIL import Image, ImageFont

from display_service.matrix.headless import HeadlessMatrix
from display_service.plugins.display_manager import DisplayManager
from shared.fonts import FontManager


def lit(image: Image.Image) -> list[tuple[int, int]]:
    return [
        (x, y) for y in range(image.height) for x in range(image.width)
        if image.getpixel((x, y)) != (0, 0, 0)
    ]


@pytest.fixture(scope="module")
def fonts() -> FontManager:
    return FontManager()


@pytest.fixture
def display(fonts: FontManager) -> DisplayManager:
    return DisplayManager(HeadlessMatrix(64, 32), font_manager=fonts)


@pytest.mark.parametrize("size", [(32, 16), (64, 32), (128, 64), (192, 48)])
def test_size_is_right_in_fallback_and_on_matrix(
    size: tuple[int, int], fonts: FontManager
) -> None:
    display = DisplayManager(HeadlessMatrix(*size), font_manager=fonts)
    assert (display.matrix.width, display.matrix.height) == size
    assert (display.width, display.height) == size
    assert display.image.size == size
    display.clear()
    assert display.image.size == size


def test_there_is_no_draw_image_on_the_display_manager(display: DisplayManager) -> None:
    assert not hasattr(display, "draw_image")


def test_standard_fonts_come_from_the_shipped_catalog(display: DisplayManager) -> None:
    assert display.regular_font.getname()[0] == "Press Start 2P"
    assert display.regular_font.size == 8
    assert display.small_font.size == 8 and display.small_font.getname()[0] == "Fixed"
    assert display.extra_small_font.size == 7
    assert display.get_font_height(display.extra_small_font) == 7
    assert display.get_font_height(display.regular_font) == 8


def test_the_font_manager_is_exposed_and_shared(fonts: FontManager) -> None:
    display = DisplayManager(HeadlessMatrix(64, 32), font_manager=fonts)
    assert display.font_manager is fonts
    assert display.regular_font is fonts.get_font("press-start-2p", 8)
    assert isinstance(DisplayManager(HeadlessMatrix(8, 8)).font_manager, FontManager)


def test_standard_fonts_follow_a_font_reload(fonts: FontManager) -> None:
    display = DisplayManager(HeadlessMatrix(64, 32), font_manager=fonts)
    before = display.small_font
    assert display.small_font is before
    fonts.reload()
    assert display.small_font is not before
    assert display.small_font.size == before.size


def test_draw_text_centered_centres_horizontally_at_the_given_row(
    display: DisplayManager,
) -> None:
    text = "HI"
    width = display.get_text_width(text, display.regular_font)
    display.draw_text(text, x=3, y=10, centered=True)
    pixels = lit(display.image)
    xs = [x for x, _y in pixels]
    assert min(xs) >= (display.width - width) // 2
    assert max(xs) < (display.width + width) // 2 + 1
    assert min(y for _x, y in pixels) >= 10


def test_draw_text_with_no_x_is_centred_and_no_y_is_the_top_row(
    display: DisplayManager,
) -> None:
    display.draw_text("HI")
    pixels = lit(display.image)
    assert min(y for _x, y in pixels) <= 1
    left = min(x for x, _y in pixels)
    right = display.width - 1 - max(x for x, _y in pixels)
    assert abs(left - right) <= 2


def test_draw_text_small_font_and_explicit_font(display: DisplayManager) -> None:
    display.draw_text("A", x=0, y=0, small_font=True, color=(0, 255, 0))
    small_rows = {y for _x, y in lit(display.image)}
    assert max(small_rows) < 8
    display.clear()
    info = display.font_manager.lookup("10x20")
    assert info is not None
    big = ImageFont.truetype(str(info.path), 20)
    display.draw_text("A", x=0, y=0, font=big, small_font=True)
    assert max(y for _x, y in lit(display.image)) >= 8


def test_measurements_default_to_the_regular_font(display: DisplayManager) -> None:
    assert display.get_text_width("ABC") == 24  # Press Start 2P: 8 px per character
    assert display.get_text_width("ABC", display.extra_small_font) == 15
    assert display.get_font_height() == 8


def test_frame_interval_includes_the_frame_hold(display: DisplayManager) -> None:
    display.refresh_hz = 100.0
    assert display.frame_interval == pytest.approx(0.01)
    display.set_scrolling_state(True, frame_hold=3)
    assert display.frame_interval == pytest.approx(0.03)
    display.set_scrolling_state(True)
    assert display.scroll_frame_hold == 1
    assert display.frame_interval == pytest.approx(0.01)
    display.set_scrolling_state(False, frame_hold=4)
    assert display.frame_interval == pytest.approx(0.01)


@pytest.mark.parametrize("hold", [0, -2, None, "x"])
def test_a_bad_frame_hold_means_one(display: DisplayManager, hold: object) -> None:
    display.set_scrolling_state(True, frame_hold=hold)  # type: ignore[arg-type]
    assert display.scroll_frame_hold == 1


def test_refresh_rate_ignores_unusable_config_values(fonts: FontManager) -> None:
    display = DisplayManager(HeadlessMatrix(8, 8), refresh_hz=0, font_manager=fonts)
    assert display.refresh_hz == 100.0
    display.apply_config({"display": {"hardware": {"limit_refresh_rate_hz": True}}})
    assert display.refresh_hz == 100.0
    display.apply_config({"display": {"hardware": {"limit_refresh_rate_hz": 0}}})
    assert display.refresh_hz == 100.0
    display.apply_config({"display": {"hardware": {"limit_refresh_rate_hz": 120}}})
    assert display.refresh_hz == 120.0
