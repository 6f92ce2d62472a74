"""/api/v3/custom: bodies checked by name, requests queued for the display, its outcome
as the answer, the list and the plugin's modes from its record, the control scope."""

from __future__ import annotations

import json
import shutil
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from shared.bus import core as keys
from shared.notify.custom_record import summary
from web_service.access import scopes

PLUGIN = Path(__file__).resolve().parents[3] / "plugin-repos" / "custom-apps"


@pytest.fixture
def custom(web: Any) -> Any:
    shutil.copytree(PLUGIN, web.paths.plugins_dir() / "custom-apps",
                    ignore=shutil.ignore_patterns("__pycache__", "tests"))
    return web


def publish_record(web: Any, apps: list[dict[str, Any]],
                   requests: dict[str, Any] | None = None) -> None:
    web.bus.publish(keys.CUSTOM_APPS, {"apps": apps, "requests": requests or {},
                                       "updated_at": time.time()})


def app_summary(name: str, **fields: Any) -> dict[str, Any]:
    app = {"text": name, "color": [1, 2, 3], "duration": 10.0, "frames": [], "frame_ms": 100}
    return summary(name, app, "http", time.time(), fields.get("expires_at"))


@pytest.mark.parametrize(("name", "body", "code", "words"), [
    ("Bad", {"text": "x"}, "INVALID_NAME", "custom app name 'Bad'"),
    ("ok", {"text": "x", "colour": "#fff"}, "INVALID_CUSTOM_APP", "unknown field 'colour'"),
    ("ok", {"text": "x", "lifetime": 0}, "INVALID_CUSTOM_APP", "'lifetime' must be"),
    ("ok", {"frames": [[[0, 0, 0, 0]]]}, "INVALID_CUSTOM_APP", "'frames': frame 0: pixel 0"),
    ("ok", {}, "INVALID_CUSTOM_APP", "'text' is needed"),
    ("ok", {"text": "x", "icon": "sun"}, "INVALID_CUSTOM_APP",
     "'icon' 'sun' is neither a built-in icon"),
])
def test_bad_bodies_answer_400_naming_the_field_and_queue_nothing(
        custom: Any, name: str, body: dict[str, Any], code: str, words: str) -> None:
    response = custom.client.post(f"/api/v3/custom/{name}", json=body)
    assert response.status_code == 400
    answer = response.get_json()
    assert answer["error_code"] == code and words in answer["message"], answer
    assert custom.bus.pending(keys.CUSTOM_APP_REQUEST) == []


def test_a_body_that_is_not_json_answers_400(custom: Any) -> None:
    response = custom.client.post("/api/v3/custom/ok", data="{nope",
                                  content_type="application/json")
    assert response.status_code == 400 and response.get_json()["error_code"] == "INVALID_JSON"
    response = custom.client.post("/api/v3/custom/ok", json=["text"])
    assert response.status_code == 400


def test_without_the_plugin_a_set_is_refused(web: Any) -> None:
    response = web.client.post("/api/v3/custom/ok", json={"text": "x"})
    assert response.status_code == 409 and response.get_json()["error_code"] == "PLUGIN_DISABLED"
    assert web.bus.pending(keys.CUSTOM_APP_REQUEST) == []


def test_without_a_display_the_request_is_queued(custom: Any) -> None:
    response = custom.client.post("/api/v3/custom/door", json={"text": "Open", "lifetime": 60})
    assert response.status_code == 202
    data = response.get_json()["data"]
    assert (data["state"], data["mode"], data["service"]) == ("queued", "custom-door",
                                                             "not_running")
    [request] = custom.bus.pending(keys.CUSTOM_APP_REQUEST)
    assert (request["action"], request["name"], request["source"]) == ("set", "door", "http")
    assert request["app"]["lifetime"] == 60.0 and request["request_id"] == data["request_id"]
    response = custom.client.delete("/api/v3/custom/door")
    assert response.status_code == 202
    assert [r["action"] for r in custom.bus.pending(keys.CUSTOM_APP_REQUEST)] == ["set",
                                                                                "remove"]


