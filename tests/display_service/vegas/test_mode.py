"""VegasMode: the ticker behind the render loop's full-screen seam."""

from __future__ import annotations

from typing import Any

from display_service.vegas.mode import VegasMode
from display_service.vegas.ticker import EMPTY_RETRY
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


def test_without_content_the_mode_wakes_only_to_ask_again() -> None:
    clock = FakeClock()
    display = display_manager()
    display.bind_render_thread()
    mode = VegasMode(display, dict, vegas_config(), clock=clock)
    renders, end = 0, clock.now + 10.0
    while clock.now < end:
        renders += 1
        clock.now = max(clock.now + 1e-9, mode.render(clock.now, force=renders == 1))
    assert renders <= 10.0 / EMPTY_RETRY + 3  # not 50 wake-ups a second for a blank panel


def _collections(calls: list[str]) -> list[list[str]]:
    """Split the hook calls into collections (``quick`` joins every one, first)."""
    out: list[list[str]] = []
    for plugin_id in calls:
        if plugin_id == "quick":
            out.append([])
        out[-1].append(plugin_id)
    return out


def _recording(plugin_id: str, clock: FakeClock, seconds: float,
               calls: list[str]) -> ContentPlugin:
    def content() -> Any:
        calls.append(plugin_id)
        clock.advance(seconds)
        return solid(10, RED)

    return ContentPlugin(plugin_id, content)


def test_skip_and_slow_plugins_are_left_out_of_the_next_cycles() -> None:
    clock = FakeClock()
    display = display_manager()
    display.bind_render_thread()
    calls: list[str] = []
    plugins = {"quick": _recording("quick", clock, 0.01, calls),
               "slow": _recording("slow", clock, 0.8, calls),
               "stuck": _recording("stuck", clock, 0.0, calls)}
    failures: list[tuple[str, str, BaseException]] = []
    mode = VegasMode(display, lambda: plugins, vegas_config(), clock=clock,
                     on_error=lambda *failure: failures.append(failure),
                     skip=lambda pid: pid == "stuck")
    for _ in range(8):  # at least eight collections: reset() makes the next frame ask
        mode.ticker.reset()
        mode.render(clock.now, force=False)
    assert _collections(calls)[:8] == [["quick", "slow"], *[["quick"]] * 5,
                                       ["quick", "slow"], ["quick"]]
    assert [(pid, where) for pid, where, _err in failures][:2] == [("slow", "vegas")] * 2
    assert "left out of the next 5" in str(failures[0][2])


def test_live_interrupt_follows_live_priority_and_live_interrupt() -> None:
    clock = FakeClock()
    mode, _display, _failures = _mode(clock)
    assert mode.allows_live_interrupt()  # the default: at once
    mode.configure(vegas_config(live_priority=False))
    assert not mode.allows_live_interrupt()
    mode, _display, _failures = _mode(clock, live_interrupt=False, vegas_min_cycle_duration=0)
    mode.render(clock.now, force=True)  # blank: the content is about to enter
    assert not mode.allows_live_interrupt()
    mode.render(clock.advance(0.02), force=False)  # the first cycle comes on screen
    assert mode.allows_live_interrupt()
    mode.render(clock.advance(0.02), force=False)
    assert not mode.allows_live_interrupt()  # mid-cycle: live content waits
    for _ in range(400):  # 300 px of content: the next cycle enters after 6 s
        mode.render(clock.advance(0.02), force=False)
        if mode.allows_live_interrupt():
            break
    assert mode.ticker.cycles_started == 2


def test_status_names_the_plugin_on_the_panel_and_counts_ticker_frames() -> None:
    clock = FakeClock()
    mode, _display, _failures = _mode(clock)
    assert mode.status(clock.now)["plugin_id"] is None
    start = clock.now
    mode.render(start, force=True)
    for _ in range(100):
        mode.render(clock.advance(0.02), force=False)
    status = mode.status(clock.now)
    assert status["plugin_id"] == "red" and status["mode"] == "vegas"
    assert 40 <= status["fps"] <= 60  # 50 px/s, one frame per pixel
