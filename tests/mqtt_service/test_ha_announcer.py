"""Discovery against a real mosquitto: Home Assistant's view of the panel, as a subscriber
to ``homeassistant/#`` sees it, after announcing, updating and forgetting.

The publishing client calls the Announcer as the bridge does: ``announce`` on connect,
``update`` when the plugin list changes, ``forget`` before disconnecting for good. A
watcher subscribed beforehand sees the configs arrive; a client that subscribes
afterwards gets exactly what the broker retained.
"""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from mqtt_service.discovery import HaDevice, discovery_messages
from mqtt_service.ha_announcer import Announcer, ha_status_topic
from shared.mqtt.settings import MqttSettings
from tests.mqtt_broker import Broker
from tests.mqtt_service.ha_watch import WAIT, Client, ha_watcher, parsed, wait_configs

SETTINGS = MqttSettings(enabled=True, host="127.0.0.1", base_topic="ledpanel/hall")
DEVICE = HaDevice(name="hall", model="LED matrix 64x32")
PLUGINS = ["clock", "weather"]


@pytest.fixture
def clients(mqtt_broker: Broker) -> Iterator[list[Client]]:
    made: list[Client] = []
    yield made
    for client in made:
        client.close()


def _client(broker: Broker, made: list[Client]) -> Client:
    made.append(Client(broker))
    return made[-1]


EXPECTED = parsed(discovery_messages(SETTINGS, DEVICE, PLUGINS))


def test_after_connecting_every_config_is_retained(mqtt_broker: Broker,
                                                  clients: list[Client]) -> None:
    watcher = ha_watcher(mqtt_broker)
    panel = _client(mqtt_broker, clients)
    assert Announcer(SETTINGS, DEVICE).announce(panel.paho, PLUGINS) == 8
    wait_configs(watcher, EXPECTED)
    watcher.close()
    held = _client(mqtt_broker, clients).retained()
    assert parsed(held.items()) == EXPECTED
    components = {topic.split("/")[1] for topic in held}
    assert components == {"light", "select", "button", "sensor", "notify"}


def test_a_changed_plugin_list_updates_the_selects_options(mqtt_broker: Broker,
                                                          clients: list[Client]) -> None:
    watcher = ha_watcher(mqtt_broker)
    panel = _client(mqtt_broker, clients)
    announcer = Announcer(SETTINGS, DEVICE)
    announcer.announce(panel.paho, PLUGINS)
    wait_configs(watcher, EXPECTED)
    assert announcer.update(panel.paho, PLUGINS) == 0  # nothing changed, nothing sent
    assert announcer.update(panel.paho, [*PLUGINS, "stocks"]) == 1
    topic = "homeassistant/select/ledpanel_hall/plugin/config"
    watcher.wait_json(topic, lambda config: config["options"] == [*PLUGINS, "stocks"])
    watcher.close()
    held = _client(mqtt_broker, clients).retained()
    assert json.loads(held[topic])["options"] == ["clock", "weather", "stocks"]
    assert parsed(held.items()) == parsed(
        discovery_messages(SETTINGS, DEVICE, [*PLUGINS, "stocks"]))


def test_forgetting_leaves_no_config_retained(mqtt_broker: Broker,
                                             clients: list[Client]) -> None:
    watcher = ha_watcher(mqtt_broker)
    panel = _client(mqtt_broker, clients)
    announcer = Announcer(SETTINGS, DEVICE)
    announcer.announce(panel.paho, PLUGINS)
    wait_configs(watcher, EXPECTED)
    watcher.close()
    assert announcer.forget(panel.paho, timeout=WAIT)  # waits for the broker to take them
    # Forgotten for good: a late birth message or plugin change publishes nothing.
    assert announcer.ha_status(panel.paho, b"online") == 0
    assert announcer.update(panel.paho, ["other"]) == 0
    assert announcer.announce(panel.paho) == 0
    panel.close()
    assert _client(mqtt_broker, clients).retained() == {}


def test_home_assistant_coming_online_gets_every_config_again(
        mqtt_broker: Broker, clients: list[Client]) -> None:
    watcher = ha_watcher(mqtt_broker)
    panel = _client(mqtt_broker, clients)
    announcer = Announcer(SETTINGS, DEVICE, PLUGINS)
    assert ha_status_topic(SETTINGS) == "homeassistant/status"
    assert announcer.ha_status(panel.paho, b"offline") == 0
    assert announcer.ha_status(panel.paho, b"online") == 8
    wait_configs(watcher, EXPECTED)
    watcher.close()


def test_a_broker_restart_is_healed_by_announcing_on_reconnect(
        mqtt_broker: Broker, clients: list[Client]) -> None:
    watcher = ha_watcher(mqtt_broker)
    announcer = Announcer(SETTINGS, DEVICE, PLUGINS)
    first = _client(mqtt_broker, clients)
    announcer.announce(first.paho)
    wait_configs(watcher, EXPECTED)
    watcher.close()
    first.close()  # nothing left in flight to be sent again after the restart
    mqtt_broker.stop()
    mqtt_broker.start()  # no persistence: the retained configs are gone
    assert _client(mqtt_broker, clients).retained() == {}
    watcher = ha_watcher(mqtt_broker)
    announcer.announce(_client(mqtt_broker, clients).paho)
    wait_configs(watcher, EXPECTED)
    watcher.close()


def test_forgetting_without_a_broker_says_it_did_not_happen(
        mqtt_broker: Broker, clients: list[Client]) -> None:
    panel = _client(mqtt_broker, clients)
    announcer = Announcer(SETTINGS, DEVICE, PLUGINS)
    announcer.announce(panel.paho)
    mqtt_broker.stop()
    assert announcer.forget(panel.paho, timeout=1.0) is False
