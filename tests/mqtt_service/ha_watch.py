"""Home Assistant's view of a broker, for the discovery tests: what the broker retained
under ``homeassistant/#`` (a client subscribing now) and the configs a watcher saw last.
"""

from __future__ import annotations

import json
import queue
from collections.abc import Iterable
from typing import Any

import paho.mqtt.client as mqtt

from tests.display_service.helpers import wait_until
from tests.mqtt_broker import Broker
from tests.mqtt_client import Watcher

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


def parsed(items: Iterable[tuple[str, Any]]) -> dict[str, Any]:
    return {topic: json.loads(payload) for topic, payload in items}


def latest(watcher: Watcher) -> dict[str, bytes]:
    """Return the newest payload the watcher saw on each discovery config topic."""
    seen: dict[str, bytes] = {}
    for topic, payload, _retained in list(watcher.messages):
        if topic.endswith("/config"):
            seen[topic] = payload
    return seen


def ha_watcher(broker: Broker) -> Watcher:
    return Watcher(broker.host, broker.port, "homeassistant/#")


def wait_configs(watcher: Watcher, expected: dict[str, Any]) -> None:
    """Wait until the configs the watcher saw last (an empty one removes) are ``expected``."""
    wait_until(lambda: parsed((t, p) for t, p in latest(watcher).items() if p) == expected,
               timeout=WAIT)
