"""``python -m mqtt_service.ha_forget``, run as a user would, against a real mosquitto:
the panel's retained discovery configs are cleared, and every failure is one line."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from mqtt_service.discovery import HaDevice, discovery_messages
from shared.history import HistoryReader, history_dir
from shared.mqtt.settings import read_settings
from tests.daemons import Instance
from tests.display_service.helpers import wait_until
from tests.mqtt_broker import Broker
from tests.mqtt_service.conftest import Panel
from tests.mqtt_service.ha_watch import Client
from tests.system.test_no_lost_changes import make_instance

pytestmark = [pytest.mark.timeout(120)]

ROOT = Path(__file__).resolve().parents[2]


def _instance(tmp_path: Path, broker: Broker, **mqtt: Any) -> Instance:
    instance = make_instance(tmp_path / "panel")
    config = json.loads((instance.config_dir / "config.json").read_text())
    config["mqtt"] = {"enabled": False, "host": broker.host, "port": broker.port,
                      "base_topic": "ledpanel/old", **mqtt}
    instance.write_config(config)
    return instance


def _announce(instance: Instance, broker: Broker) -> int:
    """Leave the panel's configs retained on the broker, as a bridge did before."""
    config = json.loads((instance.config_dir / "config.json").read_text())
    settings = read_settings(config, {})
    client = Client(broker)
    try:
        messages = discovery_messages(settings, HaDevice(name="old", model="m"), ["still"])
        for topic, payload in messages:
            client.paho.publish(topic, payload, qos=1, retain=True).wait_for_publish(10)
        assert len(client.retained()) == len(messages)
        return len(messages)
    finally:
        client.close()


def _run(instance: Instance, *extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "mqtt_service.ha_forget", "--config-dir",
         str(instance.config_dir), "--cache-dir", str(instance.cache_dir), *extra],
        cwd=ROOT, capture_output=True, text=True, timeout=60)


def _retained(broker: Broker) -> dict[str, bytes]:
    client = Client(broker)
    try:
        return client.retained()
    finally:
        client.close()


def _history(instance: Instance) -> list[dict[str, Any]]:
    entries, _more = HistoryReader(history_dir(instance.cache_dir)).entries(
        limit=50, kind="mqtt_command")
    return [entry for entry in entries if entry.get("what") == "ha_forget"]


def test_it_clears_every_config_left_on_the_broker(tmp_path: Path,
                                                   mqtt_broker: Broker) -> None:
    instance = _instance(tmp_path, mqtt_broker)
    count = _announce(instance, mqtt_broker)
    done = _run(instance)
    assert done.returncode == 0, done.stderr
    assert f"{count} configs cleared under homeassistant/" in done.stdout
    assert _retained(mqtt_broker) == {}
    assert [e["result"] for e in _history(instance)] == ["success"]


def test_an_unreachable_broker_is_one_line_and_a_failure(tmp_path: Path,
                                                        mqtt_broker: Broker) -> None:
    instance = _instance(tmp_path, mqtt_broker)
    mqtt_broker.stop()
    done = _run(instance, "--timeout", "2")
    assert done.returncode == 1
    assert done.stderr.startswith("the panel was not removed from Home Assistant:")
    assert len(done.stderr.strip().splitlines()) == 1 and "Traceback" not in done.stderr
    assert [e["result"] for e in _history(instance)] == ["error"]


def test_no_broker_host_is_said(tmp_path: Path, mqtt_broker: Broker) -> None:
    instance = _instance(tmp_path, mqtt_broker, host="")
    done = _run(instance)
    assert done.returncode == 1 and "no broker host is set" in done.stderr


@pytest.mark.parametrize("flag", [["--timeout", "0"], ["--timeout", "x"], ["--nope"]])
def test_a_bad_flag_is_one_line(tmp_path: Path, mqtt_broker: Broker, flag: list[str]) -> None:
    instance = _instance(tmp_path, mqtt_broker)
    done = _run(instance, *flag)
    assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1


@pytest.mark.daemons
def test_it_leaves_a_running_bridge_alone(panel: Panel) -> None:
    topic = "homeassistant/light/ledpanel_test/light/config"
    held = wait_until(lambda: _retained(panel.broker).get(topic), timeout=20)
    done = _run(panel.instance)
    assert done.returncode == 1 and "switch MQTT off in the web UI" in done.stderr
    assert _retained(panel.broker)[topic] == held
