"""Home Assistant discovery from the real bridge (with the real display, a real broker):
the panel appears when the bridge connects, follows the plugin list, moves with its base
topic and leaves when MQTT is switched off through the API."""

from __future__ import annotations

import json
import re
import socket
from pathlib import Path
from typing import Any

import jinja2
import pytest
import requests

from mqtt_service.discovery import discovery_messages, panel_device
from shared.bus import core as keys
from shared.bus.web_address import published_web_address
from shared.mqtt.settings import read_settings
from tests.daemons import start_web
from tests.display_service.helpers import wait_until
from tests.mqtt_broker import Broker
from tests.mqtt_service.conftest import Panel, mqtt_section, set_mqtt, wait_mqtt_state
from tests.mqtt_service.ha_watch import Client, ha_watcher, latest, parsed, wait_configs
from tests.sync_panels import add_plugin

pytestmark = [pytest.mark.timeout(120), pytest.mark.daemons]

ROOT = Path(__file__).resolve().parents[2]
NODE = "ledpanel_test"
SELECT = f"homeassistant/select/{NODE}/plugin/config"


def _config(panel: Panel) -> dict[str, Any]:
    return json.loads((panel.instance.config_dir / "config.json").read_text())


def _expected(panel: Panel, plugins: list[str]) -> dict[str, Any]:
    config = _config(panel)
    settings = read_settings(config, {})
    return parsed(discovery_messages(settings, panel_device(settings, config, None), plugins))


def _retained(panel: Panel) -> dict[str, Any]:
    client = Client(panel.broker)
    try:
        return parsed((t, p) for t, p in client.retained().items())
    finally:
        client.close()


def test_the_panel_appears_with_every_entity_when_the_bridge_connects(panel: Panel) -> None:
    watcher = ha_watcher(panel.broker)
    try:
        wait_configs(watcher, _expected(panel, ["still"]))
    finally:
        watcher.close()
    held = _retained(panel)
    assert held == _expected(panel, ["still"]) and len(held) == 8
    light = held[f"homeassistant/light/{NODE}/light/config"]
    assert light["availability_topic"] == panel.topic("availability")
    assert light["command_topic"] == panel.topic("power/set")
    # The templates read the state the bridge really publishes.
    state = panel.watcher.wait_json(panel.topic("state"), lambda s: s["plugin_id"] == "still")
    render = jinja2.Environment().from_string
    assert render(light["state_value_template"]).render(value_json=state) == "ON"
    assert render(held[SELECT]["value_template"]).render(value_json=state) == "still"


def test_choosing_in_the_select_reaches_the_display(panel: Panel) -> None:
    panel.watcher.wait_json(panel.topic("state"), lambda s: s["on_demand"] is False)
    select = _retained(panel)[SELECT]
    panel.watcher.publish(select["command_topic"], select["options"][0])
    panel.watcher.wait_json(panel.topic("state"), lambda s: s["on_demand"] is True)


def test_a_changed_plugin_list_updates_the_selects_options(panel: Panel) -> None:
    watcher = ha_watcher(panel.broker)
    try:
        watcher.wait_json(SELECT, lambda config: config["options"] == ["still"])
        add_plugin(panel.instance.plugins_dir, "other", ["other"])
        config = _config(panel)
        config["other"] = {"enabled": True}
        (panel.instance.config_dir / "config.json").write_text(json.dumps(config, indent=2))
        watcher.wait_json(SELECT, lambda config: config["options"] == ["other", "still"])
    finally:
        watcher.close()
    assert _retained(panel)[SELECT]["options"] == ["other", "still"]


def test_a_new_base_topic_moves_the_panel(panel: Panel) -> None:
    watcher = ha_watcher(panel.broker)
    try:
        wait_configs(watcher, _expected(panel, ["still"]))
        set_mqtt(panel.instance, mqtt_section(panel.broker, base_topic="ledpanel/hall"))
        wait_configs(watcher, _expected(panel, ["still"]))  # the new node's, and only those
    finally:
        watcher.close()
    held = _retained(panel)
    assert len(held) == 8 and all("/ledpanel_hall/" in topic for topic in held)


