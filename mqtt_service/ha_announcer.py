"""Keeping Home Assistant's view of the panel: the bridge's hook for discovery.

The bridge calls ``announce`` each time it connects (every config, retained: a broker
without persistence forgets them on restart), ``update`` when the plugin list or the
device changes (only the configs that changed), ``ha_status`` with what Home Assistant
says on ``<discovery_prefix>/status`` (it asks for the configs again when it comes
online) and ``forget`` before it disconnects for good because MQTT was switched off:
the empty retained configs remove the panel from Home Assistant.

The client is paho's (anything with its ``publish`` answering a message info with
``wait_for_publish`` and ``is_published``); calls may come from paho's thread and the
bridge's, so the state is kept under a lock.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence
from typing import Protocol

from mqtt_service.discovery import HaDevice, clear_messages, discovery_messages
from shared.mqtt.settings import MqttSettings

QOS = 1
HA_ONLINE = b"online"


class MessageInfo(Protocol):
    def wait_for_publish(self, timeout: float | None = None) -> None: ...

    def is_published(self) -> bool: ...


class Publisher(Protocol):
    def publish(self, topic: str, payload: str | bytes | None = None, qos: int = 0,
                retain: bool = False) -> MessageInfo: ...


def ha_status_topic(settings: MqttSettings) -> str:
    """Return the topic Home Assistant announces itself on (its birth message)."""
    return f"{settings.discovery_prefix}/status"


def _send(client: Publisher, messages: Sequence[tuple[str, str]]) -> list[MessageInfo]:
    return [client.publish(topic, payload, qos=QOS, retain=True)
            for topic, payload in messages]


def _acknowledged(infos: Sequence[MessageInfo], timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    try:
        for info in infos:
            info.wait_for_publish(max(0.0, deadline - time.monotonic()))
            if not info.is_published():
                return False
    except (ValueError, RuntimeError):  # not queued, or the connection is gone
        return False
    return True


def publish_all(client: Publisher, messages: Sequence[tuple[str, str]],
                timeout: float | None = None) -> bool:
    """Publish ``messages`` retained at QoS 1; with a ``timeout``, wait until the broker
    acknowledged every one and return whether it did in time (never on paho's own
    thread: it is the one that reads the acknowledgements)."""
    infos = _send(client, messages)
    return True if timeout is None else _acknowledged(infos, timeout)


class Announcer:
    """What this panel last told Home Assistant, and the calls that keep it true."""

    def __init__(self, settings: MqttSettings, device: HaDevice,
                 plugin_ids: Sequence[str] = ()) -> None:
        self._lock = threading.Lock()
        self._settings = settings
        self._device = device
        self._plugins: list[str] = list(plugin_ids)
        self._published: dict[str, str] = {}
        self._forgotten = False  # after forget nothing is published again

    def _messages(self) -> list[tuple[str, str]]:
        return discovery_messages(self._settings, self._device, self._plugins)

    def announce(self, client: Publisher, plugin_ids: Sequence[str] | None = None,
                 device: HaDevice | None = None) -> int:
        """Publish every config (on connect); return how many were published."""
        return self._publish(client, plugin_ids, device, only_changed=False)

    def update(self, client: Publisher, plugin_ids: Sequence[str] | None = None,
               device: HaDevice | None = None) -> int:
        """Publish the configs a new plugin list or device changes; return how many."""
        return self._publish(client, plugin_ids, device, only_changed=True)

    def _publish(self, client: Publisher, plugin_ids: Sequence[str] | None,
                 device: HaDevice | None, *, only_changed: bool) -> int:
        with self._lock:
            if plugin_ids is not None:
                self._plugins = list(plugin_ids)
            if device is not None:
                self._device = device
            if self._forgotten:
                return 0
            messages = [(topic, payload) for topic, payload in self._messages()
                        if not only_changed or self._published.get(topic) != payload]
            publish_all(client, messages)
            if only_changed:
                self._published.update(messages)
            else:
                self._published = dict(messages)
            return len(messages)

    def ha_status(self, client: Publisher, payload: bytes) -> int:
        """Answer Home Assistant's birth message with every config; return how many."""
        return self.announce(client) if payload.strip() == HA_ONLINE else 0

    def forget(self, client: Publisher, timeout: float = 5.0) -> bool:
        """Remove the panel from Home Assistant for good: publish the empty configs and
        wait (outside the lock, so paho's thread is never held up) for the broker to take
        them; return whether it did within ``timeout`` seconds. Later calls publish
        nothing: a birth message arriving meanwhile cannot bring the panel back."""
        with self._lock:
            self._published = {}
            self._forgotten = True
            infos = _send(client, clear_messages(self._settings))
        return _acknowledged(infos, timeout)
