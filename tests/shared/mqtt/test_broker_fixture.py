"""The tests' broker is a real mosquitto: messages pass, users are checked, it restarts."""

from __future__ import annotations

import queue
from pathlib import Path

import paho.mqtt.client as mqtt

from tests.mqtt_broker import Broker


def _client(broker: Broker, user: str | None = None, password: str | None = None
            ) -> tuple[mqtt.Client, queue.Queue[object]]:
    events: queue.Queue[object] = queue.Queue()
    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2)
    if user:
        client.username_pw_set(user, password)
    client.on_connect = lambda c, u, flags, reason, props: events.put(("connect", reason.value))
    client.on_message = lambda c, u, msg: events.put((msg.topic, msg.payload, msg.retain))
    client.connect(broker.host, broker.port)
    client.loop_start()
    return client, events


def test_a_retained_message_reaches_a_later_subscriber(mqtt_broker: Broker) -> None:
    pub, pub_events = _client(mqtt_broker)
    assert pub_events.get(timeout=10) == ("connect", 0)
    pub.publish("t/state", b"on", qos=1, retain=True).wait_for_publish(10)
    sub, events = _client(mqtt_broker)
    assert events.get(timeout=10) == ("connect", 0)
    sub.subscribe("t/#", qos=1)
    assert events.get(timeout=10) == ("t/state", b"on", True)
    for client in (pub, sub):
        client.loop_stop()
        client.disconnect()


def test_users_are_checked(tmp_path: Path) -> None:
    broker = Broker(tmp_path / "b", users={"panel": "secret"}).start()
    try:
        good, events = _client(broker, "panel", "secret")
        assert events.get(timeout=10) == ("connect", 0)
        bad, bad_events = _client(broker, "panel", "wrong")
        kind, code = bad_events.get(timeout=10)  # type: ignore[misc]
        assert kind == "connect" and code != 0
        for client in (good, bad):
            client.loop_stop()
            client.disconnect()
    finally:
        broker.stop()


def test_a_restart_comes_back_on_the_same_port(mqtt_broker: Broker) -> None:
    port = mqtt_broker.port
    mqtt_broker.stop()
    mqtt_broker.start()
    assert mqtt_broker.port == port
    client, events = _client(mqtt_broker)
    assert events.get(timeout=10) == ("connect", 0)
    client.loop_stop()
    client.disconnect()