def answer_like_the_display(web: Any, outcome: str, problem: str | None = None) -> None:
    """Take the next request and publish its outcome, as the display's plugin does."""
    web.start_display()

    def respond() -> None:
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:
            for request in web.bus.take_all(keys.CUSTOM_APP_REQUEST):
                apps = [app_summary(request["name"])] if outcome == "set" else []
                publish_record(web, apps, {request["request_id"]: {
                    "name": request["name"], "outcome": outcome, "problem": problem}})
                return
            time.sleep(0.01)

    threading.Thread(target=respond, daemon=True).start()


def test_the_displays_outcome_is_the_answer(custom: Any) -> None:
    answer_like_the_display(custom, "set")
    response = custom.client.post("/api/v3/custom/door", json={"text": "Open"})
    assert response.status_code == 200, response.get_json()
    data = response.get_json()["data"]
    assert data["state"] == "set" and data["app"]["mode"] == "custom-door"
    answer_like_the_display(custom, "not_found")
    response = custom.client.delete("/api/v3/custom/gone")
    assert response.status_code == 404
    assert response.get_json()["error_code"] == "UNKNOWN_CUSTOM_APP"
    answer_like_the_display(custom, "refused", "20 custom apps are shown already")
    response = custom.client.post("/api/v3/custom/more", json={"text": "x"})
    assert response.status_code == 409
    assert response.get_json()["message"] == "20 custom apps are shown already"


def test_the_list_and_the_plugins_modes_come_from_the_record(custom: Any) -> None:
    publish_record(custom, [app_summary("b"), app_summary("a"),
                            app_summary("old", expires_at=time.time() - 1),
                            {"name": "../evil", "text": "x"}, "garbage"])
    data = custom.client.get("/api/v3/custom").get_json()["data"]
    assert [a["name"] for a in data["apps"]] == ["a", "b"] and data["plugin_enabled"] is True
    assert data["apps"][0]["color"] == [1, 2, 3] and data["apps"][0]["source"] == "http"
    plugins = custom.client.get("/api/v3/plugins/installed").get_json()["data"]
    listed = plugins["plugins"] if isinstance(plugins, dict) else plugins
    [record] = [p for p in listed if p["id"] == "custom-apps"]
    assert record["display_modes"] == ["custom-a", "custom-b"]
    (custom.paths.cache_dir / "custom_apps.json").write_text("{not json")
    assert custom.client.get("/api/v3/custom").get_json()["data"]["apps"] == []
    plugins = custom.client.get("/api/v3/plugins/installed").get_json()["data"]
    listed = plugins["plugins"] if isinstance(plugins, dict) else plugins
    [record] = [p for p in listed if p["id"] == "custom-apps"]
    assert record["display_modes"] == ["custom-apps"]


def test_each_change_is_in_the_operation_history(custom: Any) -> None:
    custom.client.post("/api/v3/custom/door", json={"text": "Open"})
    custom.client.delete("/api/v3/custom/door")
    custom.client.post("/api/v3/custom/door", json={"text": 5})
    entries = custom.client.get("/api/v3/history?limit=10").get_json()["data"]["entries"]
    seen = [(e["what"], e["result"], e.get("status")) for e in entries]
    assert ("custom.set door", "success", 202) in seen
    assert ("custom.remove door", "success", 202) in seen
    assert ("custom.set door", "error", 400) in seen
    assert "Open" not in json.dumps(entries)


def test_setting_and_removing_needs_the_control_scope() -> None:
    assert scopes.needed("GET", "/api/v3/custom") == "read"
    assert scopes.needed("POST", "/api/v3/custom/door") == "control"
    assert scopes.needed("DELETE", "/api/v3/custom/door") == "control"
    assert scopes.needed("POST", "/api/v3/customize") == "admin"
