"""An instance with the display daemon and the MQTT bridge against a real broker."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from shared.bus import core as keys
from shared.bus.core import Bus
from tests.daemons import Daemon, Instance, start_display, start_mqtt
from tests.display_service.helpers import wait_until
from tests.mqtt_broker import Broker
from tests.mqtt_client import Watcher
from tests.system.test_no_lost_changes import make_instance, running_state

BASE = "ledpanel/test"


def mqtt_section(broker: Broker, **extra: Any) -> dict[str, Any]:
    return {"enabled": True, "host": broker.host, "port": broker.port, "tls": False,
            "base_topic": BASE, "discovery_prefix": "homeassistant", **extra}


def set_mqtt(instance: Instance, section: dict[str, Any],
             secrets: dict[str, Any] | None = None) -> None:
    """Write the mqtt section (and credentials) into the instance's files, as a hand edit."""
    path = instance.config_dir / "config.json"
    config = json.loads(path.read_text())
    config["mqtt"] = section
    if secrets is not None:
        (instance.config_dir / "config_secrets.json").write_text(json.dumps({"mqtt": secrets}))
    path.write_text(json.dumps(config, indent=2))


def mqtt_state(instance: Instance) -> dict[str, Any]:
    return Bus(instance.cache_dir).read(keys.MQTT_STATE) or {}


def wait_mqtt_state(instance: Instance, predicate: Any, timeout: float = 20) -> dict[str, Any]:
    return wait_until(lambda: (s := mqtt_state(instance)) and predicate(str(s.get("state")))
                      and s, timeout=timeout)


@dataclass
class Panel:
    instance: Instance
    display: Daemon
    bridge: Daemon
    watcher: Watcher
    broker: Broker

    def topic(self, suffix: str) -> str:
        return f"{BASE}/{suffix}"

    def bus(self) -> Bus:
        return Bus(self.instance.cache_dir)


@pytest.fixture
def panel(tmp_path: Path, mqtt_broker: Broker) -> Iterator[Panel]:
    """The display and the bridge running, connected, and a test client watching."""
    instance = make_instance(tmp_path / "panel")
    set_mqtt(instance, mqtt_section(mqtt_broker))
    watcher = Watcher(mqtt_broker.host, mqtt_broker.port, f"{BASE}/#")
    display = start_display(instance)
    bridge = start_mqtt(instance)
    try:
        running_state(instance, display)
        wait_mqtt_state(instance, lambda s: s == "connected")
        yield Panel(instance, display, bridge, watcher, mqtt_broker)
    finally:
        watcher.close()
        bridge.stop()
        display.stop()
