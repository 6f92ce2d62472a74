"""The MQTT tab in a real browser: the real web daemon and bridge, a real mosquitto."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser.test_web_ui_shell import Watch, open_tab
from tests.daemons import Instance, start_mqtt, start_web
from tests.mqtt_broker import Broker
from tests.mqtt_client import Watcher

pytestmark = [pytest.mark.timeout(240), pytest.mark.daemons]


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[str, Instance, list[Any]]]:
    instance = Instance(tmp_path / "instance")
    web, url = start_web(instance)
    bridge = start_mqtt(instance)
    try:
        yield url, instance, [web, bridge]
    finally:
        bridge.stop()
        web.stop()


def test_set_up_test_and_connect_the_bridge_from_the_tab(
        page: Any, served: Any, shoot: Any, tmp_path: Path) -> None:
    url, instance, daemons = served
    broker = Broker(tmp_path / "broker", users={"panel": "s3cret-pass"}).start()
    try:
        watch = Watch(page)
        page.goto(url)
        tab = open_tab(page, "mqtt")
        state = tab.locator("[data-mqtt-state]")
        state.filter(has_text="disabled").wait_for()

        tab.locator('[data-mqtt-field="host"]').fill(broker.host)
        tab.locator('[data-mqtt-field="port"]').fill(str(broker.port))
        tab.locator('[data-mqtt-field="username"]').fill("panel")
        tab.locator('[data-mqtt-field="password"]').fill("wrong")
        tab.locator('[data-mqtt-field="base_topic"]').fill("home/wall")
        tab.locator("[data-mqtt-test]").click()
        line = tab.locator("[data-mqtt-status]")
        line.filter(has_text="refused the connection").wait_for()
        assert "error" in (line.get_attribute("class") or "")

        tab.locator('[data-mqtt-field="password"]').fill("s3cret-pass")
        tab.locator("[data-mqtt-test]").click()
        line.filter(has_text="connected to the broker").wait_for()

        tab.locator('[data-mqtt-field="enabled"]').check()
        watcher = Watcher(broker.host, broker.port, "home/wall/#", username="panel",
                          password="s3cret-pass")
        try:
            tab.locator("[data-mqtt-save]").click()
            line.filter(has_text="MQTT settings saved").wait_for()
            assert tab.locator('[data-mqtt-field="password"]').input_value() == "********"
            state.filter(has_text="connected").wait_for(timeout=20_000)
            assert watcher.wait_for("home/wall/availability") == b"online"
        finally:
            watcher.close()
        shoot(page, "connected")

        secrets = json.loads((instance.config_dir / "config_secrets.json").read_text())
        assert secrets["mqtt"]["password"] == "s3cret-pass"
        assert "s3cret-pass" not in (instance.config_dir / "config.json").read_text()
        page.reload()
        tab = open_tab(page, "mqtt")
        tab.locator("[data-mqtt-state]").filter(has_text="connected").wait_for()
        assert "s3cret-pass" not in page.content()

        # A refused field is shown under that field; nothing is saved.
        watch.expected_status.add(("/api/v3/mqtt", 400))
        tab.locator('[data-mqtt-field="port"]').fill("70000")
        tab.locator("[data-mqtt-save]").click()
        error = tab.locator('p.error[data-mqtt-error="port"]')
        error.wait_for()
        assert "port" in error.inner_text()
        config = json.loads((instance.config_dir / "config.json").read_text())
        assert config["mqtt"]["port"] == broker.port
        shoot(page, "refused")
        # the browser's own console line for the expected 400, nothing else
        assert [p for p in watch.problems if "status of 400" not in p] == []
        # no log line of either process holds the password
        assert all("s3cret-pass" not in daemon.output() for daemon in daemons)
        history = (instance.cache_dir / "history").glob("*.jsonl")
        assert all("s3cret-pass" not in path.read_text() for path in history)
    finally:
        broker.stop()
