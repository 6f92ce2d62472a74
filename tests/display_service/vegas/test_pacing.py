"""Scroll position from the clock: by elapsed time, frame based, with holds."""

from __future__ import annotations

import pytest

from display_service.vegas.pacing import Pacer, pixel
from display_service.vegas.settings import read_settings
from tests.display_service.vegas.fakes import vegas_config

T0 = 1000.0


def _pacer(**vegas: object) -> Pacer:
    return Pacer(read_settings(vegas_config(**vegas)), T0)


def test_position_follows_elapsed_time_exactly() -> None:
    pacer = _pacer(scroll_speed=50, frame_based_scrolling=False)
    assert pixel(pacer.position(T0 + 0.1)) == 5
    assert pixel(pacer.position(T0 + 0.119)) == 5
    assert pixel(pacer.position(T0 + 2.0)) == 100
    assert pacer.position(T0 + 0.01) == pytest.approx(0.5)  # fractional inside...
    assert pixel(pacer.position(T0 + 0.01)) == 0  # ...drawn at whole pixels (floor)


def test_position_does_not_depend_on_how_often_it_is_asked() -> None:
    often, rarely = _pacer(scroll_speed=37), _pacer(scroll_speed=37)
    for step in range(1, 1001):
        often.position(T0 + step * 0.003)
    assert pixel(often.position(T0 + 3.0)) == pixel(rarely.position(T0 + 3.0)) == 111


def test_frame_based_converts_speed_to_pixels_per_scroll_delay() -> None:
    pacer = _pacer(scroll_speed=50, scroll_delay=0.02, frame_based_scrolling=True)
    assert pacer.settings.step == pytest.approx(1.0)
    assert pacer.position(T0 + 0.019) == 0  # no whole frame yet
    assert pacer.position(T0 + 0.02) == pytest.approx(1.0)
    assert pixel(pacer.position(T0 + 1.0)) == 50
    slower = _pacer(scroll_speed=30, scroll_delay=0.05, frame_based_scrolling=True)
    assert slower.settings.step == pytest.approx(1.5)
    assert slower.position(T0 + 0.149) == pytest.approx(3.0)  # two whole frames


@pytest.mark.parametrize(("speed", "delay", "step"), [
    (1, 0.02, 0.1),     # 0.02 px per frame is raised to the 0.1 floor
    (500, 0.02, 5.0),   # 10 px per frame is cut to 5
    (5, 0.02, 0.1),     # exactly at the floor
    (250, 0.02, 5.0),   # exactly at the ceiling
])
def test_frame_based_step_is_clamped(speed: float, delay: float, step: float) -> None:
    pacer = _pacer(scroll_speed=speed, scroll_delay=delay, frame_based_scrolling=True)
    assert pacer.settings.step == pytest.approx(step)
    assert pacer.position(T0 + 100 * delay) == pytest.approx(100 * step)
    assert pacer.settings.pixels_per_second == pytest.approx(step / delay)


def test_next_change_is_the_next_whole_pixel() -> None:
    pacer = _pacer(scroll_speed=50)
    due = pacer.next_change(T0)
    assert due == pytest.approx(T0 + 0.02)
    assert pixel(pacer.position(due)) == 1
    slow = _pacer(scroll_speed=1, frame_based_scrolling=True)  # 0.1 px per 20 ms frame
    due = slow.next_change(T0)
    assert due == pytest.approx(T0 + 0.2)
    assert pixel(slow.position(due)) == 1 and pixel(slow.position(due - 0.001)) == 0


def test_hold_stops_the_position_then_scrolling_resumes() -> None:
    pacer = _pacer(scroll_speed=50)
    pacer.add_hold(10, 3.0)  # reached at T0 + 0.2
    assert pacer.position(T0 + 0.1) == pytest.approx(5)
    assert pacer.position(T0 + 1.0) == 10 and pacer.holding(T0 + 1.0)
    assert pacer.next_change(T0 + 1.0) == pytest.approx(T0 + 3.2)
    assert pacer.position(T0 + 3.2 + 0.1) == pytest.approx(15)
    assert pacer.holds == 0


def test_configure_changes_speed_without_a_jump() -> None:
    pacer = _pacer(scroll_speed=50)
    pacer.configure(read_settings(vegas_config(scroll_speed=100)), T0 + 1.0)
    assert pacer.position(T0 + 1.0) == pytest.approx(50)
    assert pacer.position(T0 + 1.5) == pytest.approx(100)


def test_configure_during_a_hold_keeps_its_end() -> None:
    pacer = _pacer(scroll_speed=50)
    pacer.add_hold(10, 3.0)
    pacer.configure(read_settings(vegas_config(scroll_speed=10)), T0 + 1.0)
    assert pacer.position(T0 + 3.19) == 10
    assert pacer.position(T0 + 3.3) == pytest.approx(11)


def test_bad_settings_fall_back_to_defaults() -> None:
    settings = read_settings(vegas_config(scroll_speed=0, scroll_delay="x",
                                          vegas_min_cycle_duration="",
                                          vegas_max_cycle_duration=-5))
    assert settings.scroll_speed == 50 and settings.scroll_delay == 0.02
    assert settings.min_cycle == 60 and settings.max_cycle == 300
    odd = read_settings(vegas_config(vegas_min_cycle_duration=400, vegas_max_cycle_duration=100))
    assert odd.max_cycle == odd.min_cycle == 400
