"""Brightness and the power and dim schedules as the render loop applies them."""

from __future__ import annotations

import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from display_service.loop.schedules import RECHECK, PanelSchedule
from tests.display_service.helpers import (
    ColorPlugin,
    FakeHost,
    FastPlugin,
    make_display,
    running_loop,
    state,
    wait_until,
)


class FakeWall:
    """A wall clock that starts at a chosen moment and then runs at real speed."""

    def __init__(self, start: datetime) -> None:
        self.base = start.timestamp()
        self.started = time.monotonic()

    def __call__(self) -> float:
        return self.base + time.monotonic() - self.started


def dim_config(start: str = "22:00", end: str = "07:00", **extra: Any) -> dict[str, Any]:
    return {"brightness": 80, "timezone": "UTC", "dim_schedule": {
        "enabled": True, "mode": "global", "start_time": start, "end_time": end,
        "dim_brightness": 30}, **extra}


def power_config(**extra: Any) -> dict[str, Any]:
    return {"brightness": 80, "timezone": "UTC", "schedule": {
        "enabled": True, "mode": "global", "start_time": "07:00", "end_time": "23:00"}, **extra}


def test_a_saved_brightness_reaches_the_matrix_at_once_while_a_plugin_scrolls(
        tmp_path: Path) -> None:
    display = make_display()
    fast = FastPlugin("fast", {}, display)
    current: dict[str, Any] = {"brightness": 80}
    with running_loop(tmp_path, display, FakeHost({"fast": fast}), dict(current),
                      load_config=lambda: dict(current)) as (_loop, bus):
        wait_until(lambda: fast.displays >= 10)
        current["brightness"] = 35
        saved = time.monotonic()
        bus.publish("config_changed", {"seq": 9, "sections": ["brightness"]})
        wait_until(lambda: display.backend.brightness == 35)
        elapsed = time.monotonic() - saved
        frames = fast.displays
        wait_until(lambda: fast.displays > frames + 5)  # still scrolling afterwards
    # Generous bound: a change waiting for the end of the entry would take its 15 s.
    assert elapsed < 1.0, elapsed


def test_the_dim_window_starts_at_its_boundary(tmp_path: Path) -> None:
    display = make_display()
    wall = FakeWall(datetime(2024, 6, 3, 21, 59, 59, tzinfo=UTC))
    plugin = ColorPlugin("a", {}, display)
    with running_loop(tmp_path, display, FakeHost({"a": plugin}), dim_config(),
                      wall=wall) as (_loop, bus):
        wait_until(lambda: display.backend.brightness == 80)
        wait_until(lambda: display.backend.brightness == 30, timeout=3)
        dimmed_at = wall()
        record = wait_until(lambda: state(bus).get("dimmed") and state(bus))
    # Not before the boundary, and at once after it (the loop would otherwise look
    # again only after RECHECK seconds).
    boundary = datetime(2024, 6, 3, 22, 0, tzinfo=UTC).timestamp()
    assert boundary <= dimmed_at < boundary + 1.0
    assert record["brightness"] == 30


def test_turning_the_dim_schedule_off_restores_the_configured_brightness(
        tmp_path: Path) -> None:
    display = make_display()
    wall = FakeWall(datetime(2024, 6, 3, 23, 0, tzinfo=UTC))
    current = dim_config()
    with running_loop(tmp_path, display, FakeHost({"a": ColorPlugin("a", {}, display)}),
                      current, load_config=lambda: current, wall=wall) as (_loop, bus):
        wait_until(lambda: display.backend.brightness == 30)
        current = {**dim_config(), "dim_schedule": {**current["dim_schedule"], "enabled": False}}
        bus.publish("config_changed", {"seq": 2, "sections": ["dim_schedule"]})
        wait_until(lambda: display.backend.brightness == 80)


def test_the_power_schedule_blanks_the_panel_and_skips_plugins(tmp_path: Path) -> None:
    display = make_display()
    plugin = ColorPlugin("a", {}, display)
    wall = FakeWall(datetime(2024, 6, 3, 3, 0, tzinfo=UTC))
    with running_loop(tmp_path, display, FakeHost({"a": plugin}), power_config(),
                      wall=wall) as (_loop, bus):
        record = wait_until(lambda: state(bus).get("power") == "off" and state(bus))
        time.sleep(0.3)
        assert plugin.displays == 0
        assert record["showing"] == "off"
        frame = display.backend.last_frame  # type: ignore[attr-defined]
        assert frame is None or frame.getbbox() is None  # nothing lit


def test_an_on_demand_request_shows_even_while_the_power_schedule_is_off(
        tmp_path: Path) -> None:
    display = make_display()
    plugin = ColorPlugin("a", {}, display)
    wall = FakeWall(datetime(2024, 6, 3, 3, 0, tzinfo=UTC))
    with running_loop(tmp_path, display, FakeHost({"a": plugin}), power_config(),
                      wall=wall) as (_loop, bus):
        wait_until(lambda: state(bus).get("power") == "off")
        bus.request("display_on_demand_request",
                    {"action": "start", "plugin_id": "a", "pinned": True})
        wait_until(lambda: plugin.displays >= 1)
        assert wait_until(lambda: state(bus).get("showing") == "on_demand")
        bus.request("display_on_demand_request", {"action": "stop"})
        wait_until(lambda: state(bus).get("showing") == "off")
        frame = display.backend.last_frame  # type: ignore[attr-defined]
        assert frame.getbbox() is None  # blank again


def test_the_panel_comes_on_at_the_start_of_the_power_window(tmp_path: Path) -> None:
    display = make_display()
    plugin = ColorPlugin("a", {}, display)
    wall = FakeWall(datetime(2024, 6, 3, 6, 59, 59, 700000, tzinfo=UTC))
    with running_loop(tmp_path, display, FakeHost({"a": plugin}), power_config(),
                      wall=wall):
        wait_until(lambda: plugin.displays >= 1, timeout=3)
        shown_at = wall()
    assert shown_at >= datetime(2024, 6, 3, 7, 0, tzinfo=UTC).timestamp()


def test_panel_schedule_wakes_at_each_boundary_and_rechecks_at_least_every_minute() -> None:
    moment = [datetime(2024, 6, 3, 21, 59, 30, tzinfo=UTC).timestamp()]
    panel = PanelSchedule(wall=lambda: moment[0])
    assert panel.next_due() is None  # nothing configured: never wakes the loop
    panel.configure(dim_config())
    assert panel.due(now=100.0)
    assert panel.evaluate(now=100.0) is False
    assert panel.next_due() == 130.0  # the boundary, 30 s away
    moment[0] += 30
    assert panel.evaluate(now=130.0) is True
    assert panel.dimmed and panel.brightness(80) == 30
    assert panel.next_due() == 130.0 + RECHECK  # 07:00 is hours away: recheck first
    moment[0] = datetime(2024, 6, 4, 7, 0, tzinfo=UTC).timestamp()
    assert panel.evaluate(now=200.0) is True
    assert not panel.dimmed and panel.brightness(80) == 80
