"""The drawing surface plugins use, over a headless matrix."""

from __future__ import annotations

import threading

import pytest
from PIL import Image

from display_service.matrix.headless import HeadlessMatrix
from display_service.plugins.display_manager import DisplayManager


def make(width: int = 32, height: int = 16) -> tuple[DisplayManager, HeadlessMatrix]:
    backend = HeadlessMatrix(width, height)
    return DisplayManager(backend), backend


def lit(image: Image.Image) -> list[tuple[int, int]]:
    return [
        (x, y) for y in range(image.height) for x in range(image.width)
        if image.getpixel((x, y)) != (0, 0, 0)
    ]


def test_size_comes_from_the_backend_and_matrix_gives_it_headless_too() -> None:
    display, _backend = make(64, 32)
    assert (display.width, display.height) == (64, 32)
    assert (display.matrix.width, display.matrix.height) == (64, 32)
    assert display.image.size == (64, 32) and display.image.mode == "RGB"


def test_update_display_on_the_render_thread_pushes_changed_frames_only() -> None:
    display, backend = make()
    display.bind_render_thread()
    display.draw.point((1, 1), fill=(255, 0, 0))
    display.update_display()
    display.update_display()
    assert backend.frames_pushed == 1
    display.draw.point((2, 2), fill=(0, 255, 0))
    display.update_display()
    assert backend.frames_pushed == 2
    assert backend.last_frame is not None
    assert backend.last_frame.getpixel((2, 2)) == (0, 255, 0)


def test_update_display_from_another_thread_waits_for_the_render_loop() -> None:
    display, backend = make()
    display.bind_render_thread()
    display.draw.point((3, 3), fill=(0, 0, 255))
    worker = threading.Thread(target=display.update_display)
    worker.start()
    worker.join()
    assert backend.frames_pushed == 0
    assert display.flush_pending() is True
    assert backend.frames_pushed == 1
    assert display.flush_pending() is False


def test_forget_frame_makes_the_same_frame_go_out_again() -> None:
    display, backend = make()
    display.bind_render_thread()
    display.update_display()
    display.forget_frame()
    display.update_display()
    assert backend.frames_pushed == 2


def test_clear_gives_a_black_canvas_without_pushing() -> None:
    display, backend = make()
    display.draw.rectangle((0, 0, 5, 5), fill=(9, 9, 9))
    display.clear()
    assert lit(display.image) == []
    assert backend.frames_pushed == 0


def test_draw_text_draws_and_centres() -> None:
    display, _backend = make(64, 16)
    display.draw_text("HI", centered=True, color=(255, 255, 0))
    xs = [x for x, _y in lit(display.image)]
    assert xs, "nothing was drawn"
    left_margin, right_margin = min(xs), display.width - 1 - max(xs)
    assert abs(left_margin - right_margin) <= 2
    display.clear()
    display.draw_text("HI", x=0, y=0, small_font=True)
    assert min(x for x, _y in lit(display.image)) <= 1


def test_text_measurements_and_fonts() -> None:
    display, _backend = make()
    font = display.regular_font
    assert display.get_text_width("WWWW", font) > display.get_text_width("W", font) > 0
    assert display.get_font_height(font) > 0
    assert display.get_font_height(display.small_font) <= display.get_font_height(font)
    assert display.extra_small_font.size == 7


def test_scrolling_state_round_trip() -> None:
    display, _backend = make()
    assert display.is_currently_scrolling() is False
    display.set_scrolling_state(True, frame_hold=2)
    assert display.is_currently_scrolling() is True
    assert display.scroll_frame_hold == 2
    display.set_scrolling_state(False)
    assert display.is_currently_scrolling() is False


def test_deferred_updates_run_in_priority_order() -> None:
    display, _backend = make()
    ran: list[str] = []
    display.defer_update(lambda: ran.append("late"), priority=5)
    display.defer_update(lambda: ran.append("early"), priority=-1)
    display.defer_update(lambda: 1 / 0)
    assert display.process_deferred_updates() == 3
    assert ran == ["early", "late"]
    assert display.process_deferred_updates() == 0


def test_apply_config_sets_brightness_and_refresh_rate() -> None:
    display, backend = make()
    config = {"brightness": 40, "display": {"hardware": {"limit_refresh_rate_hz": 60}}}
    assert display.apply_config(config) == 40
    assert backend.brightness == 40
    assert display.refresh_hz == 60
    assert display.apply_config(config) is None
    assert display.apply_config({"display": {"hardware": {"brightness": 300}}}) == 100


@pytest.mark.parametrize("unlimited", [
    {"display": {"hardware": {"limit_refresh_rate_hz": 0}}},
    {"display": {"hardware": {}}},
    {},
])
def test_refresh_rate_goes_back_to_the_default_when_the_limit_is_removed(
        unlimited: dict) -> None:
    display, _backend = make()
    display.apply_config({"display": {"hardware": {"limit_refresh_rate_hz": 60}}})
    assert display.refresh_hz == 60
    display.apply_config(unlimited)
    assert display.refresh_hz == 100.0


def test_text_without_a_font_looks_the_same_and_the_font_is_loaded_once() -> None:
    from PIL import ImageDraw

    from display_service.plugins.display_manager import pillow_default_font

    display = DisplayManager(HeadlessMatrix(64, 16))
    display.clear()
    display.draw.text((1, 1), "12:34", fill=(255, 255, 255))
    expected = Image.new("RGB", (64, 16))
    ImageDraw.Draw(expected).text((1, 1), "12:34", fill=(255, 255, 255))
    assert display.image.tobytes() == expected.tobytes()
    first = display.draw.font
    display.clear()
    assert display.draw.font is first is pillow_default_font()  # not parsed again per frame
