"""The notification routes over real HTTP: the web daemon alone for what it decides, and
with the display daemon for the round trip."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import requests

from shared.bus.core import NOTIFICATIONS, NOTIFY_REQUEST, Bus
from shared.history import HistoryReader, history_dir
from tests.daemons import Instance, running, start_web
from tests.display_service.test_daemon import add_plugin

TIMEOUT = 10


@pytest.fixture(scope="module")
def web_only(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Instance, str]]:
    instance = Instance(tmp_path_factory.mktemp("notify-web"))
    instance.write_config({})
    daemon, url = start_web(instance)
    try:
        yield instance, url
    finally:
        daemon.stop()


@pytest.mark.parametrize(("body", "field"), [
    ({}, "text"),
    ({"text": "x", "sound": "ding"}, "sound"),
    ({"text": "x", "colour": "#ffffff"}, "colour"),
    ({"text": "x", "priority": "urgent"}, "priority"),
    ({"text": "x", "icon": {"width": 2, "height": 2, "pixels": []}}, "icon"),
    ([1, 2], None),
])
def test_a_bad_body_is_a_400_naming_the_field(web_only: tuple[Instance, str], body: Any,
                                              field: str | None) -> None:
    instance, url = web_only
    answer = requests.post(f"{url}/api/v3/notify", json=body, timeout=TIMEOUT)
    assert answer.status_code == 400, answer.text
    envelope = answer.json()
    assert envelope["status"] == "error" and envelope["error_code"] == "INVALID_FIELD"
    assert envelope["details"]["field"] == field
    if field:
        assert f"'{field}'" in envelope["message"]
    assert Bus(instance.cache_dir).pending(NOTIFY_REQUEST) == []


def test_not_json_is_a_400(web_only: tuple[Instance, str]) -> None:
    _instance, url = web_only
    answer = requests.post(f"{url}/api/v3/notify", data="{text",
                           headers={"Content-Type": "application/json"}, timeout=TIMEOUT)
    assert answer.status_code == 400 and answer.json()["error_code"] == "INVALID_JSON"


def test_a_good_body_is_queued_with_its_id_and_recorded(web_only: tuple[Instance, str]) -> None:
    instance, url = web_only
    bus = Bus(instance.cache_dir)
    answer = requests.post(f"{url}/api/v3/notify", json={"text": "Hello", "icon": "mail"},
                           timeout=TIMEOUT)
    assert answer.status_code == 202, answer.text
    nid = answer.json()["data"]["id"]
    assert "not running" in answer.json()["message"]
    queued = bus.take_all(NOTIFY_REQUEST)
    assert [(q["action"], q["id"], q["source"]) for q in queued] == [("add", nid, "http")]
    assert queued[0]["notification"]["icon"] == {"kind": "builtin", "name": "mail"}
    entries, _more = HistoryReader(history_dir(instance.cache_dir)).entries(limit=20)
    assert any(e["what"] == "notify.create" and e["result"] == "success" for e in entries)


def test_a_stored_icon_must_exist(web_only: tuple[Instance, str]) -> None:
    instance, url = web_only
    answer = requests.post(f"{url}/api/v3/notify", json={"text": "x", "icon": "doorbell"},
                           timeout=TIMEOUT)
    assert answer.status_code == 400, answer.text
    assert answer.json()["details"]["field"] == "icon"
    assert "'doorbell' is neither a built-in icon (alarm, bell" in answer.json()["message"]
    assert Bus(instance.cache_dir).pending(NOTIFY_REQUEST) == []
    from PIL import Image
    folder = instance.assets_dir / "notify_icons"
    folder.mkdir(parents=True, exist_ok=True)
    Image.new("RGB", (8, 8), (255, 0, 0)).save(folder / "doorbell.png")
    answer = requests.post(f"{url}/api/v3/notify", json={"text": "x", "icon": "doorbell"},
                           timeout=TIMEOUT)
    assert answer.status_code == 202, answer.text
    queued = Bus(instance.cache_dir).take_all(NOTIFY_REQUEST)
    assert queued[-1]["notification"]["icon"] == {"kind": "asset", "name": "doorbell"}


GARBAGE: list[Any] = [
    "not a dict",
    {"queue": "nope", "recent": {"a": 1}},
    {"queue": [None, 5, {"id": "../../x", "state": "showing"}, {"id": "ok1", "state": "gone"},
               {"id": "good", "state": "waiting", "text": 7, "priority": "mega", "color": "red",
                "added_at": "yesterday", "icon": {"kind": "x"},
                "repeat": True}],
     "recent": [{"id": "r1", "state": "shown", "reason": ["x"]}, {"id": "r2"}]},
]


@pytest.mark.parametrize("record", GARBAGE)
def test_garbage_in_the_record_does_not_break_the_list(web_only: tuple[Instance, str],
                                                       record: Any) -> None:
    instance, url = web_only
    bus = Bus(instance.cache_dir)
    if isinstance(record, dict):
        bus.publish(NOTIFICATIONS, record)
    else:
        (instance.cache_dir / "notifications.json").write_text(record)
    answer = requests.get(f"{url}/api/v3/notify", timeout=TIMEOUT)
    assert answer.status_code == 200, answer.text
    data = answer.json()["data"]
    assert set(data["icons"]["builtin"]) >= {"bell", "door"}
    if record is GARBAGE[2]:
        assert [e["id"] for e in data["queue"]] == ["good"]
        good = data["queue"][0]
        assert (good["text"], good["priority"], good["color"], good["added_at"],
                good["icon"], good["repeat"]) == (None, None, None, None, None, None)
        assert [e["id"] for e in data["recent"]] == ["r1"] and data["recent"][0]["reason"] is None
    else:
        assert data["queue"] == [] and data["recent"] == []
    # nothing in that record can be dismissed
    gone = requests.delete(f"{url}/api/v3/notify/ok1", timeout=TIMEOUT)
    assert gone.status_code == 404 and gone.json()["error_code"] == "UNKNOWN_NOTIFICATION"


def test_dismissing_needs_a_listed_id(web_only: tuple[Instance, str]) -> None:
    instance, url = web_only
    bus = Bus(instance.cache_dir)
    bus.publish(NOTIFICATIONS, {"queue": [{"id": "abc", "state": "waiting"}],
                                "recent": [{"id": "old", "state": "expired"}]})
    bad = requests.delete(f"{url}/api/v3/notify/a b!", timeout=TIMEOUT)
    assert bad.status_code == 400 and bad.json()["details"]["field"] == "id"
    old = requests.delete(f"{url}/api/v3/notify/old", timeout=TIMEOUT)
    assert old.status_code == 404 and "already expired" in old.json()["message"]
    ok = requests.delete(f"{url}/api/v3/notify/abc", timeout=TIMEOUT)
    assert ok.status_code == 202
    assert [(q["action"], q["id"]) for q in bus.take_all(NOTIFY_REQUEST)] == [("dismiss", "abc")]


def test_post_list_dismiss_round_trip_with_the_display(tmp_path: Path) -> None:
    instance = Instance(tmp_path)
    add_plugin(instance.plugins_dir, "alpha", "AlphaPlugin", ["alpha_one"])
    instance.write_config({"alpha": {"enabled": True}})
    bus = Bus(instance.cache_dir)
    with running(instance) as (display, _web, url):
        assert bus.wait_for("display_state", lambda s: (s or {}).get("showing") == "rotation",
                            15), display.output()
        posted = requests.post(f"{url}/api/v3/notify", json={
            "text": "Door open", "icon": "door", "behavior": "now", "duration": 60,
            "color": [255, 0, 0]}, timeout=TIMEOUT)
        assert posted.status_code == 202, posted.text
        nid = posted.json()["data"]["id"]
        shown = bus.wait_for("display_state",
                             lambda s: ((s or {}).get("notification") or {}).get("id") == nid, 10)
        assert shown and shown["showing"] == "notification", display.output()
        status = requests.get(f"{url}/api/v3/system/status", timeout=TIMEOUT).json()["data"]
        assert status["display"]["showing"] == "notification"
        assert status["display"]["notification"]["id"] == nid
        assert status["display"]["summary"] == "showing a notification from http: Door open"
        listed = requests.get(f"{url}/api/v3/notify", timeout=TIMEOUT).json()["data"]
        assert listed["service"] == "running"
        assert [(e["id"], e["state"], e["color"]) for e in listed["queue"]] == [
            (nid, "showing", [255, 0, 0])]
        assert listed["queue"][0]["icon"] == {"kind": "builtin", "name": "door"}
        gone = requests.delete(f"{url}/api/v3/notify/{nid}", timeout=TIMEOUT)
        assert gone.status_code == 202, gone.text
        back = bus.wait_for("display_state", lambda s: (s or {}).get("showing") == "rotation", 10)
        assert back and back["plugin_id"] == "alpha"
        listed = requests.get(f"{url}/api/v3/notify", timeout=TIMEOUT).json()["data"]
        assert listed["queue"] == [] and listed["recent"][-1]["state"] == "dismissed"
        history = requests.get(f"{url}/api/v3/history?kind=notify", timeout=TIMEOUT).json()
        whats = [(e["what"], e["notification_id"], e["origin"])
                 for e in history["data"]["entries"]]
        assert ("shown", nid, "http") in whats and ("dismissed", nid, "http") in whats
