"""A test's own MQTT client: subscribes to a filter and records every message, so a test
can wait for a topic to carry a payload (never a fixed sleep)."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion


class Watcher:
    """A connected client recording ``(topic, payload, retain)`` per message."""

    def __init__(self, host: str, port: int, subscribe: str = "#", **login: str) -> None:
        self.messages: list[tuple[str, bytes, bool]] = []
        self._changed = threading.Condition()
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2, protocol=mqtt.MQTTv311)
        if login:
            self.client.username_pw_set(login["username"], login.get("password"))
        self.client.on_message = self._on_message
        subscribed = threading.Event()
        self.client.on_subscribe = lambda *_args: subscribed.set()
        self.client.connect(host, port, 30)
        self.client.loop_start()
        self.client.subscribe(subscribe, qos=1)
        if not subscribed.wait(10):
            raise AssertionError("the test client could not subscribe")

    def _on_message(self, _client: Any, _userdata: Any, message: mqtt.MQTTMessage) -> None:
        with self._changed:
            self.messages.append((message.topic, bytes(message.payload), message.retain))
            self._changed.notify_all()

    def payloads(self, topic: str) -> list[bytes]:
        with self._changed:
            return [payload for name, payload, _ in self.messages if name == topic]

    def mark(self) -> int:
        """Return how many messages came so far: ``since`` for a wait that must see a
        message that comes after this point."""
        with self._changed:
            return len(self.messages)

    def wait_for(self, topic: str, predicate: Callable[[bytes], Any] = bool,
                 timeout: float = 15.0, since: int = 0) -> bytes:
        """Return the first payload on ``topic`` (seen or coming, after the ``since``-th
        message) for which ``predicate`` holds; fail after ``timeout``."""
        deadline = time.monotonic() + timeout
        with self._changed:
            while True:
                for name, payload, _ in self.messages[since:]:
                    if name == topic and predicate(payload):
                        return payload
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    seen = [p for n, p, _ in self.messages if n == topic][-5:]
                    raise AssertionError(f"no matching payload on {topic} within {timeout} s;"
                                         f" last seen: {seen}")
                self._changed.wait(remaining)

    def wait_json(self, topic: str, predicate: Callable[[Any], Any],
                  timeout: float = 15.0, since: int = 0) -> Any:
        """Like ``wait_for``, for JSON payloads; returns the parsed value."""
        def matches(payload: bytes) -> Any:
            try:
                return predicate(json.loads(payload))
            except ValueError:
                return False
        return json.loads(self.wait_for(topic, matches, timeout, since))

    def publish(self, topic: str, payload: str | bytes, qos: int = 1,
                retain: bool = False) -> None:
        self.client.publish(topic, payload, qos=qos, retain=retain).wait_for_publish(10)

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()
