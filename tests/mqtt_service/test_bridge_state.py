"""The bridge against a real broker and a real display: state, availability, settings."""

from __future__ import annotations

import json
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


def test_while_the_broker_is_away_only_the_newest_state_waits_and_goes_out_after(
        panel: Panel) -> None:
    panel.watcher.wait_json(panel.topic("state"), lambda s: s["on_demand"] is False)
    panel.watcher.close()
    panel.broker.stop()
    wait_mqtt_state(panel.instance, lambda s: s != "connected")
    # The display changes while the broker is away: on-demand on, then off again.
    request = {"action": "start", "plugin_id": "still", "mode": None, "duration": None,
               "pinned": True}
    panel.bus().request("display_on_demand_request", request)
    wait_until(lambda: state_of(panel).get("showing") == "on_demand", timeout=10)
    panel.bus().request("display_on_demand_request", {"action": "stop"})
    wait_until(lambda: state_of(panel).get("showing") == "rotation", timeout=10)
    panel.broker.start()
    from tests.mqtt_client import Watcher
    panel.watcher = Watcher(panel.broker.host, panel.broker.port, f"{BASE}/#")
    wait_mqtt_state(panel.instance, lambda s: s == "connected", timeout=60)
    panel.watcher.wait_json(panel.topic("state"), lambda s: s["on_demand"] is False
                            and s["plugin_id"] == "still")
    # Only the newest state was kept: the on-demand one in between never went out.
    sent = [json.loads(p) for p in panel.watcher.payloads(panel.topic("state"))]
    assert not any(s["on_demand"] for s in sent)


def state_of(panel: Panel) -> dict:
    return panel.bus().read("display_state") or {}


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


LIGHT_CONFIG = "homeassistant/light/ledpanel_test/light/config"
SELECT_CONFIG = "homeassistant/select/ledpanel_test/plugin/config"


def test_home_assistant_discovery_is_published_on_connect_and_removed_when_switched_off(
        panel: Panel) -> None:
    from tests.mqtt_client import Watcher
    ha = Watcher(panel.broker.host, panel.broker.port, "homeassistant/#")
    try:
        light = ha.wait_json(LIGHT_CONFIG, lambda c: c.get("command_topic"))
        assert light["command_topic"] == panel.topic("power/set")
        assert light["availability_topic"] == panel.topic("availability") \
            or panel.topic("availability") in json.dumps(light)
        assert ha.wait_json(SELECT_CONFIG, lambda c: True)["options"] == ["still"]
        # Home Assistant coming online asks for every config again.
        count = len(ha.payloads(LIGHT_CONFIG))
        ha.publish("homeassistant/status", "online")
        wait_until(lambda: len(ha.payloads(LIGHT_CONFIG)) > count, timeout=10)
        set_mqtt(panel.instance, mqtt_section(panel.broker, enabled=False))
        ha.wait_for(LIGHT_CONFIG, lambda p: p == b"")
        ha.wait_for(SELECT_CONFIG, lambda p: p == b"")
        wait_mqtt_state(panel.instance, lambda s: s == "disabled")
    finally:
        ha.close()
    # Retained no more: a client arriving now gets no config.
    late = Watcher(panel.broker.host, panel.broker.port, "homeassistant/#")
    try:
        # The broker sends retained messages at subscription, before this one.
        late.publish("homeassistant/zz_probe", "x")
        late.wait_for("homeassistant/zz_probe")
        assert late.payloads(LIGHT_CONFIG) == []
    finally:
        late.close()


def test_a_new_enabled_plugin_updates_the_select(panel: Panel) -> None:
    from tests.mqtt_client import Watcher
    from tests.sync_panels import add_plugin
    ha = Watcher(panel.broker.host, panel.broker.port, "homeassistant/#")
    try:
        ha.wait_json(SELECT_CONFIG, lambda c: c["options"] == ["still"])
        # Enabled by its manifest, with no section in config.json (as the bundled
        # plugins are): the options are what the display loaded, not config.json's list.
        add_plugin(panel.instance.plugins_dir, "other", ["other"])
        manifest = panel.instance.plugins_dir / "other" / "manifest.json"
        manifest.write_text(json.dumps({**json.loads(manifest.read_text()),
                                        "enabled_by_default": True}))
        path = panel.instance.config_dir / "config.json"
        config = json.loads(path.read_text())
        config["ghost"] = {"enabled": True}  # no such plugin: never an option
        path.write_text(json.dumps(config))
        ha.wait_json(SELECT_CONFIG, lambda c: c["options"] == ["other", "still"])
        panel.watcher.wait_json(panel.topic("plugins"), lambda p: p == ["other", "still"])
    finally:
        ha.close()


def test_unreadable_settings_are_said_and_a_fixed_file_connects(tmp_path, mqtt_broker) -> None:
    from tests.daemons import Instance, start_mqtt
    from tests.system.test_no_lost_changes import make_instance

    instance: Instance = make_instance(tmp_path / "panel")
    good = (instance.config_dir / "config.json").read_text()
    (instance.config_dir / "config.json").write_text("{not json")
    (instance.config_dir / "config_secrets.json").write_text('{"mqtt": {"password": 5}}')
    bridge = start_mqtt(instance)
    try:
        wait_mqtt_state(instance, lambda s: "cannot be read" in s)
        (instance.config_dir / "config.json").write_text(good)
        set_mqtt(instance, mqtt_section(mqtt_broker))
        wait_mqtt_state(instance, lambda s: s == "connected")
        assert "mqtt.password is not a text" in bridge.output()  # named, default used
        assert bridge.process.poll() is None and "Traceback" not in bridge.output()
    finally:
        bridge.stop()
