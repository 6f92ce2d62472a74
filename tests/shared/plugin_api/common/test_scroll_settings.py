"""ScrollHelper's settings as plugins for the existing system drive them: frame-based
pacing, speed ranges per mode, target fps, sub-pixel, the scroll info and frame rate."""

from __future__ import annotations

import logging
import time

import pytest
from PIL import Image

from shared.plugin_api.common import ScrollHelper, scroll_config

WIDTH, HEIGHT = 32, 8


class StepClock:
    """A monotonic clock advanced by hand."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def striped(width: int) -> Image.Image:
    image = Image.new("RGB", (width, HEIGHT))
    for x in range(width):
        for y in range(HEIGHT):
            image.putpixel((x, y), (x % 256, (x // 256) % 256, 7))
    return image


def frame_based(clock: StepClock, speed: float, delay: float) -> ScrollHelper:
    """A helper set up the way published tickers do it, in this order."""
    helper = ScrollHelper(WIDTH, HEIGHT, clock=clock)
    helper.set_scrolling_image(striped(2000))
    helper.set_frame_based_scrolling(True)
    helper.set_scroll_speed(speed)
    helper.set_scroll_delay(delay)
    return helper


def positions_over(helper: ScrollHelper, clock: StepClock, frames: int, period: float) -> list:
    seen = []
    for _ in range(frames):
        helper.update_scroll_position()
        seen.append(helper.scroll_position)
        clock.now += period
    return seen


def test_frame_based_moves_speed_pixels_every_delay() -> None:
    clock = StepClock()
    helper = frame_based(clock, 1.0, 0.02)
    assert helper.frame_based_scrolling is True
    # A loop twice as fast as the delay: a one-pixel step every other frame.
    seen = positions_over(helper, clock, 9, 0.01)
    assert seen == [0.0, 0.0, 1.0, 1.0, 2.0, 2.0, 3.0, 3.0, 4.0]
    assert helper.pixels_per_second() == pytest.approx(50.0)


def test_frame_based_takes_one_step_per_frame_and_keeps_its_rhythm_through_jitter() -> None:
    clock = StepClock()
    helper = frame_based(clock, 2.0, 0.015)
    helper.update_scroll_position()  # starts the step clock
    moves = []
    for _ in range(400):  # a 10 ms loop, so steps fall due between frames
        clock.now += 0.01
        before = helper.scroll_position
        helper.update_scroll_position()
        moves.append(helper.scroll_position - before)
    assert set(moves) <= {0.0, 2.0}  # never two steps at once
    # 4 s at 2 px per 15 ms is 533 px: the rhythm holds instead of drifting to 20 ms.
    assert sum(moves) == pytest.approx(2.0 * round(4.0 / 0.015), abs=4.0)


def test_frame_based_starts_afresh_after_a_stall_instead_of_rushing() -> None:
    clock = StepClock()
    helper = frame_based(clock, 1.0, 0.02)
    positions_over(helper, clock, 5, 0.02)
    before = helper.scroll_position
    clock.now += 3.0  # the render thread was busy for 3 s
    helper.update_scroll_position()
    assert helper.scroll_position - before == 1.0
    helper.update_scroll_position()  # the same instant: nothing more is due
    assert helper.scroll_position - before == 1.0


def test_the_speed_range_follows_the_pacing_mode() -> None:
    helper = ScrollHelper(WIDTH, HEIGHT)
    helper.set_scroll_speed(10_000)
    assert helper.scroll_speed == 500.0
    helper.set_scroll_speed(0)
    assert helper.scroll_speed == 1.0
    helper.set_frame_based_scrolling(True)
    helper.set_scroll_speed(40)
    assert helper.scroll_speed == 5.0  # pixels per step
    helper.set_scroll_speed(0.01)
    assert helper.scroll_speed == pytest.approx(0.1)
    helper.set_scroll_speed("fast")  # type: ignore[arg-type]
    assert helper.scroll_speed == 1.0


def test_switching_modes_keeps_the_speed_in_pixels_per_second() -> None:
    helper = ScrollHelper(WIDTH, HEIGHT)
    helper.set_scroll_delay(0.02)
    helper.set_scroll_speed(50)  # px/s
    helper.set_frame_based_scrolling(True)
    assert helper.scroll_speed == pytest.approx(1.0)  # 1 px every 20 ms
    assert helper.pixels_per_second() == pytest.approx(50.0)
    helper.set_frame_based_scrolling(False)
    assert helper.scroll_speed == pytest.approx(50.0)


def test_a_fixed_step_outranks_frame_based_pacing() -> None:
    clock = StepClock()
    helper = frame_based(clock, 1.0, 0.02)
    helper.apply_scroll_config(scroll_config.ScrollConfig(3, 1, 300.0, 300.0, 100.0, "test"))
    helper.update_scroll_position()
    helper.update_scroll_position()
    assert helper.scroll_position == 6.0


def test_dynamic_duration_uses_the_frame_based_speed() -> None:
    helper = ScrollHelper(WIDTH, HEIGHT)
    helper.set_dynamic_duration_settings(min_duration=1, max_duration=600, buffer=0.0)
    helper.set_scrolling_image(striped(1000))
    helper.set_frame_based_scrolling(True)
    helper.set_scroll_speed(1.0)
    helper.set_scroll_delay(0.02)  # 50 px/s
    assert helper.get_dynamic_duration() == 20


def test_target_fps_is_recorded_within_1_to_200() -> None:
    helper = ScrollHelper(WIDTH, HEIGHT)
    helper.set_target_fps(60)
    assert helper.target_fps == 60.0
    helper.set_target_fps(1000)
    assert helper.target_fps == 200.0
    helper.set_target_fps(0)
    assert helper.target_fps == 1.0


def test_sub_pixel_scrolling_is_recorded_and_frames_stay_whole_pixels() -> None:
    clock = StepClock()
    helper = ScrollHelper(WIDTH, HEIGHT, clock=clock)
    strip = striped(300)
    helper.set_scrolling_image(strip)
    helper.set_sub_pixel_scrolling(True)
    assert helper.sub_pixel_scrolling is True
    helper.set_scroll_speed(25)
    helper.update_scroll_position()
    clock.now += 0.1  # 2.5 px
    helper.update_scroll_position()
    frame = helper.get_visible_portion()
    assert frame is not None
    assert frame.getpixel((0, 0)) == strip.getpixel((2, 0))  # no blend of columns 2 and 3
    helper.set_sub_pixel_scrolling(False)
    assert helper.sub_pixel_scrolling is False


def test_scroll_info_reports_the_state() -> None:
    clock = StepClock()
    helper = ScrollHelper(WIDTH, HEIGHT, clock=clock)
    info = helper.get_scroll_info()
    assert info["cached_image_size"] is None and info["elapsed_time"] is None
    helper.set_scrolling_image(striped(120))
    helper.set_scroll_speed(40)
    helper.update_scroll_position()
    clock.now += 0.5
    helper.update_scroll_position()
    info = helper.get_scroll_info()
    assert info["scroll_position"] == pytest.approx(20.0)
    assert info["total_distance_scrolled"] == pytest.approx(20.0)
    assert info["required_total_distance"] == info["total_width"] == 120
    assert info["scroll_speed"] == 40.0 and info["pixels_per_second"] == 40.0
    assert info["scroll_complete"] is False and info["is_scrolling"] is True
    assert info["dynamic_duration"] == helper.get_dynamic_duration()
    assert info["elapsed_time"] == pytest.approx(0.5)
    assert info["cached_image_size"] == (120, HEIGHT)


def test_log_frame_rate_logs_the_rate_every_five_seconds(
    caplog: pytest.LogCaptureFixture,
) -> None:
    clock = StepClock()
    helper = ScrollHelper(WIDTH, HEIGHT, logger=logging.getLogger("scroll-test"), clock=clock)
    with caplog.at_level(logging.DEBUG, logger="scroll-test"):
        for _ in range(260):  # 50 frames a second for a little over 5 s
            helper.log_frame_rate()
            clock.now += 0.02
    lines = [r.getMessage() for r in caplog.records if r.name == "scroll-test"]
    assert lines == ["scroll: 50.0 frames per second over 5.0 s"]


def test_last_update_time_is_a_wall_clock_view_of_the_time_pacing() -> None:
    clock = StepClock()
    helper = ScrollHelper(WIDTH, HEIGHT, clock=clock)
    helper.set_scrolling_image(striped(500))
    helper.set_scroll_speed(100)
    assert helper.last_update_time is None
    helper.update_scroll_position()
    assert helper.last_update_time == pytest.approx(time.time(), abs=0.5)
    # A plugin saying "the last step was 0.1 s ago" gets 0.1 s worth of movement.
    helper.last_update_time = time.time() - 0.1
    helper.update_scroll_position()
    assert helper.scroll_position == pytest.approx(10.0, abs=0.5)
    for garbage in ("later", float("inf"), True):
        helper.last_update_time = garbage
        assert helper.last_update_time is None
    helper.update_scroll_position()  # starts the pacing afresh: no jump
    assert helper.scroll_position == pytest.approx(10.0, abs=0.5)
