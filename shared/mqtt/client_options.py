"""The paho client the bridge connects with, built from the settings.

One place sets every option, so a unit test can read them back: protocol 3.1.1,
manual acknowledgement (a QoS 1 command is acknowledged only once it is on the bus),
the client id from the device name, username and password, TLS with the system's
certificate authorities, the last will (``offline`` on the availability topic,
retained) and the reconnect backoff.
"""

from __future__ import annotations

import ssl

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from shared.mqtt import topics
from shared.mqtt.settings import MqttSettings, device_name, topic_name

KEEPALIVE = 30  # seconds; the broker notices a dead bridge within 1.5 times this
RECONNECT_MIN, RECONNECT_MAX = 1, 30  # seconds, doubling in between


def client_id(base_topic: str | None = None, suffix: str = "") -> str:
    """Return the client id: ``ledpanel-`` and the base topic made one safe level
    (``ledpanel/kitchen`` gives ``ledpanel-kitchen``), plus ``suffix`` (a test connect).

    Named by the base topic, not the host: two panels sharing a host (or a broker, by a
    copied SD card) have different base topics, and a broker drops the older of two
    clients with one id, so they would push each other off without end.
    """
    name = base_topic or f"ledpanel/{device_name()}"
    name = name.removeprefix("ledpanel/")
    return f"ledpanel-{topic_name(name)}{suffix}"


def make_client(settings: MqttSettings, *, identity: str | None = None,
                will: bool = True, persistent: bool = True) -> mqtt.Client:
    """Return a client for ``settings``, not yet connected.

    ``persistent``: the broker keeps the session (subscriptions, unacknowledged
    commands) across reconnects; a one-off test connection asks for a clean one.
    """
    client = mqtt.Client(CallbackAPIVersion.VERSION2,
                         client_id=identity or client_id(settings.base_topic),
                         protocol=mqtt.MQTTv311, clean_session=not persistent,
                         manual_ack=True)
    if settings.username:
        client.username_pw_set(settings.username, settings.password or None)
    if settings.tls:
        client.tls_set(cert_reqs=ssl.CERT_REQUIRED)  # the system's certificate authorities
    if will:
        client.will_set(topics.topic(settings.base_topic, topics.AVAILABILITY),
                        topics.OFFLINE, qos=1, retain=True)
    client.reconnect_delay_set(RECONNECT_MIN, RECONNECT_MAX)
    return client
