"""GET|POST /api/v3/mqtt: the settings, the password kept secret, every field checked."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest

from shared.bus import core as keys
from shared.bus.daemon_lock import MQTT, DaemonLock
from shared.mqtt.settings import default_base_topic

FIELDS = {"enabled", "host", "port", "username", "password", "tls", "base_topic",
          "discovery_prefix"}


def _post(web, body: Any, path: str = "/api/v3/mqtt"):  # type: ignore[no-untyped-def]
    return web.client.post(path, json=body)


def test_get_answers_exactly_the_fields_and_the_state(web) -> None:
    data = web.client.get("/api/v3/mqtt").get_json()["data"]
    assert set(data) == FIELDS | {"state"}
    assert data["enabled"] is False and data["state"] == "disabled"
    assert data["base_topic"] == default_base_topic() and data["password"] == ""


def test_a_save_keeps_the_password_in_the_secrets_file_only(web) -> None:
    answer = _post(web, {"enabled": True, "host": "broker.lan", "port": 1884,
                         "username": "panel", "password": "hunter2", "tls": True,
                         "base_topic": "home/wall", "discovery_prefix": "ha"})
    assert answer.status_code == 200, answer.get_json()
    data = answer.get_json()["data"]
    assert data["password"] == "********" and data["username"] == "panel"
    assert (data["host"], data["port"], data["tls"]) == ("broker.lan", 1884, True)
    assert web.secrets()["mqtt"] == {"username": "panel", "password": "hunter2"}
    stored = web.config()["mqtt"]
    assert "password" not in stored and "username" not in stored
    assert stored["base_topic"] == "home/wall" and stored["discovery_prefix"] == "ha"
    for path in ("/api/v3/config/main", "/api/v3/config/raw/main", "/api/v3/mqtt"):
        assert "hunter2" not in web.client.get(path).get_data(as_text=True), path
    # The mask sent back keeps the stored password; a new one replaces it.
    _post(web, {"password": "********", "port": 1885})
    assert web.secrets()["mqtt"]["password"] == "hunter2"
    _post(web, {"password": "new"})
    assert web.secrets()["mqtt"]["password"] == "new"


def test_a_backup_without_secrets_leaves_the_password_out(web) -> None:
    import io
    import zipfile

    _post(web, {"host": "broker.lan", "username": "panel", "password": "hunter2"})
    answer = web.client.get("/api/v3/backup/download?include_secrets=0")
    assert answer.status_code == 200
    with zipfile.ZipFile(io.BytesIO(answer.get_data())) as archive:
        names = archive.namelist()
        assert "config.json" in " ".join(names)
        assert all(b"hunter2" not in archive.read(name) for name in names)


def test_the_password_cannot_be_put_into_config_json_by_the_config_routes(web) -> None:
    answer = web.client.post("/api/v3/config/main", json={"mqtt": {"password": "hunter2"}})
    assert answer.status_code == 400
    raw = json.loads(web.client.get("/api/v3/config/raw/main").get_json()["data"]["content"])
    raw["mqtt"]["password"] = "hunter2"
    answer = web.client.post("/api/v3/config/raw/main", json=raw)
    assert "hunter2" not in web.paths.config_file.read_text()


def test_the_save_is_in_the_history(web) -> None:
    _post(web, {"host": "broker.lan"})
    entries = web.client.get("/api/v3/history?limit=5").get_json()["data"]["entries"]
    assert entries[0]["what"] == "mqtt.post_mqtt" and entries[0]["result"] == "success"


@pytest.mark.parametrize(("body", "field"), [
    ({"enabled": "yes"}, "enabled"),
    ({"tls": 1}, "tls"),
    ({"port": 0}, "port"),
    ({"port": 70000}, "port"),
    ({"port": "1883"}, "port"),
    ({"host": "bad host"}, "host"),
    ({"host": "x" * 300}, "host"),
    ({"username": 5}, "username"),
    ({"password": "p" * 300}, "password"),
    ({"base_topic": "a/+/b"}, "base_topic"),
    ({"base_topic": "/lead"}, "base_topic"),
    ({"discovery_prefix": ""}, "discovery_prefix"),
    ({"discovery_prefix": "$SYS"}, "discovery_prefix"),
    ({"enabled": True, "host": ""}, "host"),
    ({"colour": "red"}, "colour"),
])
def test_each_bad_field_is_refused_naming_it_and_nothing_is_saved(web, body: dict,
                                                                   field: str) -> None:
    before = web.config().get("mqtt")
    answer = _post(web, body)
    assert answer.status_code == 400
    envelope = answer.get_json()
    assert envelope["status"] == "error" and envelope["details"]["field"] == field
    assert field in envelope["message"]
    assert web.config().get("mqtt") == before


def test_a_body_that_is_not_an_object_is_an_error_envelope(web) -> None:
    answer = web.client.post("/api/v3/mqtt", data="[1", content_type="application/json")
    assert answer.status_code == 400 and answer.get_json()["status"] == "error"


def test_the_state_comes_from_the_running_bridge(web) -> None:
    _post(web, {"enabled": True, "host": "broker.lan"})
    assert web.client.get("/api/v3/mqtt").get_json()["data"]["state"] == \
        "the MQTT bridge is not running"
    lock = DaemonLock.acquire(web.paths.cache_dir, MQTT)
    try:
        web.bus.publish(keys.MQTT_STATE, {"state": "connected", "since": 1.0,
                                          "broker": "broker.lan:1883"})
        assert web.client.get("/api/v3/mqtt").get_json()["data"]["state"] == "connected"
        web.bus.publish(keys.MQTT_STATE, {"state": ["junk"]})
        assert web.client.get("/api/v3/mqtt").get_json()["data"]["state"] == "connecting"
    finally:
        lock.release()


@pytest.mark.parametrize("record", [
    {"state": "x" * 5000}, {"state": None}, {"state": 1e308}, {"state": {"a": [1]}},
    {"since": "NaN"}, {},
])
def test_a_hostile_bridge_record_answers_a_short_state(web, record: dict) -> None:
    _post(web, {"enabled": True, "host": "broker.lan"})
    lock = DaemonLock.acquire(web.paths.cache_dir, MQTT)
    try:
        web.bus.publish(keys.MQTT_STATE, record)
        answer = web.client.get("/api/v3/mqtt")
        assert answer.status_code == 200
        state = answer.get_json()["data"]["state"]
        assert isinstance(state, str) and 0 < len(state) <= 300
    finally:
        lock.release()


def test_the_test_route_needs_a_host(web) -> None:
    answer = _post(web, {}, "/api/v3/mqtt/test")
    assert answer.status_code == 400 and answer.get_json()["details"]["field"] == "host"


def test_the_test_route_tries_the_broker_and_says_what_happened(web, mqtt_broker) -> None:
    answer = _post(web, {"host": mqtt_broker.host, "port": mqtt_broker.port},
                   "/api/v3/mqtt/test")
    assert answer.status_code == 200
    body = answer.get_json()
    assert body["data"]["connected"] is True and "connected" in body["message"]
    mqtt_broker.stop()
    answer = _post(web, {"host": mqtt_broker.host, "port": mqtt_broker.port},
                   "/api/v3/mqtt/test")
    body = answer.get_json()
    assert body["data"]["connected"] is False and "connection refused" in body["message"]
    assert web.config()["mqtt"]["host"] == ""  # a test saves nothing


def test_a_wrong_password_is_the_brokers_refusal(web, tmp_path) -> None:
    from tests.mqtt_broker import Broker

    broker = Broker(tmp_path / "auth", users={"panel": "right"}).start()
    try:
        _post(web, {"host": broker.host, "port": broker.port, "username": "panel",
                    "password": "right"})
        assert _post(web, {}, "/api/v3/mqtt/test").get_json()["data"]["connected"] is True
        body = _post(web, {"password": "wrong"}, "/api/v3/mqtt/test").get_json()
        assert body["data"]["connected"] is False
        assert "refused" in body["message"] and "authori" in body["message"].lower()
    finally:
        broker.stop()


def test_the_web_starts_without_loading_paho() -> None:
    code = ("import sys, web_service.app, web_service.api.mqtt; "
            "print(json.dumps(sorted(m for m in sys.modules if m.startswith('paho'))))")
    done = subprocess.run([sys.executable, "-c", "import json; " + code], capture_output=True,
                          text=True, timeout=60, check=True)
    assert json.loads(done.stdout) == []
