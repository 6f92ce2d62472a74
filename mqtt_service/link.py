"""One connection to the broker: connect, follow its state, publish, take commands.

paho's network thread runs the callbacks. The connection state goes to the bus record
``mqtt_state`` (``state``: ``connecting``, ``connected``, ``disabled`` or a sentence
saying what went wrong; ``since``; ``broker``) whenever it changes. A command is handed
to ``on_command`` and acknowledged (PUBACK) only when that returns: a command the
handler could not put on the bus is left unacknowledged, and the broker, which keeps
the bridge's session, delivers it again after the next connect.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any

import paho.mqtt.client as mqtt

from mqtt_service.outbox import Message, Outbox
from shared.bus import core as keys
from shared.bus.core import Bus
from shared.errors import AtomicWriteError
from shared.mqtt import topics
from shared.mqtt.client_options import KEEPALIVE, make_client
from shared.mqtt.settings import MqttSettings

logger = logging.getLogger(__name__)

CONNECTED, CONNECTING, DISABLED = "connected", "connecting", "disabled"
STOP_WAIT = 2.0  # seconds the ``offline`` message may take on a clean stop

CommandHandler = Callable[[str, str, bytes, str], None]  # command, argument, payload, topic
ConnectedHook = Callable[["Link"], None]
OtherHandler = Callable[[mqtt.Client, str, bytes], object]  # a subscribed non-command topic


class StateRecord:
    """Writes ``mqtt_state`` when the state changes; never raises."""

    def __init__(self, bus: Bus) -> None:
        self.bus = bus
        self._lock = threading.Lock()
        self.state: str | None = None

    def set(self, state: str, broker: str | None) -> None:
        with self._lock:
            if state == self.state:
                return
            self.state = state
            try:
                self.bus.publish(keys.MQTT_STATE, {"state": state, "since": time.time(),
                                                   "broker": broker})
            except AtomicWriteError as err:
                logger.error("mqtt: cannot write the connection state: %s", err)
        logger.info("mqtt: %s%s", state, f" ({broker})" if broker else "")


class Link:
    """A connection to one broker with one set of settings."""

    def __init__(self, settings: MqttSettings, record: StateRecord, outbox: Outbox,
                 on_command: CommandHandler, on_connected: ConnectedHook,
                 on_other: OtherHandler | None = None) -> None:
        self.settings = settings
        self.record = record
        self.outbox = outbox
        self.on_command = on_command
        self.on_connected = on_connected
        self.on_other = on_other
        self.broker = f"{settings.host}:{settings.port}"
        self.connected = threading.Event()
        self.subscribed = threading.Event()  # the broker confirmed the command topics
        self._commands_mid: int | None = None
        self.client = make_client(settings)
        self.client.on_connect = self._on_connect
        self.client.on_connect_fail = self._on_connect_fail
        self.client.on_disconnect = self._on_disconnect
        self.client.on_message = self._on_message
        self.client.on_subscribe = self._on_subscribe

    def start(self) -> None:
        """Begin connecting in the background; paho retries with backoff from then on."""
        self.record.set(CONNECTING, self.broker)
        self.client.connect_async(self.settings.host, self.settings.port, KEEPALIVE)
        self.client.loop_start()

    def stop(self) -> None:
        """Say ``offline`` (when connected), disconnect and end the network thread."""
        if self.connected.is_set():
            info = self.client.publish(self.topic(topics.AVAILABILITY), topics.OFFLINE,
                                       qos=1, retain=True)
            try:
                info.wait_for_publish(STOP_WAIT)
            except (RuntimeError, ValueError):
                pass  # the connection went meanwhile: the last will says it
        self.connected.clear()
        self.client.disconnect()
        self.client.loop_stop()

    def topic(self, suffix: str) -> str:
        return topics.topic(self.settings.base_topic, suffix)

    def publish(self, message: Message) -> None:
        """Publish now when connected; keep it for the next connect either way (retained)
        or while away (the others)."""
        if message.retain or not self.connected.is_set():
            self.outbox.keep(message)
        if self.connected.is_set():
            self._send(message)

    def _send(self, message: Message) -> None:
        info = self.client.publish(message.topic, message.payload, qos=message.qos,
                                   retain=message.retain)
        if info.rc != mqtt.MQTT_ERR_SUCCESS and not message.retain:
            self.outbox.keep(message)  # the connection went just now

    # -- paho's callbacks (its network thread) ------------------------------------

    def _on_connect(self, client: mqtt.Client, _userdata: Any, _flags: Any,
                    reason: Any, _properties: Any) -> None:
        if reason.is_failure:
            self.record.set(f"the broker at {self.broker} refused the connection: {reason}",
                            self.broker)
            return
        self.connected.set()
        self._commands_mid = client.subscribe(topics.subscriptions(self.settings.base_topic))[1]
        client.publish(self.topic(topics.AVAILABILITY), topics.ONLINE, qos=1, retain=True)
        for message in self.outbox.drain():
            self._send(message)
        try:
            self.on_connected(self)
        except Exception:  # a hook must not end the connection
            logger.exception("mqtt: the on-connect hook failed")

    def _on_subscribe(self, _client: mqtt.Client, _userdata: Any, mid: int, _codes: Any,
                      _properties: Any) -> None:
        # "connected" once the command topics are subscribed: a command sent from then on
        # reaches the bridge (later connects find the session's subscriptions in place).
        if mid == self._commands_mid:
            self.subscribed.set()
            self.record.set(CONNECTED, self.broker)

    def _on_connect_fail(self, _client: mqtt.Client, _userdata: Any) -> None:
        self.record.set(f"cannot reach the broker at {self.broker}; trying again", self.broker)

    def _on_disconnect(self, _client: mqtt.Client, _userdata: Any, _flags: Any,
                       reason: Any, _properties: Any) -> None:
        was = self.connected.is_set()
        self.connected.clear()
        if was:
            logger.warning("mqtt: lost the broker at %s (%s); reconnecting", self.broker,
                           reason)
            self.record.set(CONNECTING, self.broker)

    def _on_message(self, client: mqtt.Client, _userdata: Any,
                    message: mqtt.MQTTMessage) -> None:
        found = topics.command_of(self.settings.base_topic, message.topic)
        if found is None:
            if self.on_other is not None:
                try:
                    self.on_other(client, message.topic, bytes(message.payload))
                except Exception:  # another part's message must not end the connection
                    logger.exception("mqtt: handling %s failed", message.topic)
            client.ack(message.mid, message.qos)
            return
        try:
            self.on_command(found[0], found[1], bytes(message.payload), message.topic)
        except (OSError, AtomicWriteError) as err:
            # Not on the bus: leave it unacknowledged, so the broker sends it again.
            logger.error("mqtt: %s not taken, it will come again: %s", message.topic, err)
            return
        client.ack(message.mid, message.qos)
