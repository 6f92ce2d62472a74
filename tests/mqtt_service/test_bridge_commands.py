"""Each command topic's effect, through the real broker, bridge and display."""

from __future__ import annotations

import json
from typing import Any

import pytest

from shared.bus import core as keys
from shared.history import HistoryReader, history_dir
from tests.display_service.helpers import wait_until
from tests.mqtt_service.conftest import Panel
from tests.system.test_no_lost_changes import state, stored

pytestmark = [pytest.mark.timeout(120), pytest.mark.daemons]


def _queued(panel: Panel, key: str) -> list[dict[str, Any]]:
    return panel.bus().pending(key)


def _error(panel: Panel, command: str) -> dict[str, Any]:
    return panel.watcher.wait_json(panel.topic("error"), lambda e: e["command"] == command)


def test_brightness_is_saved_like_the_web_saves_it_and_reaches_the_panel(panel: Panel) -> None:
    mark = panel.watcher.mark()
    panel.watcher.publish(panel.topic("brightness/set"), "37")
    wait_until(lambda: stored(panel.instance).get("brightness") == 37, timeout=10)
    assert stored(panel.instance)["display"]["hardware"]["brightness"] == 37  # one setting
    # the display is told on the bus, as after a web save
    wait_until(lambda: "brightness" in (panel.bus().read(keys.CONFIG_CHANGED) or {})
               .get("sections", []), timeout=10)
    wait_until(lambda: state(panel.instance).get("brightness") == 37, timeout=10)
    panel.watcher.wait_json(panel.topic("state"), lambda s: s["brightness"] == 37, since=mark)
    # the save took a backup, as every save through the store does
    assert any((panel.instance.config_dir / "backups").iterdir())


def test_plugin_set_starts_it_on_demand_and_stop_ends_it(panel: Panel) -> None:
    panel.watcher.publish(panel.topic("plugin/set"), "still")
    wait_until(lambda: state(panel.instance).get("showing") == "on_demand", timeout=10)
    panel.watcher.wait_json(panel.topic("state"), lambda s: s["on_demand"] is True)
    mark = panel.watcher.mark()
    panel.watcher.publish(panel.topic("on_demand/set"), "stop")
    wait_until(lambda: state(panel.instance).get("showing") == "rotation", timeout=10)
    panel.watcher.wait_json(panel.topic("state"), lambda s: s["on_demand"] is False
                            and s["plugin_id"] == "still", since=mark)


def test_on_demand_json_passes_mode_and_duration(panel: Panel) -> None:
    panel.watcher.publish(panel.topic("on_demand/set"),
                          json.dumps({"plugin_id": "still", "mode": "still", "duration": 30}))
    shown = wait_until(lambda: (s := state(panel.instance)).get("showing") == "on_demand"
                       and s, timeout=10)
    assert shown["on_demand"]["mode"] == "still"
    assert shown["on_demand"]["ends_at"] is not None


@pytest.mark.parametrize(("suffix", "payload", "command", "words"), [
    ("brightness/set", "bright", "brightness", "brightness takes a number"),
    ("brightness/set", "101", "brightness", "0 to 100"),
    ("power/set", "maybe", "power", "ON or OFF"),
    ("plugin/set", "nope", "plugin", "not an enabled plugin"),
    ("plugin/set", "../x", "plugin", "must be a plugin id"),
    ("on_demand/set", "{not json", "on_demand", "not valid JSON"),
    ("on_demand/set", '{"plugin_id": "still", "duration": -1}', "on_demand", "duration"),
    ("on_demand/set", '{"plugin_id": "still", "color": 1}', "on_demand", "no field 'color'"),
    ("brightness/set", b"\xff\xfe", "brightness", "not UTF-8"),
])
def test_a_bad_payload_is_an_error_message_and_a_log_line_never_a_crash(
        panel: Panel, suffix: str, payload: str | bytes, command: str, words: str) -> None:
    panel.watcher.publish(panel.topic(suffix), payload)
    error = _error(panel, command)
    assert words in error["error"] and error["topic"] == panel.topic(suffix)
    assert not any(retain for topic, _, retain in panel.watcher.messages
                   if topic == panel.topic("error"))
    wait_until(lambda: words in panel.bridge.output(), timeout=5)
    assert panel.bridge.process.poll() is None and "Traceback" not in panel.bridge.output()
    entries = HistoryReader(history_dir(panel.instance.cache_dir)).entries(limit=5)[0]
    assert entries[0]["what"] == command and entries[0]["result"] == "error"


