"""The ``reason`` sentence in ``display_state``: why the panel shows what it shows."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from display_service.loop.reason import REASONS, Scene, clock_text, reason
from tests.display_service.helpers import (
    ColorPlugin,
    EmptyPlugin,
    FakeHost,
    make_display,
    running_loop,
    state,
    wait_until,
)
from tests.display_service.loop.test_render_loop_rotation import LivePlugin
from tests.display_service.loop.test_render_loop_schedules import (
    FakeWall,
    dim_config,
    power_config,
)


def two_plugins() -> tuple[FakeHost, Any]:
    display = make_display()
    a, b = ColorPlugin("a", {}, display), ColorPlugin("b", {}, display)
    return FakeHost({"a": a, "b": b}), display


def test_the_rotation_says_which_slot_of_how_many(tmp_path: Path) -> None:
    host, display = two_plugins()
    config = {"display_durations": {"a": 0.5, "b": 60}}
    with running_loop(tmp_path, display, host, config) as (_l, bus):
        first = wait_until(lambda: state(bus).get("plugin_id") == "a" and state(bus))
        second = wait_until(lambda: state(bus).get("plugin_id") == "b" and state(bus))
    assert first["reason"] == "rotation: slot 1 of 2"
    assert second["reason"] == "rotation: slot 2 of 2"
    assert first["power_cause"] is None


def test_a_blank_panel_says_nothing_had_anything_to_draw(tmp_path: Path) -> None:
    display = make_display()
    host = FakeHost({"a": EmptyPlugin("a", {}, display), "b": EmptyPlugin("b", {}, display)})
    with running_loop(tmp_path, display, host) as (_l, bus):
        blank = wait_until(lambda: "blank" in (state(bus).get("reason") or "") and state(bus))
    assert blank["reason"].startswith("rotation: slot ")
    assert blank["reason"].endswith("; the panel is blank: nothing had anything to draw, "
                                    "trying again")


def test_live_content_names_its_plugin(tmp_path: Path) -> None:
    display = make_display()
    live = LivePlugin("z", {"live_priority": True}, display)
    host = FakeHost({"a": ColorPlugin("a", {}, display), "z": live},
                    modes={"z": ["z_main", "live_game"]})
    host.manifests["z"] = {"update_interval": 1}
    with running_loop(tmp_path, display, host, {"display_durations": {"a": 60}}) as (_l, bus):
        wait_until(lambda: state(bus).get("plugin_id") == "a")
        live.go_live = True
        record = wait_until(lambda: state(bus).get("showing") == "live" and state(bus))
    assert record["reason"] == "live priority of plugin z"


def test_on_demand_says_until_when_or_until_stopped(tmp_path: Path) -> None:
    host, display = two_plugins()
    wall = FakeWall(datetime(2024, 6, 3, 14, 0, 0, tzinfo=UTC))
    config = {"timezone": "UTC", "display_durations": {"a": 60, "b": 60}}
    with running_loop(tmp_path, display, host, config,
                      wall=wall) as (_l, bus):
        bus.request("display_on_demand_request",
                    {"action": "start", "plugin_id": "b", "duration": 300})
        timed = wait_until(lambda: state(bus).get("showing") == "on_demand" and state(bus))
        bus.request("display_on_demand_request",
                    {"action": "start", "plugin_id": "b", "pinned": True})
        pinned = wait_until(lambda: "stopped" in state(bus).get("reason", "") and state(bus))
    assert timed["reason"] == "on demand until 14:05"
    assert pinned["reason"] == "on demand until stopped"


def test_the_power_schedule_says_until_when_the_panel_stays_off(tmp_path: Path) -> None:
    host, display = two_plugins()
    wall = FakeWall(datetime(2024, 6, 3, 23, 30, tzinfo=UTC))
    with running_loop(tmp_path, display, host, power_config(),
                      wall=wall) as (_l, bus):
        record = wait_until(lambda: state(bus).get("power") == "off" and state(bus))
    assert record["reason"] == "panel off: power schedule until Tue 07:00"
    assert record["power_cause"] == "schedule"


def test_the_dim_schedule_is_added_with_its_end(tmp_path: Path) -> None:
    host, display = two_plugins()
    wall = FakeWall(datetime(2024, 6, 3, 6, 0, tzinfo=UTC))
    config = dim_config(display_durations={"a": 60, "b": 60})
    with running_loop(tmp_path, display, host, config,
                      wall=wall) as (_l, bus):
        record = wait_until(lambda: state(bus).get("dimmed") and state(bus))
    assert record["reason"] == "rotation: slot 1 of 2; dimmed by the dim schedule until 07:00"


def test_a_layer_another_part_adds_gets_its_sentence_from_the_table() -> None:
    REASONS["follower"] = lambda scene: f"follower of panel {scene.mode}"
    try:
        assert reason(Scene(layer="follower", mode="hall")) == "follower of panel hall"
    finally:
        del REASONS["follower"]
    assert reason(Scene(layer="full_screen", mode="vegas")) == "full-screen ticker (vegas)"
    assert reason(Scene(layer="off", power_cause="hand")) == "panel off: turned off by hand"


def test_a_moment_on_another_day_names_the_weekday() -> None:
    wall = datetime(2024, 6, 3, 23, 0, tzinfo=UTC).timestamp()  # a Monday
    scene = Scene(layer="rotation", wall=wall)
    assert clock_text(wall + 1800, scene) == "23:30"
    assert clock_text(wall + 8 * 3600, scene) == "Tue 07:00"


def test_an_on_demand_at_night_says_the_schedule_is_overruled() -> None:
    wall = datetime(2024, 6, 3, 23, 30, tzinfo=UTC).timestamp()
    scene = Scene(layer="on_demand", until=wall + 600, power_cause="schedule",
                  power_until=wall + 7.5 * 3600, wall=wall)
    assert reason(scene) == ("on demand until 23:40; shown although the power schedule says "
                             "off until Tue 07:00")
