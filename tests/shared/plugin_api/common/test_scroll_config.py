"""Crisp scroll speeds: precedence, frame-hold math, whole-pixel steps, refresh ladder."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest

from display_service.matrix.headless import HeadlessMatrix
from display_service.plugins.display_manager import DisplayManager
from shared.fonts import FontManager
from shared.plugin_api.common import ScrollHelper, configure, scroll_config
from shared.plugin_api.common.scroll_config import crisp_step, refresh_rate, requested_speed


@dataclass
class Panel:
    """The one attribute scroll_config reads from a display manager."""

    refresh_hz: Any = 100.0


@pytest.fixture(scope="module")
def fonts() -> FontManager:
    return FontManager()


def test_a_scroll_speed_and_delay_pair_outranks_display_options_pps() -> None:
    config = {
        "scroll_speed": 2,
        "scroll_delay": 0.02,
        "display_options": {"scroll_pixels_per_second": 30},
    }
    assert requested_speed(config) == (100.0, "scroll_speed/scroll_delay")
    nested = {"display_options": {"scroll_speed": 1, "scroll_delay": 0.04,
                                  "scroll_pixels_per_second": 30}}
    speed, source = requested_speed(nested)
    assert speed == pytest.approx(25.0)
    assert source == "display_options.scroll_speed/display_options.scroll_delay"


def test_display_options_pps_is_used_without_a_pair() -> None:
    config = {"scroll_speed": 80, "display_options": {"scroll_pixels_per_second": 30}}
    assert requested_speed(config) == (30.0, "display_options.scroll_pixels_per_second")
    assert requested_speed({"scroll_speed": 80}) == (80.0, "scroll_speed")
    assert requested_speed({}) == (scroll_config.DEFAULT_PX_PER_SECOND, "default")
    assert requested_speed(None, default=12.0) == (12.0, "default")


@pytest.mark.parametrize("bad", [0, -1, True, "fast", None, float("nan")])
def test_unusable_values_are_skipped(bad: Any) -> None:
    config = {"scroll_speed": 3, "scroll_delay": bad,
              "display_options": {"scroll_pixels_per_second": 40}}
    assert requested_speed(config) == (40.0, "display_options.scroll_pixels_per_second")


def test_target_fps_plays_no_part() -> None:
    base = {"display_options": {"scroll_pixels_per_second": 50}}
    with_fps = {"target_fps": 30, "display_options": {"scroll_pixels_per_second": 50,
                                                       "target_fps": 240}}
    assert configure(with_fps, Panel()) == configure(base, Panel())


def test_scroll_delay_is_ignored_for_pacing() -> None:
    # The same speed written with different delays paces identically.
    fast_frames = configure({"scroll_speed": 1, "scroll_delay": 0.02}, Panel())
    slow_frames = configure({"scroll_speed": 4, "scroll_delay": 0.08}, Panel())
    assert fast_frames.step_px == slow_frames.step_px == 1
    assert fast_frames.frame_hold == slow_frames.frame_hold == 2
    # A delay of 0.08 s does not become an 80 ms frame period: frames come every 20 ms.
    assert slow_frames.frame_hold / slow_frames.refresh_hz == pytest.approx(0.02)
    # A delay alone changes nothing.
    assert configure({"scroll_delay": 0.5}, Panel()) == configure({}, Panel())


@pytest.mark.parametrize(
    ("pps", "hz", "expected"),
    [(100, 100, (1, 1)), (50, 100, (1, 2)), (25, 100, (1, 4)), (200, 100, (2, 1)),
     (20, 60, (1, 3)), (120, 120, (1, 1)), (75, 100, (2, 3)), (400, 100, (4, 1))],
)
def test_crisp_step_examples(pps: float, hz: float, expected: tuple[int, int]) -> None:
    assert crisp_step(pps, hz) == expected


@pytest.mark.parametrize("hz", [50, 60, 75, 100, 120, 144, 200])
@pytest.mark.parametrize("pps", [1, 3, 8, 15, 24, 33, 40, 50, 64, 90, 100, 150, 240, 500])
def test_frame_hold_math_and_whole_pixel_steps(pps: float, hz: float) -> None:
    cfg = configure({"scroll_pixels_per_second": pps}, Panel(hz))
    assert isinstance(cfg.step_px, int) and isinstance(cfg.frame_hold, int)
    assert 1 <= cfg.step_px <= scroll_config.MAX_STEP_PX
    assert 1 <= cfg.frame_hold <= hz
    assert cfg.px_per_second == pytest.approx(cfg.step_px * hz / cfg.frame_hold)
    assert cfg.frames_per_second == pytest.approx(hz / cfg.frame_hold)
    if pps <= hz * scroll_config.MAX_STEP_PX * 0.8:
        assert abs(cfg.px_per_second - pps) / pps <= scroll_config.SPEED_TOLERANCE + 1e-9
    # No smaller step would have done within the tolerance.
    for step in range(1, cfg.step_px):
        for hold in range(1, int(hz) + 1):
            assert abs(step * hz / hold - pps) / pps > scroll_config.SPEED_TOLERANCE


def test_refresh_ladder_display_manager_then_hardware_limit_then_100() -> None:
    main = {"display": {"hardware": {"limit_refresh_rate_hz": 80}}}
    assert refresh_rate(Panel(120), main) == (120.0, "display_manager.refresh_hz")
    assert refresh_rate(Panel(0), main) == (80.0, "display.hardware.limit_refresh_rate_hz")
    assert refresh_rate(None, main) == (80.0, "display.hardware.limit_refresh_rate_hz")
    assert refresh_rate(Panel(None), {"display": {"hardware": {"limit_refresh_rate_hz": 0}}}) \
        == (100.0, "default")
    assert refresh_rate(None, None) == (100.0, "default")
    assert configure({"scroll_pixels_per_second": 80}, None, main_config=main).refresh_hz == 80


def test_configure_uses_the_real_display_managers_refresh_rate(fonts: FontManager) -> None:
    display = DisplayManager(HeadlessMatrix(64, 32), font_manager=fonts)
    display.apply_config({"display": {"hardware": {"limit_refresh_rate_hz": 120}}})
    cfg = configure({"scroll_pixels_per_second": 60}, display)
    assert (cfg.refresh_hz, cfg.step_px, cfg.frame_hold) == (120.0, 1, 2)


def scrolled_in_one_second(display: DisplayManager, helper: ScrollHelper) -> float:
    """Drive the helper as the render loop does: one display() per frame_interval."""
    elapsed, start = 0.0, helper.total_distance_scrolled
    while elapsed < 1.0 - 1e-9:
        helper.update_scroll_position()
        elapsed += display.frame_interval
    return helper.total_distance_scrolled - start


def test_the_frame_hold_is_part_of_the_speed(fonts: FontManager) -> None:
    display = DisplayManager(HeadlessMatrix(64, 16), font_manager=fonts)
    helper = ScrollHelper(64, 16)
    helper.create_scrolling_image("x" * 400, font=display.regular_font)
    cfg = configure({"display_options": {"scroll_pixels_per_second": 25}}, display,
                    helper=helper)
    assert (cfg.step_px, cfg.frame_hold) == (1, 4)
    cfg.engage(display)
    assert display.is_currently_scrolling() and display.scroll_frame_hold == 4
    assert scrolled_in_one_second(display, helper) == pytest.approx(25, abs=1)
    # Omitting the hold: the same step at every refresh, four times too fast.
    display.set_scrolling_state(True)
    assert scrolled_in_one_second(display, helper) == pytest.approx(100, abs=1)


def test_engage_with_a_helper_sets_its_step(fonts: FontManager) -> None:
    display = DisplayManager(HeadlessMatrix(32, 16), font_manager=fonts)
    helper = ScrollHelper(32, 16)
    cfg = configure({"scroll_pixels_per_second": 300}, display)
    cfg.engage(display, helper)
    assert helper.fixed_pixels_per_frame == cfg.step_px == 3
    assert display.scroll_frame_hold == cfg.frame_hold == 1
    assert helper.target_fps == pytest.approx(100.0)
