"""Discovery against a real mosquitto: Home Assistant's view of the panel, as a subscriber
to ``homeassistant/#`` sees it, after announcing, updating and forgetting.

The publishing client calls the Announcer as the bridge does: ``announce`` on connect,
``update`` when the plugin list changes, ``forget`` before disconnecting for good.
"""

from __future__ import annotations

import json
import queue
from collections.abc import Iterator
from typing import Any

import paho.mqtt.client as mqtt
import pytest

from mqtt_service.discovery import HaDevice, discovery_messages
from mqtt_service.ha_announcer import Announcer, ha_status_topic
from shared.mqtt.settings import MqttSettings
from tests.mqtt_broker import Broker

SETTINGS = MqttSettings(enabled=True, host="127.0.0.1", base_topic="ledpanel/hall")
DEVICE = HaDevice(name="hall", model="LED matrix 64x32")
PLUGINS = ["clock", "weather"]
SENTINEL = "homeassistant/zz-sentinel"
WAIT = 10.0


class Client:
    """A paho client on the test broker, each event put on a queue."""

    def __init__(self, broker: Broker) -> None:
        self.events: queue.Queue[tuple[Any, ...]] = queue.Queue()
        self.paho = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2)
        self.paho.on_connect = lambda c, u, f, reason, p: self.events.put(
            ("connect", reason.value))
        self.paho.on_subscribe = lambda c, u, mid, codes, p: self.events.put(("suback", mid))
        self.paho.on_message = lambda c, u, msg: self.events.put(
            (msg.topic, msg.payload, msg.retain))
        self.paho.connect(broker.host, broker.port)
        self.paho.loop_start()
        assert self.events.get(timeout=WAIT) == ("connect", 0)

    def close(self) -> None:
        self.paho.disconnect()
        self.paho.loop_stop()

    def retained(self, pattern: str = "homeassistant/#") -> dict[str, bytes]:
        """Subscribe and return every retained message the broker holds under ``pattern``:
        a message this client publishes after the subscription arrives after them."""
        self.paho.subscribe(pattern, qos=1)
        self.paho.publish(SENTINEL, b"end", qos=1).wait_for_publish(WAIT)
        held: dict[str, bytes] = {}
        while True:
            event = self.events.get(timeout=WAIT)
            if event[0] == SENTINEL:
                return held
            if len(event) == 3 and event[2]:
                held[event[0]] = event[1]


@pytest.fixture
def clients(mqtt_broker: Broker) -> Iterator[list[Client]]:
    made: list[Client] = []
    yield made
    for client in made:
        client.close()


def _client(broker: Broker, made: list[Client]) -> Client:
    made.append(Client(broker))
    return made[-1]


def _parsed(messages: dict[str, bytes] | list[tuple[str, str]]) -> dict[str, Any]:
    items = messages.items() if isinstance(messages, dict) else messages
    return {topic: json.loads(payload) for topic, payload in items}


def test_after_connecting_every_config_is_retained(mqtt_broker: Broker,
                                                  clients: list[Client]) -> None:
    panel = _client(mqtt_broker, clients)
    assert Announcer(SETTINGS, DEVICE).announce(panel.paho, PLUGINS) == 8
    held = _client(mqtt_broker, clients).retained()
    assert _parsed(held) == _parsed(discovery_messages(SETTINGS, DEVICE, PLUGINS))
    components = {topic.split("/")[1] for topic in held}
    assert components == {"light", "select", "button", "sensor", "notify"}


def test_a_changed_plugin_list_updates_the_selects_options(mqtt_broker: Broker,
                                                          clients: list[Client]) -> None:
    panel = _client(mqtt_broker, clients)
    announcer = Announcer(SETTINGS, DEVICE)
    announcer.announce(panel.paho, PLUGINS)
    watcher = _client(mqtt_broker, clients)
    watcher.retained()
    assert announcer.update(panel.paho, PLUGINS) == 0  # nothing changed, nothing sent
    assert announcer.update(panel.paho, [*PLUGINS, "stocks"]) == 1
    topic, payload, _ = watcher.events.get(timeout=WAIT)
    assert topic == "homeassistant/select/ledpanel_hall/plugin/config"
    assert json.loads(payload)["options"] == ["clock", "weather", "stocks"]
    held = _client(mqtt_broker, clients).retained()
    assert json.loads(held[topic])["options"] == ["clock", "weather", "stocks"]


def test_forgetting_leaves_no_config_retained(mqtt_broker: Broker,
                                             clients: list[Client]) -> None:
    panel = _client(mqtt_broker, clients)
    announcer = Announcer(SETTINGS, DEVICE)
    announcer.announce(panel.paho, PLUGINS)
    assert len(_client(mqtt_broker, clients).retained()) == 8
    assert announcer.forget(panel.paho, timeout=WAIT)
    panel.close()
    assert _client(mqtt_broker, clients).retained() == {}


def test_home_assistant_coming_online_gets_every_config_again(
        mqtt_broker: Broker, clients: list[Client]) -> None:
    panel = _client(mqtt_broker, clients)
    announcer = Announcer(SETTINGS, DEVICE, PLUGINS)
    assert ha_status_topic(SETTINGS) == "homeassistant/status"
    assert announcer.ha_status(panel.paho, b"offline") == 0
    assert _client(mqtt_broker, clients).retained() == {}
    assert announcer.ha_status(panel.paho, b"online") == 8
    assert len(_client(mqtt_broker, clients).retained()) == 8


def test_a_broker_restart_is_healed_by_announcing_on_reconnect(
        mqtt_broker: Broker, clients: list[Client]) -> None:
    announcer = Announcer(SETTINGS, DEVICE, PLUGINS)
    announcer.announce(_client(mqtt_broker, clients).paho)
    mqtt_broker.stop()
    mqtt_broker.start()  # no persistence: the retained configs are gone
    assert _client(mqtt_broker, clients).retained() == {}
    announcer.announce(_client(mqtt_broker, clients).paho)
    assert len(_client(mqtt_broker, clients).retained()) == 8


def test_forgetting_without_a_broker_says_it_did_not_happen(
        mqtt_broker: Broker, clients: list[Client]) -> None:
    panel = _client(mqtt_broker, clients)
    announcer = Announcer(SETTINGS, DEVICE, PLUGINS)
    announcer.announce(panel.paho)
    mqtt_broker.stop()
    assert announcer.forget(panel.paho, timeout=1.0) is False
