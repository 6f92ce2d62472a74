"""The bridge against a real broker and a real display: state, availability, settings."""

from __future__ import annotations

import signal

import pytest

from tests.display_service.helpers import wait_until
from tests.mqtt_service.conftest import BASE, Panel, mqtt_section, set_mqtt, wait_mqtt_state

pytestmark = [pytest.mark.timeout(120), pytest.mark.daemons]


def test_the_panel_is_online_with_its_state_and_plugins_retained(panel: Panel) -> None:
    assert panel.watcher.wait_for(panel.topic("availability")) == b"online"
    state = panel.watcher.wait_json(panel.topic("state"), lambda s: s["plugin_id"] == "still")
    assert state["power"] == "ON" and state["mode"] == "still"
    assert state["on_demand"] is False and state["errors"] == 0
    assert isinstance(state["brightness"], int) and "still" in state["showing"]
    assert set(state) == {"power", "brightness", "showing", "plugin_id", "mode", "on_demand",
                          "errors", "temperature", "reason"}
    assert panel.watcher.wait_json(panel.topic("plugins"), lambda p: True) == ["still"]
    # Retained: a client arriving later gets them at once.
    from tests.mqtt_client import Watcher
    late = Watcher(panel.broker.host, panel.broker.port, f"{BASE}/#")
    try:
        assert late.wait_for(panel.topic("availability")) == b"online"
        late.wait_json(panel.topic("state"), lambda s: s["plugin_id"] == "still")
    finally:
        late.close()
    record = wait_mqtt_state(panel.instance, lambda s: s == "connected")
    assert record["broker"] == f"{panel.broker.host}:{panel.broker.port}"


def test_a_killed_bridge_leaves_its_last_will_offline(panel: Panel) -> None:
    panel.watcher.wait_for(panel.topic("availability"), lambda p: p == b"online")
    panel.bridge.process.send_signal(signal.SIGKILL)
    panel.bridge.process.wait(10)
    panel.watcher.wait_for(panel.topic("availability"), lambda p: p == b"offline")


def test_a_clean_stop_says_offline_and_the_bridge_is_not_running(panel: Panel) -> None:
    assert panel.bridge.stop() == 0
    panel.watcher.wait_for(panel.topic("availability"), lambda p: p == b"offline")
    wait_mqtt_state(panel.instance, lambda s: "not running" in s)


def test_it_reconnects_after_the_broker_restarts_and_publishes_again(panel: Panel) -> None:
    panel.watcher.wait_for(panel.topic("state"))
    panel.watcher.close()
    panel.broker.stop()
    wait_mqtt_state(panel.instance, lambda s: s != "connected")
    panel.broker.start()  # no persistence: the retained topics are gone with the old one
    wait_mqtt_state(panel.instance, lambda s: s == "connected", timeout=60)
    from tests.mqtt_client import Watcher
    panel.watcher = Watcher(panel.broker.host, panel.broker.port, f"{BASE}/#")
    assert panel.watcher.wait_for(panel.topic("availability")) == b"online"
    panel.watcher.wait_json(panel.topic("state"), lambda s: s["plugin_id"] == "still")


def test_switching_mqtt_off_disconnects_and_on_again_reconnects(panel: Panel) -> None:
    panel.watcher.wait_for(panel.topic("availability"), lambda p: p == b"online")
    set_mqtt(panel.instance, mqtt_section(panel.broker, enabled=False))
    wait_mqtt_state(panel.instance, lambda s: s == "disabled")
    panel.watcher.wait_for(panel.topic("availability"), lambda p: p == b"offline")
    count = len(panel.watcher.payloads(panel.topic("availability")))
    set_mqtt(panel.instance, mqtt_section(panel.broker))
    wait_mqtt_state(panel.instance, lambda s: s == "connected")
    wait_until(lambda: panel.watcher.payloads(panel.topic("availability"))[count:]
               == [b"online"], timeout=10)
    assert "Traceback" not in panel.bridge.output()


def test_a_state_change_on_the_display_is_published(panel: Panel) -> None:
    panel.watcher.wait_json(panel.topic("state"), lambda s: s["on_demand"] is False)
    panel.bus().request("display_on_demand_request", {
        "action": "start", "plugin_id": "still", "mode": None, "duration": None,
        "pinned": True})
    state = panel.watcher.wait_json(panel.topic("state"), lambda s: s["on_demand"] is True)
    assert "on-demand" in state["showing"]
