"""The errors API and the circuit breaker: real daemons, real bus, real HTTP."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
import requests

from display_service.plugins.breaker import FIRST_REST, OPEN_AFTER
from shared.bus import core as keys
from shared.bus.core import Bus
from tests.daemons import running
from tests.display_service.helpers import wait_until
from tests.web_service.api.test_plugin_errors_api import ERROR, FAILING, make_instance

pytestmark = pytest.mark.timeout(150)


def call(method: str, url: str, path: str, **kwargs: Any) -> tuple[int, dict[str, Any]]:
    response = requests.request(method, f"{url}/api/v3{path}", timeout=15, **kwargs)
    return response.status_code, response.json()


def data(url: str, path: str) -> Any:
    status, body = call("GET", url, path)
    assert status == 200, body
    return body["data"]


def shown(instance_bus: Bus) -> str | None:
    return (instance_bus.read(keys.DISPLAY_STATE) or {}).get("plugin_id")


def test_a_plugin_failing_every_time_is_rested_and_the_good_one_gets_the_panel(
        tmp_path: Path) -> None:
    instance = make_instance(tmp_path, ("failing", FAILING))
    bus = Bus(instance.cache_dir)
    started = time.time()
    with running(instance) as (_display, _web, url):
        wait_until(lambda: data(url, "/errors/summary")["resting"] == ["failing"], timeout=60)
        summary = data(url, "/errors/summary")
        assert summary["service"] == "running" and summary["plugins_failing"] == 1
        record = summary["plugins"]["failing"]
        assert record["count"] == OPEN_AFTER == summary["total_failures"]
        assert record["exception"] == "ValueError" and record["last_error"] == ERROR
        assert record["where"] == "display" and record["phases"] == {"display": OPEN_AFTER}
        assert started - 1 <= record["first_at"] <= record["at"] <= time.time() + 1
        breaker = record["breaker"]
        assert breaker["state"] == "open" and breaker["opened"] == 1
        assert record["at"] < breaker["until"] <= record["at"] + FIRST_REST + 1

        # Rested: display() is not called again, and the good plugin holds the panel (once
        # the display said so: its state may still name the plugin it just gave up on).
        wait_until(lambda: shown(bus) == "still", timeout=10)
        seen = set()
        for _ in range(20):
            seen.add(shown(bus))
            time.sleep(0.2)
        assert seen == {"still"}
        assert data(url, "/errors/plugin/failing")["count"] == OPEN_AFTER

        # Clearing one plugin answers once the display acknowledged; the record is gone.
        status, body = call("POST", url, "/errors/clear", json={"plugin_id": "failing"})
        assert status == 200 and body["data"]["cleared"] is True, body
        # The breaker is reset too: the plugin is tried again at once and fails again.
        wait_until(lambda: data(url, "/errors/plugin/failing")["count"] >= 1, timeout=30)
        again = data(url, "/errors/plugin/failing")
        assert again["first_at"] > record["at"]


def test_one_plugin_unknown_ids_clear_all_and_a_display_that_is_down(tmp_path: Path) -> None:
    instance = make_instance(tmp_path, ("failing", FAILING))
    with running(instance) as (display, _web, url):
        wait_until(lambda: data(url, "/errors/plugin/failing")["count"] >= 1, timeout=30)
        clean = data(url, "/errors/plugin/still")
        assert clean["count"] == 0 and clean["breaker"]["state"] == "closed"
        assert clean["service"] == "running"
        assert data(url, "/errors/plugin/nothing-installed")["count"] == 0

        for bad in ("%2E%2E", ".hidden", "a/b", "a%5Cb"):
            status, body = call("GET", url, f"/errors/plugin/{bad}")
            assert status == 400 and body["error_code"] == "INVALID_PLUGIN_ID", (bad, body)
        for payload, code in (({"plugin_id": "../x"}, "INVALID_PLUGIN_ID"),
                              ({"plugin_id": 5}, "MISSING_PLUGIN_ID")):  # not text: no id
            status, body = call("POST", url, "/errors/clear", json=payload)
            assert status == 400 and body["error_code"] == code, body
        status, body = call("POST", url, "/errors/clear", data="[1]",
                            headers={"Content-Type": "application/json"})
        assert status == 400 and body["error_code"] == "INVALID_JSON"

        status, body = call("POST", url, "/errors/clear")  # no body: every plugin
        assert status == 200 and body["data"] == {
            "plugin_id": None, "request_id": body["data"]["request_id"], "cleared": True}

        display.stop()
        wait_until(lambda: data(url, "/errors/summary")["service"] == "stopped")
        assert data(url, "/errors/summary")["plugins"] == {}
        status, body = call("POST", url, "/errors/clear", json={})
        assert status == 202 and body["data"]["cleared"] is False


def test_a_config_save_for_a_rested_plugin_tries_it_again_at_once(tmp_path: Path) -> None:
    instance = make_instance(tmp_path, ("failing", FAILING))
    with running(instance) as (_display, _web, url):
        wait_until(lambda: data(url, "/errors/summary")["resting"] == ["failing"], timeout=60)
        rested = data(url, "/errors/plugin/failing")
        assert rested["breaker"]["state"] == "open"
        status, body = call("POST", url, "/plugins/config",
                            json={"plugin_id": "failing", "feed": "a fixed address"})
        assert status == 200, body
        # Tried again before its rest would have ended (the fix may have worked).
        wait_until(lambda: data(url, "/errors/plugin/failing")["count"] > OPEN_AFTER,
                   timeout=FIRST_REST / 2)
        again = data(url, "/errors/plugin/failing")
        assert again["at"] < rested["breaker"]["until"]
        assert again["first_at"] == rested["first_at"]  # the record (history) is kept
