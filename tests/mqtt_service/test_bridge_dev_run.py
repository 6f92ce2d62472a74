"""The bridge under scripts/dev (the real supervisor, display, web and bridge, a real broker):
the web's MQTT routes see the bridge, and <base>/restart/set restarts the display."""

from __future__ import annotations

from pathlib import Path

import pytest
import requests

from tests.daemons import Instance
from tests.dev_run import dev_run, plain_config, wait_for
from tests.mqtt_broker import Broker
from tests.mqtt_client import Watcher

pytestmark = [pytest.mark.daemons, pytest.mark.timeout(180)]
BASE = "ledpanel/devrun"


def test_a_broker_set_in_the_web_connects_and_restart_set_restarts_the_display(
        tmp_path: Path, mqtt_broker: Broker) -> None:
    instance = Instance(tmp_path / "panel")
    plain_config(instance)
    with dev_run(instance) as run:
        first = wait_for(lambda: (s := run.status()) and s["display"]["service"] == "running"
                         and s, "the display running")
        mqtt = f"{run.url}/api/v3/mqtt"
        assert requests.get(mqtt, timeout=10).json()["data"]["state"] == "disabled"
        saved = requests.post(mqtt, json={"enabled": True, "host": mqtt_broker.host,
                                          "port": mqtt_broker.port, "base_topic": BASE},
                              timeout=10)
        assert saved.status_code == 200, saved.text
        wait_for(lambda: requests.get(mqtt, timeout=10).json()["data"]["state"] ==
                 "connected", "the bridge connected")
        watcher = Watcher(mqtt_broker.host, mqtt_broker.port, f"{BASE}/#")
        try:
            assert watcher.wait_for(f"{BASE}/availability") == b"online"
            watcher.publish(f"{BASE}/restart/set", "PRESS")
            wait_for(lambda: (s := run.status()) and s["display"]["service"] == "running"
                     and s["display"]["pid"] != first["display"]["pid"], "a new display")
            assert not watcher.payloads(f"{BASE}/error")
        finally:
            watcher.close()
        assert "ledpanel: display restarted on request" in run.lines
