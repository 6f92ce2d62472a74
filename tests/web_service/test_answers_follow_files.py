"""Answers kept between requests follow their files: the next request after a change
says what the files say now.

The status and the sign-in check reuse what they read while its file is unchanged. A
file is trusted unchanged only once it has settled (``RACY_WINDOW_NS``); these tests
shorten that window so every answer below is served from a warm cache, and check that
a change on disk still shows at once.
"""

from __future__ import annotations

import json
import time
from typing import Any

import pytest

from shared.bus import core as keys
from shared.sign_in.store import CredentialStore

WINDOW_NS = 50_000_000  # 50 ms: long past any timestamp tick, short for a test
SETTLE = 0.08


@pytest.fixture(autouse=True)
def short_window(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("shared.files.file_key.RACY_WINDOW_NS", WINDOW_NS)


def _status(web: Any) -> dict[str, Any]:
    answer = web.client.get("/api/v3/system/status")
    assert answer.status_code == 200, answer.get_data(as_text=True)
    return answer.get_json()["data"]


def _warm_status(web: Any) -> dict[str, Any]:
    """Let the files settle and ask twice, so the second answer comes from the cache."""
    time.sleep(SETTLE)
    _status(web)
    return _status(web)


def test_status_shows_a_new_display_state_at_once(web):
    web.start_display(plugin_id="clock", mode="clock", showing="rotation")
    assert _warm_status(web)["display"]["plugin_id"] == "clock"
    web.publish_state(plugin_id="ticker", mode="ticker", showing="rotation")
    display = _status(web)["display"]
    assert (display["plugin_id"], display["summary"]) == ("ticker", "showing ticker / ticker")


def test_status_shows_new_plugin_errors_and_safe_mode_at_once(web):
    web.start_display(plugin_id="clock", mode="clock", showing="rotation")
    web.bus.publish(keys.PLUGIN_ERRORS, {})
    web.bus.publish(keys.PLUGIN_SAFE_MODE, {"plugins": {}})
    warm = _warm_status(web)["display"]
    assert warm["plugin_errors"] == {} and warm["safe_mode"] == []
    web.bus.publish(keys.PLUGIN_ERRORS, {"clock": {"count": 2, "last_error": "boom",
                                                   "where": "display", "at": time.time()}})
    web.bus.publish(keys.PLUGIN_SAFE_MODE, {"plugins": {"ticker": {
        "reason": "hung", "where": "display", "since": time.time()}}})
    display = _status(web)["display"]
    assert display["plugin_errors"]["clock"]["count"] == 2
    assert [entry["plugin_id"] for entry in display["safe_mode"]] == ["ticker"]


def test_status_shows_a_changed_hardware_record_at_once(web):
    web.start_display(plugin_id="clock", mode="clock", showing="rotation")
    assert _warm_status(web)["hardware"]["restart_required"] is False
    record = web.bus.read(keys.HARDWARE_STATUS)
    record["settings"]["display"]["hardware"]["rows"] = 64  # a display started on 64 rows
    web.bus.publish(keys.HARDWARE_STATUS, record)
    hardware = _status(web)["hardware"]
    assert hardware["restart_required"] is True and hardware["restart_settings"]


def test_status_says_not_running_as_soon_as_the_display_lock_is_gone(web):
    web.start_display(plugin_id="clock", mode="clock", showing="rotation")
    assert _warm_status(web)["display"]["service"] == "running"
    web.stop_display()  # killed: the state file still says running
    display = _status(web)["display"]
    assert display["service"] == "not_running" and display["plugin_id"] is None


def test_status_reports_a_config_file_broken_and_repaired_by_hand(web):
    assert _warm_status(web)["config"]["ok"] is True
    good = web.paths.config_file.read_text()
    web.paths.config_file.write_text("{ not json")
    config = _status(web)["config"]
    assert config["ok"] is False and config["problems"][0]["error_code"] == "CONFIG_INVALID_JSON"
    web.paths.config_file.write_text(good)
    assert _status(web)["config"]["ok"] is True


def test_status_reports_a_secrets_file_broken_after_a_good_read(web):
    web.paths.secrets_file.write_text("{}")
    assert _warm_status(web)["config"]["ok"] is True
    web.paths.secrets_file.write_text("[1, 2]")
    problems = _status(web)["config"]["problems"]
    assert [p["source"] for p in problems] == ["file"]


def test_status_keeps_counting_the_web_uptime(web):
    first = _warm_status(web)["web"]["uptime_seconds"]
    time.sleep(0.25)
    # Both are rounded to tenths: compare tenths, not floats (0.1 + 0.2 > 0.3).
    assert round(_status(web)["web"]["uptime_seconds"] - first, 1) >= 0.2


def _enable_sign_in_by_hand(web: Any) -> None:
    config = json.loads(web.paths.config_file.read_text())
    config.setdefault("web", {})["sign_in"] = {"enabled": True}
    web.paths.config_file.write_text(json.dumps(config))


def _warm_get(web: Any, path: str = "/api/v3/config/main") -> int:
    time.sleep(SETTLE)
    web.client.get(path)
    return web.client.get(path).status_code


def test_sign_in_switched_on_by_hand_refuses_the_next_request(web):
    CredentialStore(web.paths).set_password("correct horse battery")
    assert _warm_get(web) == 200  # a password, but sign-in is off
    _enable_sign_in_by_hand(web)
    assert web.client.get("/api/v3/config/main").status_code == 401


def test_a_password_set_from_a_shell_puts_sign_in_in_force_at_once(web):
    _enable_sign_in_by_hand(web)
    CredentialStore(web.paths).create_token("script", "admin")  # a sign-in file, no password
    CredentialStore(web.paths).revoke_token(CredentialStore(web.paths).tokens()[0]["id"])
    assert _warm_get(web) == 200  # on, but nobody could sign in: not in force
    CredentialStore(web.paths).set_password("correct horse battery")
    assert web.client.get("/api/v3/config/main").status_code == 401


def _installed(web: Any) -> dict[str, dict[str, Any]]:
    records = web.client.get("/api/v3/plugins/installed").get_json()["data"]
    return {record["id"]: record for record in records}


def test_plugin_list_follows_a_config_edit_and_a_manifest_edit(web):
    before = _installed(web)
    assert before["clock"]["enabled"] is False
    config = json.loads(web.paths.config_file.read_text())
    config["clock"] = {"enabled": True}
    web.paths.config_file.write_text(json.dumps(config))  # by hand: no save route
    after = _installed(web)
    assert after["clock"]["enabled"] is True and after["ticker"] == before["ticker"]
    manifest = web.paths.plugins_dir() / "ticker" / "manifest.json"
    data = json.loads(manifest.read_text())
    manifest.write_text(json.dumps({**data, "name": "Stock Ticker"}))
    assert _installed(web)["ticker"]["name"] == "Stock Ticker"
