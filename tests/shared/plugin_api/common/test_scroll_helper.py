"""ScrollHelper: whole-pixel steps per presented frame, cycles, the visible window, memory."""

from __future__ import annotations

import pytest
from PIL import Image, ImageChops

from shared.fonts import FontManager
from shared.plugin_api.common import ScrollHelper, configure, scroll_config
from shared.plugin_api.common import scroll_helper as helper_module

WIDTH, HEIGHT = 32, 8


class ForbiddenClock:
    """A clock that must not be read: fixed-step scrolling uses no clock."""

    def __call__(self) -> float:
        raise AssertionError("the clock was read")


class StepClock:
    """A monotonic clock advanced by hand."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture(scope="module")
def fonts() -> FontManager:
    return FontManager()


def striped(width: int, height: int = HEIGHT) -> Image.Image:
    """An image whose every column has its own colour, to check positions exactly."""
    image = Image.new("RGB", (width, height))
    for x in range(width):
        for y in range(height):
            image.putpixel((x, y), (x % 256, (x // 256) % 256, 7))
    return image


def same(a: Image.Image, b: Image.Image) -> bool:
    return a.size == b.size and ImageChops.difference(a, b).getbbox() is None


def test_moves_exactly_step_pixels_per_presented_frame_without_a_clock() -> None:
    helper = ScrollHelper(WIDTH, HEIGHT, clock=ForbiddenClock())
    strip = striped(200)
    helper.set_scrolling_image(strip)
    helper.set_pixels_per_frame(3)
    positions = []
    for _ in range(10):
        helper.update_scroll_position()
        positions.append(helper.scroll_position)
        frame = helper.get_visible_portion()
        assert frame is not None and frame.size == (WIDTH, HEIGHT)
        start = int(helper.scroll_position)
        assert same(frame, strip.crop((start, 0, start + WIDTH, HEIGHT)))
    assert positions == [3.0 * n for n in range(1, 11)]


def test_a_cycle_completes_after_the_strip_width_and_then_holds() -> None:
    helper = ScrollHelper(WIDTH, HEIGHT, clock=ForbiddenClock())
    helper.set_scrolling_image(striped(100))
    helper.apply_scroll_config(scroll_config.ScrollConfig(2, 1, 200.0, 200.0, 100.0, "test"))
    frames = 0
    while not helper.is_scroll_complete():
        helper.update_scroll_position()
        frames += 1
        assert frames <= 50
    assert frames == 50
    assert helper.total_distance_scrolled == 100
    helper.update_scroll_position()
    assert helper.scroll_position == 100  # holds at the wrap point until reset
    helper.reset_scroll()
    assert (helper.scroll_position, helper.is_scroll_complete()) == (0.0, False)


def test_a_text_strip_scrolls_in_from_the_right_and_out_to_the_left(
    fonts: FontManager,
) -> None:
    helper = ScrollHelper(WIDTH, HEIGHT, clock=ForbiddenClock())
    font = fonts.get_font("5x7", 7)
    strip = helper.create_scrolling_image("HELLO", font=font, color=(255, 0, 0))
    assert strip.size == (WIDTH + 25 + 16, HEIGHT)
    first = helper.get_visible_portion()
    assert first is not None and first.getbbox() is None  # lead gap: blank
    configure({"scroll_pixels_per_second": 100}, None, helper=helper)
    assert helper.fixed_pixels_per_frame == 1
    seen_text = False
    while not helper.is_scroll_complete():
        helper.update_scroll_position()
        frame = helper.get_visible_portion()
        assert frame is not None
        seen_text = seen_text or frame.getbbox() is not None
    assert seen_text
    last = helper.get_visible_portion()
    assert last is not None and last.getbbox() is None


def test_continuous_mode_wraps_onto_the_head_of_the_strip() -> None:
    helper = ScrollHelper(WIDTH, HEIGHT, clock=ForbiddenClock())
    strip = striped(40)
    helper.set_scrolling_image(strip)
    helper.continuous = True
    helper.set_pixels_per_frame(5)
    for _ in range(4):
        helper.update_scroll_position()
    assert helper.scroll_position == 20
    frame = helper.get_visible_portion()
    assert frame is not None
    expected = Image.new("RGB", (WIDTH, HEIGHT))
    expected.paste(strip.crop((20, 0, 40, HEIGHT)), (0, 0))
    expected.paste(strip.crop((0, 0, 12, HEIGHT)), (20, 0))
    assert same(frame, expected)
    for _ in range(5):
        helper.update_scroll_position()
    assert helper.is_scroll_complete() and helper.scroll_position == 5


def test_a_strip_narrower_than_the_panel_repeats_to_fill_the_window() -> None:
    helper = ScrollHelper(WIDTH, HEIGHT)
    helper.set_scrolling_image(striped(10))
    frame = helper.get_visible_portion()
    assert frame is not None and frame.size == (WIDTH, HEIGHT)
    assert frame.getpixel((13, 0)) == (3, 0, 7)


def test_without_a_fixed_step_it_paces_by_elapsed_time() -> None:
    clock = StepClock()
    helper = ScrollHelper(WIDTH, HEIGHT, clock=clock)
    helper.set_scrolling_image(striped(500))
    helper.set_scroll_speed(40)
    helper.update_scroll_position()  # first call starts the clock
    clock.now = 0.5
    helper.update_scroll_position()
    assert helper.scroll_position == pytest.approx(20.0)
    helper.set_pixels_per_frame(2)
    helper.update_scroll_position()
    assert helper.scroll_position == pytest.approx(22.0)


def test_images_are_laid_out_with_gaps() -> None:
    helper = ScrollHelper(WIDTH, HEIGHT)
    red = Image.new("RGB", (4, HEIGHT), (255, 0, 0))
    blue = Image.new("RGB", (6, HEIGHT), (0, 0, 255))
    strip = helper.create_scrolling_image([red, blue], item_gap=3, element_gap=2, lead_gap=5)
    assert strip.width == 5 + 4 + 2 + 3 + 6 + 2
    assert strip.getpixel((5, 0)) == (255, 0, 0)
    assert strip.getpixel((5 + 4 + 2 + 3, 0)) == (0, 0, 255)
    assert helper.total_scroll_width == strip.width


def test_text_strips_are_cached_per_text_font_and_colour(fonts: FontManager) -> None:
    helper = ScrollHelper(WIDTH, HEIGHT)
    font = fonts.get_font("4x6", 6)
    first = helper.create_scrolling_image("score 3-1", font=font, color=(0, 255, 0))
    assert helper.create_scrolling_image("score 3-1", font=font, color=(0, 255, 0)) is first
    assert helper.create_scrolling_image("score 3-1", font=font, color=(255, 0, 0)) is not first
    assert helper.scroll_position == 0


def test_the_strip_cache_is_bounded(fonts: FontManager, monkeypatch: pytest.MonkeyPatch) -> None:
    helper = ScrollHelper(WIDTH, HEIGHT)
    font = fonts.get_font("4x6", 6)
    for n in range(50):
        helper.create_scrolling_image(f"headline number {n}", font=font)
    assert len(helper._strips) == helper_module.STRIP_CACHE_SIZE
    monkeypatch.setattr(helper_module, "STRIP_CACHE_PIXELS", 3 * (WIDTH + 100) * HEIGHT)
    for n in range(5):
        helper.create_scrolling_image("x" * 20 + str(n), font=font)
    assert sum(s.width * s.height for s in helper._strips.values()) \
        <= helper_module.STRIP_CACHE_PIXELS
    helper.clear_cache()
    assert helper.cached_image is None and not helper._strips


def test_dynamic_duration_follows_width_and_speed() -> None:
    helper = ScrollHelper(WIDTH, HEIGHT)
    helper.set_dynamic_duration_settings(min_duration=5, max_duration=60, buffer=0.1)
    helper.set_scrolling_image(striped(1000))
    helper.apply_scroll_config(scroll_config.ScrollConfig(1, 2, 50.0, 50.0, 100.0, "test"))
    assert helper.get_dynamic_duration() == 22  # 1000 px at 50 px/s, plus 10 %
    helper.set_scrolling_image(striped(10))
    assert helper.get_dynamic_duration() == 5
    helper.set_scrolling_image(striped(100_000))
    assert helper.get_dynamic_duration() == 60


def test_cached_array_holds_the_strips_pixels_read_only() -> None:
    helper = ScrollHelper(WIDTH, HEIGHT)
    assert helper.cached_array is None
    strip = striped(40)
    helper.set_scrolling_image(strip)
    pixels = helper.cached_array
    assert pixels is not None and tuple(pixels.shape) == (HEIGHT, 40, 3)
    assert tuple(int(pixels[0, 13, c]) for c in range(3)) == strip.getpixel((13, 0))
    assert helper.cached_array is pixels  # made once per strip
    with pytest.raises((TypeError, ValueError)):
        pixels[0, 0, 0] = 1  # writing would not change the panel: refused
    helper.set_scrolling_image(striped(50))
    assert tuple(helper.cached_array.shape) == (HEIGHT, 50, 3)


def test_cached_array_follows_a_strip_assigned_directly_and_clears_with_the_cache() -> None:
    helper = ScrollHelper(WIDTH, HEIGHT)
    helper.cached_image = striped(60)  # some plugins assign the image themselves
    assert tuple(helper.cached_array.shape) == (HEIGHT, 60, 3)
    helper.clear_cache()
    assert helper.cached_image is None and helper.cached_array is None
    assert helper.total_scroll_width == 0


def test_setting_no_image_clears_the_strip() -> None:
    helper = ScrollHelper(WIDTH, HEIGHT)
    helper.set_scrolling_image(striped(60))
    helper.set_scrolling_image(None)
    assert helper.cached_image is None and helper.cached_array is None
    assert helper.total_scroll_width == 0 and helper.get_visible_portion() is None


def test_no_images_give_a_blank_strip_that_does_not_scroll() -> None:
    helper = ScrollHelper(WIDTH, HEIGHT, clock=ForbiddenClock())
    helper.set_pixels_per_frame(2)
    helper.scroll_position = 40.0
    blank = helper.create_scrolling_image([], background=(0, 0, 9))
    assert blank.size == (WIDTH, HEIGHT) and blank.getpixel((5, 5)) == (0, 0, 9)
    assert helper.total_scroll_width == 0 and helper.scroll_position == 0.0
    assert helper.cached_array is not None
    helper.update_scroll_position()
    assert helper.scroll_position == 0.0
    frame = helper.get_visible_portion()
    assert frame is not None and same(frame, blank)


def test_the_existing_systems_call_forms_lay_out_the_same_strip() -> None:
    helper = ScrollHelper(WIDTH, HEIGHT)
    red = Image.new("RGB", (4, HEIGHT), (255, 0, 0))
    blue = Image.new("RGB", (6, HEIGHT), (0, 0, 255))
    expected = helper.create_scrolling_image([red, blue], item_gap=3, element_gap=2)
    by_keyword = helper.create_scrolling_image(content_items=[red, blue], item_gap=3,
                                               element_gap=2)
    positional = helper.create_scrolling_image([red, blue], 3, 2)
    assert same(by_keyword, expected) and same(positional, expected)
    assert helper.total_scroll_width == expected.width == WIDTH + 4 + 2 + 3 + 6 + 2
