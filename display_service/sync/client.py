"""The display's own MQTT connection for sync: paho's network thread, never the loop's.

Made only when the panel is a leader or follower and the MQTT settings are usable. The
network thread (``loop_start``) connects, reconnects and reads; what it receives is
parsed there, kept in a bounded queue and announced through the loop's inbox, which
wakes the render loop as a bus change does. Publishing from the render loop only puts
a packet on paho's queue: it never waits for the socket.

A leader's connection carries a last will (its ``status`` offline, retained), and on
every (re)connection it publishes its status and its latest switch again, retained,
so a follower that connects later learns at once what to show.
"""

from __future__ import annotations

import collections
import logging
import os
import threading
import time
from collections.abc import Callable
from typing import Any

from display_service.sync import messages
from display_service.sync.settings import LEADER, SyncSettings
from display_service.sync.wall import decode_frame

logger = logging.getLogger(__name__)

KEEPALIVE = 2  # seconds: the broker sends the will within 1.5 times this
QUEUE_LIMIT = 256  # received messages waiting for the loop; older ones are dropped
GARBAGE_LOG_EVERY = 10.0  # seconds between log lines about refused messages
CONNECTING, CONNECTED = "connecting", "connected"

Message = messages.Switch | messages.Status


class SyncClient:
    """One paho client: a leader's publisher or a follower's subscriber."""

    def __init__(self, settings: SyncSettings, notify: Callable[[], None]) -> None:
        self.settings = settings
        self.notify = notify
        self.state = CONNECTING
        self.refused = 0  # messages refused since the daemon started
        self._received: collections.deque[Message] = collections.deque(maxlen=QUEUE_LIMIT)
        self._lock = threading.Lock()
        self._retained: dict[str, bytes] = {}  # topic -> payload, republished on connect
        self._garbage_logged = float("-inf")
        self._closing = False
        self.frame: Any = None  # the newest wall frame (``wall.Frame``) received
        self._client = self._make_client()

    # -- the render thread -----------------------------------------------------

    def start(self) -> None:
        mqtt = self.settings.mqtt
        assert mqtt is not None
        self._client.connect_async(mqtt.host, mqtt.port, keepalive=KEEPALIVE)
        self._client.loop_start()

    def take_frame(self) -> Any:
        """Return the newest wall frame received since the last call, if any."""
        with self._lock:
            frame, self.frame = self.frame, None
        return frame

    def take(self) -> list[Message]:
        """Return the messages received since the last call, oldest first."""
        taken: list[Message] = []
        while self._received:
            taken.append(self._received.popleft())  # popleft is atomic
        return taken

    def publish(self, kind: str, payload: bytes) -> None:
        """Publish one of this leader's topics, retained; queued, never waited for.

        QoS 0: while the connection is down nothing piles up; the newest payload of
        each topic is published again once it is back.
        """
        topic = messages.leader_topic(self.settings.group, self.settings.name, kind)
        with self._lock:
            self._retained[topic] = payload
        self._client.publish(topic, payload, qos=0, retain=True)

    def close(self, wait: bool = True, timeout: float = 2.0) -> None:
        """Say offline (a leader), disconnect and end the network thread.

        ``wait=False`` (a config reload: the render loop must not wait for the network)
        leaves the disconnect to a thread of its own; the offline status is queued
        before it either way.
        """
        self._closing = True
        if self.settings.role == LEADER and self.state == CONNECTED:
            info = self._client.publish(self._status_topic(), messages.status_payload(
                False, 0.0, time.time()), qos=1, retain=True)
            try:
                if wait:
                    info.wait_for_publish(timeout)
            except (RuntimeError, ValueError):
                pass  # not connected any more: the will says it
        if wait:
            self._finish()
        else:
            threading.Thread(target=self._finish, name="sync-close", daemon=True).start()

    def _finish(self) -> None:
        self._client.disconnect()
        self._client.loop_stop()

    # -- paho's network thread --------------------------------------------------

    def _make_client(self) -> Any:
        import paho.mqtt.client as paho

        mqtt = self.settings.mqtt
        assert mqtt is not None
        client = paho.Client(paho.CallbackAPIVersion.VERSION2,
                             client_id=f"ledpanel-sync-{self.settings.name}-{os.getpid()}")
        if mqtt.username:
            client.username_pw_set(mqtt.username, mqtt.password or None)
        if mqtt.tls:
            client.tls_set()
        client.reconnect_delay_set(min_delay=1, max_delay=10)
        if self.settings.role == LEADER:
            client.will_set(self._status_topic(), messages.status_payload(False, 0.0, 0.0),
                            qos=1, retain=True)
        client.on_connect = self._on_connect
        client.on_disconnect = self._on_disconnect
        client.on_message = self._on_message
        return client

    def _status_topic(self) -> str:
        return messages.leader_topic(self.settings.group, self.settings.name, messages.STATUS)

    def _on_connect(self, client: Any, _userdata: Any, _flags: Any, reason: Any,
                    _properties: Any) -> None:
        if getattr(reason, "is_failure", False):
            self.state = f"refused by the broker: {reason}"
            logger.warning("sync: the broker refused the connection: %s", reason)
            self.notify()
            return
        self.state = CONNECTED
        mqtt = self.settings.mqtt
        logger.info("sync: connected to %s:%s as %s of group %s",
                    mqtt.host if mqtt else "?", mqtt.port if mqtt else "?",
                    self.settings.role, self.settings.group)
        if self.settings.role == LEADER:
            with self._lock:
                retained = dict(self._retained)
            for topic, payload in retained.items():
                client.publish(topic, payload, qos=1, retain=True)

        else:
            topics = messages.follow_topics(self.settings.group, self.settings.leader,
                                            self.settings.position)
            client.subscribe([(topic, 1) for topic in topics])
        self.notify()

    def _on_disconnect(self, _client: Any, _userdata: Any, _flags: Any, reason: Any,
                       _properties: Any) -> None:
        if self.state == CONNECTED and not self._closing:
            logger.warning("sync: connection to the broker lost (%s); reconnecting", reason)
        self.state = CONNECTING
        self.notify()

    def _on_message(self, _client: Any, _userdata: Any, message: Any) -> None:
        topic, payload = str(message.topic), bytes(message.payload)
        try:
            leader, kind = messages.topic_kind(topic, self.settings.group)
            if kind.startswith("frame-"):
                frame = decode_frame(leader, kind.removeprefix("frame-"), payload)
                with self._lock:
                    self.frame = frame  # a wall's frame: only the newest matters
            else:
                self._received.append(messages.parse(topic, payload, self.settings.group))
        except messages.BadMessage as err:
            self._refused(topic, str(err))
            return
        self.notify()

    def _refused(self, topic: str, why: str) -> None:
        self.refused += 1
        now = time.monotonic()
        if now - self._garbage_logged >= GARBAGE_LOG_EVERY:
            self._garbage_logged = now
            logger.warning("sync: ignored a message on %s: %s (%d ignored so far)",
                           topic[:120], why, self.refused)
