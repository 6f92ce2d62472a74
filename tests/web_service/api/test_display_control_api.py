"""POST /display/next, GET|POST /display/power and the status's reason, with the real daemons."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import requests

from shared.bus import core as keys
from tests.daemons import Instance, running
from tests.display_service.helpers import wait_until
from tests.display_service.test_daemon import add_plugin
from web_service.access import scopes

pytestmark = pytest.mark.timeout(120)


def make_instance(base: Path) -> Instance:
    instance = Instance(base)
    add_plugin(instance.plugins_dir, "alpha", "AlphaPlugin", ["alpha_one", "alpha_two"])
    add_plugin(instance.plugins_dir, "beta", "BetaPlugin", ["beta_main"])
    instance.write_config({"alpha": {"enabled": True}, "beta": {"enabled": True},
                           "display_durations": {"alpha": 600, "beta": 600}})
    return instance


def status(url: str) -> dict[str, Any]:
    answer = requests.get(f"{url}/api/v3/system/status", timeout=10)
    assert answer.status_code == 200, answer.text
    return answer.json()["data"]


def post(url: str, path: str, body: Any = None) -> requests.Response:
    return requests.post(f"{url}/api/v3/display/{path}", json=body, timeout=10)


def history_whats(url: str) -> list[str]:
    answer = requests.get(f"{url}/api/v3/history", params={"limit": 200}, timeout=10)
    return [entry["what"] for entry in answer.json()["data"]["entries"]]


def test_next_power_and_the_reason_through_the_api(tmp_path: Path) -> None:
    with running(make_instance(tmp_path)) as (display, _web, url):
        first = wait_until(lambda: status(url)["display"]["plugin_id"] and status(url), 15)
        assert first["reason"] == "rotation: slot 1 of 3"
        answer = post(url, "next")
        assert answer.status_code == 200, answer.text + display.output()
        data = answer.json()["data"]
        assert (data["state"], data["plugin_id"], data["mode"]) == ("done", "alpha", "alpha_two")
        assert data["reason"] == "rotation: slot 2 of 3"
        assert status(url)["display"]["mode"] == "alpha_two"

        answer = post(url, "power", {"on": False})
        assert answer.status_code == 200, answer.text
        assert answer.json()["data"]["power"] == "off"
        power = requests.get(f"{url}/api/v3/display/power", timeout=10).json()["data"]
        assert power == {"service": "running", "power": "off", "power_cause": "hand",
                         "showing": "off", "reason": "panel off: turned off by hand"}
        assert status(url)["reason"] == "panel off: turned off by hand"
        refused = post(url, "next")
        assert refused.status_code == 409
        assert refused.json()["error_code"] == "DISPLAY_CONTROL_REFUSED"
        assert "off" in refused.json()["message"]

        answer = post(url, "power", {"on": True})
        assert answer.status_code == 200 and answer.json()["data"]["power"] == "on"
        assert status(url)["reason"] == "rotation: slot 2 of 3"
        whats = history_whats(url)
        for what in ("display.next", "display.power off", "display.power on"):
            assert what in whats, whats


def test_the_status_reason_says_the_display_is_not_running(tmp_path: Path) -> None:
    with running(make_instance(tmp_path)) as (display, _web, url):
        wait_until(lambda: status(url)["reason"].startswith("rotation"), 15)
        assert display.stop() == 0
        stopped = wait_until(lambda: status(url)["display"]["service"] == "stopped"
                             and status(url), 10)
        assert stopped["reason"].startswith("display service not running (stopped at ")
        assert stopped["reason"].endswith("nothing drives the panel")
        answer = post(url, "next")  # queued for the next start, said so
        assert answer.status_code == 202
        assert answer.json()["data"]["state"] == "requested"


@pytest.mark.parametrize(("body", "field"), [
    ({}, "on"), ({"on": None}, "on"), ({"on": "maybe"}, "on"), ({"on": 1}, "on")])
def test_a_bad_power_body_answers_400_and_queues_nothing(web: Any, body: Any,
                                                         field: str) -> None:
    answer = web.client.post("/api/v3/display/power", json=body)
    assert answer.status_code == 400
    assert answer.get_json()["error_code"] == "INVALID_FIELD"
    assert answer.get_json()["details"]["field"] == field
    assert web.bus.pending(keys.DISPLAY_CONTROL) == []


def test_malformed_json_answers_400(web: Any) -> None:
    for path in ("next", "power"):
        answer = web.client.post(f"/api/v3/display/{path}", data="{nope",
                                 content_type="application/json")
        assert answer.status_code == 400
        assert answer.get_json()["error_code"] == "INVALID_JSON"
    assert web.bus.pending(keys.DISPLAY_CONTROL) == []


def test_a_form_body_turns_the_panel_off(web: Any) -> None:
    answer = web.client.post("/api/v3/display/power", data={"on": "off"})
    assert answer.status_code == 202  # no display runs in this test: queued
    [request] = web.bus.pending(keys.DISPLAY_CONTROL)
    assert (request["action"], request["on"], request["source"]) == ("power", False, "http")


def test_a_control_token_may_skip_and_switch_the_panel() -> None:
    assert scopes.needed("POST", "/api/v3/display/next") == "control"
    assert scopes.needed("POST", "/api/v3/display/power") == "control"
