"""The connection against a real broker, in this process: acknowledgement after the bus
write, refusals and unreachable brokers in the connection state."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from mqtt_service.link import Link, StateRecord
from mqtt_service.outbox import Outbox
from shared.bus import core as keys
from shared.bus.core import Bus
from shared.mqtt.settings import MqttSettings
from tests.display_service.helpers import wait_until
from tests.mqtt_broker import Broker, free_port
from tests.mqtt_client import Watcher

pytestmark = [pytest.mark.timeout(60)]
BASE = "ledpanel/linktest"


def _link(tmp_path: Path, settings: MqttSettings, on_command=None) -> tuple[Link, Bus]:  # type: ignore[no-untyped-def]
    bus = Bus(tmp_path / "bus")
    link = Link(settings, StateRecord(bus), Outbox(),
                on_command or (lambda *_args: None), lambda _link: None)
    return link, bus


def _state(bus: Bus) -> str:
    return str((bus.read(keys.MQTT_STATE) or {}).get("state"))


def test_a_command_not_put_on_the_bus_is_not_acknowledged_and_comes_again(
        tmp_path: Path, mqtt_broker: Broker) -> None:
    taken: list[bytes] = []
    attempts: list[bytes] = []
    first = threading.Event()

    def on_command(command: str, _arg: str, payload: bytes, _topic: str) -> None:
        attempts.append(payload)
        if not first.is_set():
            first.set()
            raise OSError("the bus folder is full")  # as a failed bus write raises
        taken.append(payload)

    settings = MqttSettings(enabled=True, host=mqtt_broker.host, port=mqtt_broker.port,
                            base_topic=BASE)
    link, bus = _link(tmp_path, settings, on_command)
    link.start()
    watcher = Watcher(mqtt_broker.host, mqtt_broker.port, "nothing/#")
    try:
        wait_until(lambda: link.subscribed.is_set(), timeout=10)
        watcher.publish(f"{BASE}/next/set", "PRESS", qos=1)
        assert first.wait(10)
        assert taken == []
        # The connection drops (as when the bridge dies): the broker kept the session and
        # the unacknowledged command, and delivers it again after the reconnect.
        sock = link.client.socket()
        assert sock is not None
        sock.close()
        wait_until(lambda: taken == [b"PRESS"], timeout=20)
        assert attempts == [b"PRESS", b"PRESS"]
    finally:
        watcher.close()
        link.stop()


def test_a_wrong_password_is_the_brokers_refusal_in_the_state(tmp_path: Path) -> None:
    broker = Broker(tmp_path / "broker", users={"panel": "right"}).start()
    try:
        settings = MqttSettings(enabled=True, host=broker.host, port=broker.port,
                                username="panel", password="wrong", base_topic=BASE)
        link, bus = _link(tmp_path, settings)
        link.start()
        try:
            state = wait_until(lambda: "refused" in (s := _state(bus)) and s, timeout=15)
            assert "not authori" in state.lower() and f"{broker.port}" in state
            assert not link.connected.is_set()
        finally:
            link.stop()
        good = MqttSettings(enabled=True, host=broker.host, port=broker.port,
                            username="panel", password="right", base_topic=BASE)
        link, bus = _link(tmp_path / "good", good)
        link.start()
        try:
            wait_until(lambda: _state(bus) == "connected", timeout=15)
        finally:
            link.stop()
    finally:
        broker.stop()


def test_an_unreachable_broker_is_said_and_retried(tmp_path: Path) -> None:
    settings = MqttSettings(enabled=True, host="127.0.0.1", port=free_port(), base_topic=BASE)
    link, bus = _link(tmp_path, settings)
    link.start()
    try:
        state = wait_until(lambda: "cannot reach" in (s := _state(bus)) and s, timeout=15)
        assert f"127.0.0.1:{settings.port}" in state
    finally:
        link.stop()