def test_power_off_and_on_by_hand_reach_the_panel_and_the_state(panel: Panel) -> None:
    panel.watcher.publish(panel.topic("power/set"), "OFF")
    wait_until(lambda: state(panel.instance).get("power") == "off", timeout=10)
    off = panel.watcher.wait_json(panel.topic("state"), lambda s: s["power"] == "OFF"
                                  and "by hand" in s["showing"])
    assert off["plugin_id"] is None and off["reason"]
    mark = panel.watcher.mark()
    panel.watcher.publish(panel.topic("power/set"), "on")
    wait_until(lambda: state(panel.instance).get("power") == "on", timeout=10)
    panel.watcher.wait_json(panel.topic("state"), lambda s: s["power"] == "ON"
                            and s["plugin_id"] == "still", since=mark)


def _answered(panel: Panel, action: str) -> list[dict[str, Any]]:
    requests = state(panel.instance).get("requests") or {}
    return [r for r in requests.values() if isinstance(r, dict) and r.get("action") == action]


def test_next_is_a_control_request_the_display_answers(panel: Panel) -> None:
    panel.watcher.publish(panel.topic("next/set"), "PRESS")
    found = wait_until(lambda: _answered(panel, "next"), timeout=10)
    assert found[0]["state"] in ("done", "error")
    assert _queued(panel, keys.DISPLAY_CONTROL) == []


def _history_has(panel: Panel, what: str) -> bool:
    entries = HistoryReader(history_dir(panel.instance.cache_dir)).entries(limit=10)[0]
    return any(e["what"] == what and e["result"] == "success" for e in entries)


def test_every_command_taken_is_in_the_history(panel: Panel) -> None:
    panel.watcher.publish(panel.topic("brightness/set"), "41")
    wait_until(lambda: _history_has(panel, "brightness"), timeout=10)
    entry = HistoryReader(history_dir(panel.instance.cache_dir)).entries(limit=1)[0][0]
    assert entry["source"] == "mqtt" and entry["topic"] == panel.topic("brightness/set")
    assert entry["detail"] == "brightness 41"


def test_restart_without_a_supervisor_says_so(panel: Panel) -> None:
    panel.watcher.publish(panel.topic("restart/set"), "PRESS")
    assert "nothing supervises" in _error(panel, "restart")["error"]


def _notifications(panel: Panel) -> list[dict[str, Any]]:
    record = panel.bus().read(keys.NOTIFICATIONS) or {}
    queue = record.get("queue")
    return queue if isinstance(queue, list) else []


def test_a_plain_text_notify_shows_as_a_notification_from_mqtt(panel: Panel) -> None:
    panel.watcher.publish(panel.topic("notify"), "Someone is at the door")
    shown = wait_until(lambda: [n for n in _notifications(panel)
                                if n.get("text") == "Someone is at the door"], timeout=10)
    assert shown[0]["source"] == "mqtt"
    wait_until(lambda: _history_has(panel, "notify"), timeout=10)


def test_a_json_notify_carries_its_fields_and_interrupts_now(panel: Panel) -> None:
    body = {"text": "Door unlocked", "priority": "critical", "behavior": "now",
            "icon": "door", "duration": 30}
    panel.watcher.publish(panel.topic("notify"), json.dumps(body))
    shown = wait_until(lambda: [n for n in _notifications(panel)
                                if n.get("text") == "Door unlocked"
                                and n.get("state") == "showing"], timeout=10)
    assert shown[0]["priority"] == "critical" and shown[0]["behavior"] == "now"


@pytest.mark.parametrize(("payload", "words"), [
    ('{"text": "x", "sound": "ding"}', "sound"),
    ('{"priority": "high"}', "text"),
    ('{"text": "x", "priority": "urgent"}', "priority"),
    ('{"text": "x", "icon": "doorbell"}', "'doorbell' is neither a built-in icon"),
    ("{broken", "not valid JSON"),
])
def test_a_bad_notify_body_names_its_field_on_the_error_topic(panel: Panel, payload: str,
                                                               words: str) -> None:
    panel.watcher.publish(panel.topic("notify"), payload)
    assert words in _error(panel, "notify")["error"]
    assert _notifications(panel) == []