def test_switching_mqtt_off_through_the_api_removes_the_panel(panel: Panel) -> None:
    watcher = ha_watcher(panel.broker)
    web, url = start_web(panel.instance)
    try:
        wait_configs(watcher, _expected(panel, ["still"]))
        answer = requests.post(f"{url}/api/v3/mqtt", json={"enabled": False}, timeout=30)
        assert answer.status_code == 200, answer.text[:300]
        wait_mqtt_state(panel.instance, lambda s: s == "disabled")
        wait_configs(watcher, {})  # an empty config for every entity
        assert set(latest(watcher)) == set(_expected(panel, ["still"]))
    finally:
        watcher.close()
        web.stop()
    assert _retained(panel) == {}
    assert "Traceback" not in panel.bridge.output()


def test_the_configs_come_back_after_the_broker_restarts(panel: Panel) -> None:
    watcher = ha_watcher(panel.broker)
    try:
        wait_configs(watcher, _expected(panel, ["still"]))
    finally:
        watcher.close()
    panel.broker.stop()
    wait_mqtt_state(panel.instance, lambda s: s != "connected")
    panel.broker.start()  # no persistence: every retained config is gone with the old one
    wait_mqtt_state(panel.instance, lambda s: s == "connected", timeout=60)
    watcher = ha_watcher(panel.broker)
    try:
        wait_configs(watcher, _expected(panel, ["still"]))
    finally:
        watcher.close()


def test_home_assistant_coming_online_gets_the_configs_again(panel: Panel) -> None:
    expected = _expected(panel, ["still"])
    watcher = ha_watcher(panel.broker)
    try:
        wait_configs(watcher, expected)
        notify = f"homeassistant/notify/{NODE}/notify/config"
        watcher.publish(notify, b"", retain=True)  # as if Home Assistant lost it
        wait_configs(watcher, {t: c for t, c in expected.items() if t != notify})
        watcher.publish("homeassistant/status", b"online")  # Home Assistant's birth message
        wait_configs(watcher, expected)
    finally:
        watcher.close()
    assert "Traceback" not in panel.bridge.output()


def test_moving_to_another_broker_leaves_nothing_on_the_old_one(panel: Panel,
                                                                tmp_path: Path) -> None:
    expected = _expected(panel, ["still"])
    watcher = ha_watcher(panel.broker)
    other = Broker(tmp_path / "other-broker").start()
    try:
        wait_configs(watcher, expected)
        set_mqtt(panel.instance, {**mqtt_section(panel.broker), "port": other.port})
        wait_configs(watcher, {})  # the old broker: every config removed
        watcher.close()
        watcher = ha_watcher(other)
        wait_configs(watcher, expected)  # the new one: every config
    finally:
        watcher.close()
        other.stop()
    assert _retained(panel) == {}


def test_the_web_uis_address_reaches_the_device_on_the_next_connect(panel: Panel) -> None:
    web, _url = start_web(panel.instance, host="0.0.0.0")
    try:
        address = published_web_address(panel.instance.cache_dir)
        assert address is not None
        config = _config(panel)
        settings = read_settings(config, {})
        device = panel_device(settings, config, address)
        assert device.configuration_url == (
            f"http://{socket.gethostname().split('.')[0]}.local:{address['port']}")
        panel.broker.stop()
        wait_mqtt_state(panel.instance, lambda s: s != "connected")
        panel.broker.start()
        watcher = ha_watcher(panel.broker)
        try:
            wait_configs(watcher, parsed(discovery_messages(settings, device, ["still"])))
        finally:
            watcher.close()
    finally:
        web.stop()


def test_a_doorbell_through_the_notify_entity_interrupts_the_rotation(panel: Panel) -> None:
    notify = _retained(panel)[f"homeassistant/notify/{NODE}/notify/config"]
    # What notify.send_message publishes: the message as it is, at the entity's QoS;
    # the message is the one docs/HOME_ASSISTANT.md's automation sends.
    found = re.search(r"message: '(.+)'", (ROOT / "docs" / "HOME_ASSISTANT.md").read_text())
    assert found is not None
    message = found.group(1)
    assert json.loads(message)["behavior"] == "now"
    panel.watcher.publish(notify["command_topic"], message, qos=notify["qos"])

    def showing() -> list[dict[str, Any]]:
        queue = (panel.bus().read(keys.NOTIFICATIONS) or {}).get("queue")
        return [n for n in queue or [] if isinstance(n, dict)
                and n.get("text") == "Doorbell" and n.get("state") == "showing"]

    shown = wait_until(showing, timeout=10)
    assert shown[0]["source"] == "mqtt" and shown[0]["behavior"] == "now"
