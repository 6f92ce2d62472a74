"""VegasMode: the ticker behind the render loop's full-screen seam."""

from __future__ import annotations

from typing import Any

from display_service.vegas.mode import VegasMode
from tests.display_service.vegas.fakes import (
    HEIGHT,
    WIDTH,
    ContentPlugin,
    FakeClock,
    RaisingPlugin,
    display_manager,
    solid,
    vegas_config,
)

RED = (255, 0, 0)


def _mode(clock: FakeClock, **vegas: Any) -> tuple[VegasMode, Any, list[str]]:
    display = display_manager()
    display.bind_render_thread()
    plugins = {"red": ContentPlugin("red", solid(300, RED)), "bad": RaisingPlugin("bad")}
    failures: list[str] = []
    config = vegas_config(**{"vegas_min_cycle_duration": 60, **vegas})
    mode = VegasMode(display, lambda: plugins, config,
                     on_error=lambda pid, where, err: failures.append(f"{pid}:{where}"),
                     clock=clock)
    return mode, display, failures


def test_active_follows_vegas_scroll_enabled() -> None:
    clock = FakeClock()
    mode, _display, _failures = _mode(clock, enabled=False)
    assert not mode.active()
    mode.configure(vegas_config(enabled=True))
    assert mode.active()


def test_render_presents_changed_frames_only_and_reports_plugin_failures() -> None:
    clock = FakeClock()
    mode, display, failures = _mode(clock)
    due = mode.render(clock.now, force=True)
    assert display.frames_pushed == 1 and failures == ["bad:vegas"]
    assert due == clock.now + 0.02
    assert mode.render(clock.now + 0.01, force=False) == due
    assert display.frames_pushed == 1  # nothing moved: nothing pushed
    clock.now = due
    mode.render(clock.now, force=False)
    assert display.frames_pushed == 2
    assert display.backend.last_frame.getpixel((WIDTH - 1, HEIGHT - 1)) == RED


def test_force_resumes_where_the_ticker_stopped() -> None:
    clock = FakeClock()
    mode, display, _failures = _mode(clock)
    mode.render(clock.now, force=True)
    clock.advance(0.5)  # 25 px in
    mode.render(clock.now, force=False)
    before = display.backend.last_frame.copy()
    clock.advance(60.0)  # something else had the panel for a minute
    mode.render(clock.now, force=True)
    assert display.backend.last_frame.tobytes() == before.tobytes()
    clock.advance(0.02)
    mode.render(clock.now, force=False)
    assert display.backend.last_frame.getpixel((WIDTH - 26, 0)) == RED
    assert display.backend.last_frame.getpixel((WIDTH - 27, 0)) == (0, 0, 0)