def test_a_flood_of_commands_is_bounded_and_answered_not_a_crash(panel: Panel) -> None:
    for _ in range(80):
        panel.watcher.client.publish(panel.topic("next/set"), "PRESS", qos=0)
    error = _error(panel, "next")
    assert "too many commands" in error["error"]
    assert panel.bridge.process.poll() is None
    taken = HistoryReader(history_dir(panel.instance.cache_dir)).entries(limit=200)[0]
    assert 0 < sum(e["what"] == "next" and e["result"] == "success" for e in taken) < 80


def _custom_apps(panel: Panel) -> list[dict[str, Any]]:
    record = panel.bus().read(keys.CUSTOM_APPS) or {}
    apps = record.get("apps")
    return apps if isinstance(apps, list) else []


def test_a_custom_app_is_set_and_an_empty_payload_removes_it(panel: Panel) -> None:
    panel.watcher.publish(panel.topic("custom/weather"),
                          json.dumps({"text": "21 C", "duration": 5}))
    wait_until(lambda: _history_has(panel, "custom"), timeout=10)
    request = panel.bus().pending(keys.CUSTOM_APP_REQUEST)
    assert request and request[0]["action"] == "set" and request[0]["name"] == "weather"
    assert request[0]["source"] == "mqtt" and request[0]["app"]["text"] == "21 C"
    panel.watcher.publish(panel.topic("custom/weather"), b"")
    wait_until(lambda: len(panel.bus().pending(keys.CUSTOM_APP_REQUEST)) == 2, timeout=10)
    assert panel.bus().pending(keys.CUSTOM_APP_REQUEST)[1]["action"] == "remove"


@pytest.mark.parametrize(("suffix", "payload", "words"), [
    ("custom/weather", '{"text": "x", "colour": "red"}', "colour"),
    ("custom/Bad Name", '{"text": "x"}', "not allowed"),
    ("custom/weather", "[1]", "JSON object"),
    ("custom/weather", '{"text": "x", "duration": -5}', "duration"),
    ("custom/weather", '{"text": "x", "icon": "sun"}', "'sun' is neither a built-in icon"),
])
def test_a_bad_custom_app_is_refused_naming_the_problem(panel: Panel, suffix: str,
                                                         payload: str, words: str) -> None:
    panel.watcher.publish(panel.topic(suffix), payload)
    assert words in _error(panel, "custom")["error"]
    assert panel.bus().pending(keys.CUSTOM_APP_REQUEST) == []


def test_a_custom_app_pushed_over_mqtt_is_held_by_the_display_and_removed(
        tmp_path, mqtt_broker) -> None:  # type: ignore[no-untyped-def]
    """End to end: the bundled custom-apps plugin installed and enabled in the panel."""
    import shutil

    from tests.daemons import ROOT, start_display, start_mqtt
    from tests.mqtt_client import Watcher
    from tests.mqtt_service.conftest import BASE, mqtt_section, set_mqtt, wait_mqtt_state
    from tests.system.test_no_lost_changes import make_instance, running_state

    instance = make_instance(tmp_path / "panel")
    shutil.copytree(ROOT / "plugin-repos" / "custom-apps", instance.plugins_dir / "custom-apps")
    path = instance.config_dir / "config.json"
    config = json.loads(path.read_text())
    config["custom-apps"] = {"enabled": True}
    path.write_text(json.dumps(config))
    set_mqtt(instance, mqtt_section(mqtt_broker))
    display, bridge = start_display(instance), start_mqtt(instance)
    watcher = Watcher(mqtt_broker.host, mqtt_broker.port, f"{BASE}/#")
    try:
        running_state(instance, display)
        wait_mqtt_state(instance, lambda s: s == "connected")
        panel = Panel(instance, display, bridge, watcher, mqtt_broker)
        watcher.publish(f"{BASE}/custom/weather", json.dumps({"text": "21 C", "duration": 5}))
        held = wait_until(lambda: [a for a in _custom_apps(panel)
                                   if a.get("name") == "weather"], timeout=15)
        assert held[0]["source"] == "mqtt" and held[0]["mode"] == "custom-weather"
        watcher.publish(f"{BASE}/custom/weather", b"")
        wait_until(lambda: not [a for a in _custom_apps(panel)
                                if a.get("name") == "weather"], timeout=15)
        assert not watcher.payloads(f"{BASE}/error")
    finally:
        watcher.close()
        bridge.stop()
        display.stop()
