"""Power by hand over the power schedule, as the render loop applies it."""

from __future__ import annotations

import time
from datetime import UTC, datetime
from pathlib import Path

from shared.bus.display_control import request_power
from tests.display_service.helpers import (
    ColorPlugin,
    FakeHost,
    make_display,
    running_loop,
    state,
    wait_until,
)
from tests.display_service.loop.test_render_loop_schedules import FakeWall, power_config


def test_on_by_hand_while_the_schedule_says_off_lasts_until_its_boundary(
        tmp_path: Path) -> None:
    display = make_display()
    host = FakeHost({"a": ColorPlugin("a", {}, display)})
    wall = FakeWall(datetime(2024, 6, 3, 6, 59, 58, tzinfo=UTC))  # on at 07:00
    config = power_config(schedule={"enabled": True, "mode": "global",
                                    "start_time": "07:00", "end_time": "06:59"})
    with running_loop(tmp_path, display, host, config, wall=wall) as (loop, bus):
        wait_until(lambda: state(bus).get("power") == "off")
        request_power(bus, True, "http")
        loop.notify("display_control")
        record = wait_until(lambda: state(bus).get("power") == "on" and state(bus))
        assert record["power_cause"] == "hand"
        assert record["reason"] == "rotation: slot 1 of 1; turned on by hand until 07:00"
        assert (bus.read("display_power") or {})["on"] is True
        # At 07:00 the schedule says on: the panel stays on, the schedule decides again.
        after = wait_until(lambda: state(bus).get("power_cause") is None and state(bus), 5)
        assert after["power"] == "on" and after["reason"] == "rotation: slot 1 of 1"
        wait_until(lambda: bus.read("display_power") is None)


def test_off_by_hand_blanks_an_on_demand_request_too(tmp_path: Path) -> None:
    display = make_display()
    host = FakeHost({"a": ColorPlugin("a", {}, display), "b": ColorPlugin("b", {}, display)})
    with running_loop(tmp_path, display, host, {"display_durations": {"a": 60}}) as (
            loop, bus):
        bus.request("display_on_demand_request",
                    {"action": "start", "plugin_id": "b", "pinned": True})
        wait_until(lambda: state(bus).get("showing") == "on_demand")
        request_power(bus, False, "http")
        loop.notify("display_control")
        record = wait_until(lambda: state(bus).get("power") == "off" and state(bus))
        assert record["showing"] == "off" and record["plugin_id"] is None
        assert record["on_demand"]["state"] == "active"  # still there, underneath
        wait_until(lambda: display.image.getbbox() is None)  # the panel is blank


def test_a_stale_request_is_ignored_with_an_error_outcome(tmp_path: Path) -> None:
    display = make_display()
    host = FakeHost({"a": ColorPlugin("a", {}, display)})
    ahead = FakeWall(datetime.fromtimestamp(time.time() + 120, UTC))  # requests look old
    with running_loop(tmp_path, display, host, {}, wall=ahead) as (loop, bus):
        wait_until(lambda: state(bus).get("plugin_id") == "a")
        request_id = request_power(bus, False, "mqtt")
        loop.notify("display_control")
        outcome = wait_until(lambda: state(bus).get("requests", {}).get(request_id))
        assert (outcome["state"], outcome["error"]) == ("error", "request is stale; ignored")
        assert state(bus)["power"] == "on"
