"""The discovery messages: every entity, the fields Home Assistant needs, the bridge's topics."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import jinja2
import pytest

from mqtt_service import discovery, ha_entities
from mqtt_service.discovery import (
    HaDevice,
    clear_messages,
    configuration_url,
    discovery_messages,
    model_name,
    panel_device,
    select_options,
)
from shared.mqtt import topics
from shared.mqtt.settings import MqttSettings
from shared.version import CORE_VERSION

SETTINGS = MqttSettings(enabled=True, host="broker", base_topic="ledpanel/kitchen")
DEVICE = HaDevice(name="kitchen", model="LED matrix 128x32",
                  configuration_url="http://kitchen.local:5000")
PLUGINS = ["clock", "weather", "starlark-apps"]
BASE = "ledpanel/kitchen"
# Home Assistant's rule for an entity id: domain.object, lower case, no edge or double _.
ENTITY_ID = re.compile(r"^(?!.+__)(?!_)[\da-z_]+(?<!_)\.(?!_)[\da-z_]+(?<!_)$")
# What each platform cannot do without (its required fields).
REQUIRED = {"light": {"command_topic"}, "select": {"command_topic", "options"},
            "button": {"command_topic"}, "sensor": {"state_topic"},
            "notify": {"command_topic"}}


def _configs(settings: MqttSettings = SETTINGS, plugins: object = PLUGINS
             ) -> dict[str, dict[str, Any]]:
    return {topic: json.loads(payload)
            for topic, payload in discovery_messages(settings, DEVICE, plugins)}


def _by_object(configs: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {topic.split("/")[-2]: config for topic, config in configs.items()}


def test_every_entity_has_its_config_topic() -> None:
    assert sorted(_configs()) == sorted([
        "homeassistant/light/ledpanel_kitchen/light/config",
        "homeassistant/select/ledpanel_kitchen/plugin/config",
        "homeassistant/button/ledpanel_kitchen/next/config",
        "homeassistant/button/ledpanel_kitchen/restart_display/config",
        "homeassistant/sensor/ledpanel_kitchen/showing/config",
        "homeassistant/sensor/ledpanel_kitchen/plugin_errors/config",
        "homeassistant/sensor/ledpanel_kitchen/temperature/config",
        "homeassistant/notify/ledpanel_kitchen/notify/config",
    ])


def test_every_config_has_the_common_fields_and_one_device() -> None:
    configs = _configs()
    unique_ids = set()
    for topic, config in configs.items():
        component = topic.split("/")[1]
        assert REQUIRED[component] <= set(config), topic
        assert "name" in config
        unique_ids.add(config["unique_id"])
        assert config["unique_id"].startswith("ledpanel_kitchen_")
        assert ENTITY_ID.match(config["default_entity_id"]), config["default_entity_id"]
        assert config["default_entity_id"].startswith(f"{component}.")
        # Home Assistant before 2025.10 reads object_id, later ones default_entity_id.
        assert config["default_entity_id"] == f"{component}.{config['object_id']}"
        assert config["availability_topic"] == f"{BASE}/availability"
        assert (config["payload_available"], config["payload_not_available"]) == (
            "online", "offline")
        assert config["device"] == {
            "identifiers": ["ledpanel_kitchen"], "name": "kitchen",
            "manufacturer": "ledpanel", "model": "LED matrix 128x32",
            "sw_version": CORE_VERSION, "configuration_url": "http://kitchen.local:5000"}
        assert config["origin"]["name"] == "ledpanel"
        for key, value in config.items():
            if key.endswith("_topic"):
                assert value.startswith(f"{BASE}/"), (topic, key)
    assert len(unique_ids) == len(configs)


def test_commands_go_to_the_bridges_topics() -> None:
    by_object = _by_object(_configs())
    light = by_object["light"]
    assert light["name"] is None  # the light is the device itself
    assert (light["command_topic"], light["payload_on"], light["payload_off"]) == (
        f"{BASE}/power/set", "ON", "OFF")
    assert light["brightness_command_topic"] == f"{BASE}/brightness/set"
    assert light["brightness_scale"] == 100
    assert by_object["plugin"]["command_topic"] == f"{BASE}/plugin/set"
    assert by_object["plugin"]["options"] == PLUGINS
    assert by_object["next"]["command_topic"] == f"{BASE}/next/set"
    assert by_object["restart_display"]["command_topic"] == f"{BASE}/restart/set"
    assert by_object["restart_display"]["device_class"] == "restart"
    assert by_object["notify"]["command_topic"] == f"{BASE}/notify"
    temperature = by_object["temperature"]
    assert (temperature["device_class"], temperature["unit_of_measurement"]) == (
        "temperature", "°C")
    for config in by_object.values():
        assert config.get("qos", 1) == 1


def test_every_command_topic_is_one_the_bridge_subscribes() -> None:
    subscribed = {name for name, _qos in topics.subscriptions(BASE)}
    commands = [value for config in _configs().values() for key, value in config.items()
                if key.endswith("command_topic")]
    assert len(commands) == 6 and set(commands) <= subscribed
    # Home Assistant's commands are sent at the QoS the bridge subscribes with.
    assert all(config["qos"] == topics.COMMAND_QOS for config in _configs().values()
               if "command_topic" in config)


def _render(template: str, state: dict[str, Any]) -> str:
    # Home Assistant renders these with Jinja2, value_json being the parsed payload.
    return jinja2.Environment().from_string(template).render(value_json=state)


STATE = {"power": "OFF", "brightness": 57, "showing": "Weather: today",
         "plugin_id": "weather", "mode": "weather-daily", "on_demand": False,
         "errors": 2, "temperature": 48.5, "reason": "rotation slot 2 of 5"}


@pytest.mark.parametrize(("obj", "key", "changes", "expected"), [
    ("light", "state_value_template", {}, "OFF"),
    ("light", "brightness_value_template", {}, "57"),
    ("light", "brightness_value_template", {"brightness": None}, ""),  # skipped
    ("plugin", "value_template", {}, "weather"),
    ("plugin", "value_template", {"plugin_id": "stocks"}, "None"),  # not an option
    ("plugin", "value_template", {"plugin_id": None}, "None"),
    ("showing", "value_template", {}, "Weather: today"),
    ("plugin_errors", "value_template", {}, "2"),
    ("temperature", "value_template", {}, "48.5"),
    ("temperature", "value_template", {"temperature": None}, "None"),  # unknown
])
def test_the_templates_read_the_bridges_state(obj: str, key: str, changes: dict[str, Any],
                                              expected: str) -> None:
    config = _by_object(_configs())[obj]
    topic_key = "brightness_state_topic" if key.startswith("brightness") else "state_topic"
    assert config[topic_key] == f"{BASE}/state"
    assert _render(config[key], {**STATE, **changes}) == expected


def test_no_plugin_removes_the_select_rather_than_offer_nothing() -> None:
    messages = dict(discovery_messages(SETTINGS, DEVICE, []))
    assert messages["homeassistant/select/ledpanel_kitchen/plugin/config"] == ""
    assert all(payload for topic, payload in messages.items() if "/select/" not in topic)


def test_plugin_ids_from_the_bus_are_checked() -> None:
    assert select_options("clock") == []
    assert select_options(None) == []
    assert select_options(["clock", 3, "", "../x", "a/b", ".hidden", "clock", "x" * 101,
                           "a b", "none", "None", "clock\n", 'a"b', "{{x}}", "weather",
                           "x" * 100, "my_plugin-2.0"]) == [
        "clock", "weather", "x" * 100, "my_plugin-2.0"]
    assert len(select_options([f"p{n}" for n in range(500)])) == discovery.MAX_OPTIONS


def test_the_plugin_list_changes_only_the_select() -> None:
    before = dict(discovery_messages(SETTINGS, DEVICE, PLUGINS))
    after = dict(discovery_messages(SETTINGS, DEVICE, [*PLUGINS, "stocks"]))
    changed = [topic for topic in before if before[topic] != after[topic]]
    assert changed == ["homeassistant/select/ledpanel_kitchen/plugin/config"]


def test_clearing_empties_every_config_and_older_versions_too(
        monkeypatch: pytest.MonkeyPatch) -> None:
    cleared = clear_messages(SETTINGS)
    assert sorted(topic for topic, _ in cleared) == sorted(_configs())
    assert {payload for _, payload in cleared} == {""}
    monkeypatch.setattr(ha_entities, "RETIRED", (("switch", "power"), ("light", "light")))
    topics = [topic for topic, _ in clear_messages(SETTINGS)]
    assert "homeassistant/switch/ledpanel_kitchen/power/config" in topics
    assert len(topics) == len(set(topics)) == len(_configs()) + 1


def test_prefix_and_base_topic_make_the_topics_and_ids() -> None:
    other = MqttSettings(enabled=True, host="b", base_topic="Home/Hall Panel",
                         discovery_prefix="ha-disc")
    configs = _configs(other)
    assert all(topic.startswith("ha-disc/") and "/home_hall-panel/" in topic
               for topic in configs)
    light = _by_object(configs)["light"]
    assert light["unique_id"] == "home_hall-panel_light"
    assert light["default_entity_id"] == "light.home_hall_panel_light"
    assert light["object_id"] == "home_hall_panel_light"
    assert light["command_topic"] == "Home/Hall Panel/power/set"
    assert light["device"]["identifiers"] == ["home_hall-panel"]


def test_the_device_comes_from_the_config_and_the_web_address() -> None:
    config = {"display": {"hardware": {"rows": 32, "cols": 64, "chain_length": 2}}}
    device = panel_device(SETTINGS, config, {"host": "192.168.1.20", "port": 5000})
    assert device == HaDevice(name="kitchen", model="LED matrix 128x32",
                              configuration_url="http://192.168.1.20:5000")
    assert model_name({"display": "garbage"}) == "LED matrix 128x32"  # the default size
    assert model_name({"display": {"hardware": {"rows": 64, "cols": 64,
                                                "chain_length": 1}}}) == "LED matrix 64x64"


@pytest.mark.parametrize(("address", "url"), [
    (None, None),
    ({"host": "0.0.0.0", "port": 5000}, "http://panel.local:5000"),
    ({"host": "::", "port": 8080}, "http://panel.local:8080"),
    ({"host": "127.0.0.1", "port": 5000}, None),
    ({"host": "localhost", "port": 5000}, None),
    ({"host": "fd00::5", "port": 5000}, "http://[fd00::5]:5000"),
    ({"host": "panel.lan", "port": 5000}, "http://panel.lan:5000"),
    ({"host": "10.0.0.2", "port": True}, None),
    ({"host": "10.0.0.2", "port": 70000}, None),
])
def test_the_configuration_url_is_one_home_assistant_can_open(
        address: dict[str, Any] | None, url: str | None) -> None:
    assert configuration_url(address, "panel.home") == url


def test_no_configuration_url_leaves_the_field_out() -> None:
    device = HaDevice(name="kitchen", model="m")
    for _, payload in discovery_messages(SETTINGS, device, PLUGINS):
        assert "configuration_url" not in json.loads(payload)["device"]


def test_the_entity_id_in_the_docs_example_is_the_one_home_assistant_gets() -> None:
    doc = (Path(__file__).resolve().parents[2] / "docs" / "HOME_ASSISTANT.md").read_text()
    base = re.search(r"the panel's base topic (\S+)", doc)
    entity_id = re.search(r"entity_id: (notify\.\S+)", doc)
    assert base and entity_id
    settings = MqttSettings(enabled=True, host="b", base_topic=base.group(1))
    configs = _configs(settings)
    notify = next(c for t, c in configs.items() if t.split("/")[1] == "notify")
    assert notify["default_entity_id"] == entity_id.group(1)
