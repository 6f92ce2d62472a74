"""The Home Assistant story in a real browser: a user enters the broker in the MQTT tab
and the panel appears in Home Assistant's discovery with every entity; switching MQTT
off in the same tab removes it. Real web daemon and bridge, a real mosquitto, and a
client standing in for Home Assistant on ``homeassistant/#``."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser.test_web_ui_shell import Watch, open_tab
from tests.daemons import Instance, start_mqtt, start_web
from tests.display_service.helpers import wait_until
from tests.mqtt_broker import Broker
from tests.mqtt_service.ha_watch import Client, ha_watcher, latest, parsed
from tests.system.test_no_lost_changes import make_instance

pytestmark = [pytest.mark.timeout(240), pytest.mark.daemons]

NODE = "home_hall"
ENTITIES = {f"homeassistant/light/{NODE}/light/config",
            f"homeassistant/select/{NODE}/plugin/config",
            f"homeassistant/button/{NODE}/next/config",
            f"homeassistant/button/{NODE}/restart_display/config",
            f"homeassistant/sensor/{NODE}/showing/config",
            f"homeassistant/sensor/{NODE}/plugin_errors/config",
            f"homeassistant/sensor/{NODE}/temperature/config",
            f"homeassistant/notify/{NODE}/notify/config"}


@pytest.fixture
def served(tmp_path: Path, mqtt_broker: Broker) -> Iterator[tuple[str, Instance]]:
    instance = make_instance(tmp_path / "instance")  # the plugin "still" enabled
    web, url = start_web(instance)
    bridge = start_mqtt(instance)
    try:
        yield url, instance
    finally:
        bridge.stop()
        web.stop()


def _configs(watcher: Any) -> dict[str, Any]:
    return parsed((topic, p) for topic, p in latest(watcher).items() if p)


def test_the_panel_appears_in_home_assistant_and_leaves_from_the_mqtt_tab(
        page: Any, served: Any, mqtt_broker: Broker, shoot: Any) -> None:
    url, _instance = served
    watch = Watch(page)
    home_assistant = ha_watcher(mqtt_broker)
    try:
        page.goto(url)
        tab = open_tab(page, "mqtt")
        tab.locator("[data-mqtt-state]").filter(has_text="disabled").wait_for()
        tab.locator('[data-mqtt-field="host"]').fill(mqtt_broker.host)
        tab.locator('[data-mqtt-field="port"]').fill(str(mqtt_broker.port))
        tab.locator('[data-mqtt-field="base_topic"]').fill("home/hall")
        tab.locator('[data-mqtt-field="enabled"]').check()
        tab.locator("[data-mqtt-save]").click()
        tab.locator("[data-mqtt-state]").filter(has_text="connected").wait_for(timeout=20_000)

        configs = wait_until(lambda: set(c := _configs(home_assistant)) == ENTITIES and c,
                             timeout=20)
        light = configs[f"homeassistant/light/{NODE}/light/config"]
        assert light["command_topic"] == "home/hall/power/set"
        assert light["device"]["identifiers"] == [NODE]
        assert configs[f"homeassistant/select/{NODE}/plugin/config"]["options"] == ["still"]
        shoot(page, "connected")

        tab.locator('[data-mqtt-field="enabled"]').uncheck()
        tab.locator("[data-mqtt-save]").click()
        tab.locator("[data-mqtt-state]").filter(has_text="disabled").wait_for(timeout=20_000)
        wait_until(lambda: _configs(home_assistant) == {}, timeout=20)
    finally:
        home_assistant.close()
    late = Client(mqtt_broker)  # Home Assistant restarting finds nothing retained
    try:
        assert late.retained() == {}
    finally:
        late.close()
    assert watch.problems == []
