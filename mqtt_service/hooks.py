"""Where Home Assistant discovery plugs into the bridge (docs/HOME_ASSISTANT.md).

``on_connected`` runs after every connect (paho's thread), once the availability and
state topics are out: it publishes every discovery config, retained, and listens for
Home Assistant's birth message on ``<discovery_prefix>/status`` to publish them again.
``on_state`` runs after each state publish (the bridge's thread): a changed plugin list
or device (panel size, web address) publishes the configs that changed. ``on_disabled``
runs while the old connection still stands when ``needs_clearing`` says the panel must
leave Home Assistant (MQTT switched off, or another broker or topics): it publishes the
empty retained configs and waits for the broker to take them. All get the ``Link`` (its
``settings``, ``client`` and bus record) and the enabled plugin ids; none raises.
"""

from __future__ import annotations

import logging
import threading
import weakref
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import paho.mqtt.client as mqtt

from mqtt_service.discovery import HaDevice, panel_device
from mqtt_service.ha_announcer import Announcer, ha_status_topic
from shared.bus.web_address import published_web_address
from shared.mqtt.settings import MqttSettings

if TYPE_CHECKING:
    from mqtt_service.link import Link

logger = logging.getLogger(__name__)

FORGET_WAIT = 5.0  # seconds the broker may take to acknowledge the empty configs

_lock = threading.Lock()
_announcers: weakref.WeakKeyDictionary[Link, Announcer] = weakref.WeakKeyDictionary()


def needs_clearing(old: MqttSettings | None, new: MqttSettings) -> bool:
    """Return whether going from ``old`` to ``new`` settings must remove the panel from
    Home Assistant on the old connection: MQTT off, or another broker, base topic or
    discovery prefix (the old configs would stay behind)."""
    if old is None or not old.usable:
        return False
    if not new.usable:
        return True
    where = ("host", "port", "base_topic", "discovery_prefix")
    return any(getattr(old, name) != getattr(new, name) for name in where)


def _device(link: Link, config: Mapping[str, Any] | None) -> HaDevice:
    address = published_web_address(link.record.bus.directory)
    return panel_device(link.settings, config or {}, address)


def _announcer(link: Link, plugins: list[str], config: Mapping[str, Any] | None
               ) -> tuple[Announcer, bool]:
    """Return the link's announcer (made now when new) and whether it is new."""
    with _lock:
        announcer = _announcers.get(link)
        if announcer is not None:
            return announcer, False
        announcer = Announcer(link.settings, _device(link, config), plugins)
        _announcers[link] = announcer
        return announcer, True


def _listen_for_home_assistant(link: Link, announcer: Announcer) -> None:
    def on_status(client: mqtt.Client, _userdata: Any, message: mqtt.MQTTMessage) -> None:
        client.ack(message.mid, message.qos)  # the bridge acknowledges by hand
        try:
            announcer.ha_status(client, bytes(message.payload))
        except Exception:
            logger.exception("mqtt: discovery after Home Assistant's birth message failed")

    topic = ha_status_topic(link.settings)
    link.client.message_callback_add(topic, on_status)
    link.client.subscribe(topic, qos=1)


def on_connected(link: Link, plugins: list[str],
                 config: Mapping[str, Any] | None = None) -> None:
    """Publish every discovery config (after each connect)."""
    try:
        announcer, new = _announcer(link, plugins, config)
        device = None if new else _device(link, config)
        count = announcer.announce(link.client, plugins, device)
        _listen_for_home_assistant(link, announcer)
        logger.info("mqtt: Home Assistant discovery published (%d configs)", count)
    except Exception:
        logger.exception("mqtt: publishing Home Assistant discovery failed")


def on_state(link: Link, plugins: list[str], config: Mapping[str, Any]) -> None:
    """Publish the discovery configs a new plugin list or device changed."""
    with _lock:
        announcer = _announcers.get(link)
    if announcer is None or not link.connected.is_set():
        return  # not connected yet: the connect publishes everything
    try:
        count = announcer.update(link.client, plugins, _device(link, config))
        if count:
            logger.info("mqtt: Home Assistant discovery updated (%d configs)", count)
    except Exception:
        logger.exception("mqtt: updating Home Assistant discovery failed")


def on_disabled(link: Link, plugins: list[str]) -> None:
    """Remove the panel from Home Assistant, before the connection closes."""
    with _lock:
        announcer = _announcers.pop(link, None)
    announcer = announcer or Announcer(link.settings, HaDevice(name="", model=""), plugins)
    try:
        link.client.message_callback_remove(ha_status_topic(link.settings))
        if announcer.forget(link.client, FORGET_WAIT):
            logger.info("mqtt: Home Assistant discovery cleared")
        else:
            logger.warning("mqtt: the broker did not take the cleared discovery configs in "
                           "time; Home Assistant may keep the panel")
    except Exception:
        logger.exception("mqtt: clearing Home Assistant discovery failed")
