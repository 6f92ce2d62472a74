"""Next and power by hand against the real display daemon, through the shared request module."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest

from shared.bus.core import Bus
from shared.bus.display_control import answer, request_next, request_power
from tests.daemons import Instance, start_display
from tests.display_service.test_daemon import add_plugin


@pytest.fixture
def instance(tmp_path: Path) -> Instance:
    inst = Instance(tmp_path)
    add_plugin(inst.plugins_dir, "alpha", "AlphaPlugin", ["alpha_one", "alpha_two"])
    add_plugin(inst.plugins_dir, "beta", "BetaPlugin", ["beta_main"])
    inst.write_config({"alpha": {"enabled": True}, "beta": {"enabled": True},
                       "display_durations": {"alpha": 600, "beta": 600}})
    return inst


def shown(bus: Bus, timeout: float = 15) -> dict[str, Any]:
    # Once every plugin is loaded: the first frame comes before the later ones load.
    state = bus.wait_for("display_state", lambda s: bool(
        s and s.get("plugin_id") and not s.get("loading_plugins")), timeout)
    assert state and state.get("plugin_id"), state
    return state


def test_next_advances_the_rotation_at_once(instance: Instance) -> None:
    bus = Bus(instance.cache_dir)
    daemon = start_display(instance)
    try:
        first = shown(bus)
        assert (first["mode"], first["reason"]) == ("alpha_one", "rotation: slot 1 of 3")
        request_id = request_next(bus, "http")
        outcome, state = answer(bus, request_id, timeout=5)
        assert outcome is not None and state is not None, daemon.output()
        assert outcome["state"] == "done"
        assert (outcome["plugin_id"], outcome["mode"]) == ("alpha", "alpha_two")
        assert state["reason"] == "rotation: slot 2 of 3"
        outcome, state = answer(bus, request_next(bus, "mqtt"), timeout=5)
        assert outcome and outcome["mode"] == "beta_main"
        # Each slot lasts 600 s: only the requests can have moved it.
    finally:
        daemon.stop()


def test_next_is_refused_while_an_on_demand_request_is_in_front(instance: Instance) -> None:
    bus = Bus(instance.cache_dir)
    daemon = start_display(instance)
    try:
        shown(bus)
        bus.request("display_on_demand_request",
                    {"action": "start", "plugin_id": "beta", "pinned": True})
        bus.wait_for("display_state", lambda s: bool(s and s.get("showing") == "on_demand"), 5)
        outcome, state = answer(bus, request_next(bus, "http"), timeout=5)
        assert outcome is not None and state is not None, daemon.output()
        assert outcome["state"] == "error"
        assert "stop it" in outcome["error"]
        assert state["mode"] == "beta_main"
    finally:
        daemon.stop()


def test_power_off_blanks_the_panel_and_survives_a_restart(instance: Instance) -> None:
    bus = Bus(instance.cache_dir)
    daemon = start_display(instance)
    try:
        shown(bus)
        outcome, state = answer(bus, request_power(bus, False, "http"), timeout=5)
        assert outcome is not None and state is not None, daemon.output()
        assert (outcome["state"], outcome["power"]) == ("done", "off")
        assert (state["power"], state["showing"], state["plugin_id"]) == ("off", "off", None)
        assert state["power_cause"] == "hand"
        assert state["reason"] == "panel off: turned off by hand"
        assert (bus.read("display_power") or {}).get("on") is False
    finally:
        assert daemon.stop() == 0
    daemon = start_display(instance)
    try:
        state = bus.wait_for("display_state", lambda s: bool(
            s and s.get("service") == "running" and s.get("pid") == daemon.process.pid), 15)
        assert state is not None, daemon.output()
        assert (state["power"], state["showing"]) == ("off", "off")
        assert state["reason"] == "panel off: turned off by hand"
        outcome, state = answer(bus, request_power(bus, True, "http"), timeout=5)
        assert outcome and outcome["power"] == "on"
        assert state and state["showing"] == "rotation" and state["power_cause"] is None
        assert state["reason"].startswith("rotation: slot 1 of 3")
        assert bus.read("display_power") is None  # the schedule (none) decides again
    finally:
        daemon.stop()


def test_a_bad_power_request_gets_an_error_outcome(instance: Instance) -> None:
    bus = Bus(instance.cache_dir)
    daemon = start_display(instance)
    try:
        shown(bus)
        request_id = bus.request("display_control", {"action": "power", "on": "yes"})
        outcome, _state = answer(bus, request_id, timeout=5)
        assert outcome is not None, daemon.output()
        assert outcome["state"] == "error" and "on must be true or false" in outcome["error"]
        outcome, _state = answer(bus, bus.request("display_control", {"action": "jump"}), 5)
        assert outcome and "unknown action" in outcome["error"]
    finally:
        daemon.stop()


def test_a_malformed_power_record_leaves_the_schedule_deciding(instance: Instance) -> None:
    bus = Bus(instance.cache_dir)
    bus.publish("display_power", {"on": "off", "until": "soon"})
    daemon = start_display(instance)
    try:
        state = shown(bus)
        assert (state["power"], state["power_cause"]) == ("on", None), daemon.output()
        assert bus.wait_for("display_power", lambda record: record is None, 5) is None
        assert "display_power record is malformed" in daemon.output()
    finally:
        daemon.stop()


def schedule_off_now(instance: Instance) -> None:
    """A power schedule whose on-window starts two hours from now (UTC)."""
    config = json.loads((instance.config_dir / "config.json").read_text())
    hour = time.gmtime().tm_hour
    config.update(timezone="UTC", schedule={
        "enabled": True, "mode": "global", "start_time": f"{(hour + 2) % 24:02d}:00",
        "end_time": f"{(hour + 3) % 24:02d}:00"})
    instance.write_config(config)


def test_on_by_hand_is_carried_on_until_its_boundary_and_not_after(instance: Instance) -> None:
    schedule_off_now(instance)
    bus = Bus(instance.cache_dir)
    bus.publish("display_power", {"on": True, "until": time.time() + 3600})
    daemon = start_display(instance)
    try:
        state = shown(bus)
        assert state["power_cause"] == "hand", daemon.output()
        assert "; turned on by hand until " in state["reason"]
    finally:
        daemon.stop()
    bus.publish("display_power", {"on": True, "until": time.time() - 60})  # passed while down
    daemon = start_display(instance)
    try:
        state = bus.wait_for("display_state", lambda s: bool(
            s and s.get("pid") == daemon.process.pid and s.get("service") == "running"), 15)
        assert state is not None, daemon.output()
        assert (state["power"], state["power_cause"]) == ("off", "schedule")
        assert state["reason"].startswith("panel off: power schedule until ")
        assert bus.wait_for("display_power", lambda record: record is None, 5) is None
    finally:
        daemon.stop()
