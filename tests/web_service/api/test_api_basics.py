"""Health, status and the error envelope."""

from __future__ import annotations

import time

from shared.version import CORE_VERSION


def test_health_answers_with_version(web):
    response = web.client.get("/api/v3/health")
    assert response.status_code == 200
    assert response.get_json()["data"] == {"status": "ok", "version": CORE_VERSION}


def test_status_reports_display_not_running_without_its_lock(web):
    data = web.client.get("/api/v3/system/status").get_json()["data"]
    assert data["version"] == "3.8.0"
    assert data["display"]["service"] == "not_running"
    assert data["display"]["summary"] == "not running"
    assert data["display"]["on_demand"] == {"state": "idle"}
    assert data["hardware"] is None
    assert data["config"] == {"ok": True, "file": str(web.paths.config_file), "problems": []}
    assert set(data["host"]) == {"uptime_seconds", "load", "memory", "cpu_temperature_c"}


def test_status_reads_the_display_state_fresh_from_the_bus(web):
    web.start_display(plugin_id="clock", mode="clock", showing="rotation", power="on",
                      dimmed=False, fps=1.0, config_problem="config.json: line 3 column 1")
    first = web.client.get("/api/v3/system/status").get_json()["data"]
    assert first["display"]["service"] == "running"
    assert first["display"]["plugin_id"] == "clock"
    assert first["display"]["summary"] == "showing clock / clock"
    assert first["hardware"]["cause"] == "forced"
    assert first["hardware"]["summary"].startswith("headless")
    assert first["display"]["config_problem"] == "config.json: line 3 column 1"
    assert first["config"]["ok"] is False
    assert first["config"]["problems"][0]["message"] == "config.json: line 3 column 1"
    web.publish_state(plugin_id="ticker", mode="ticker", showing="rotation", dimmed=True)
    second = web.client.get("/api/v3/system/status").get_json()["data"]
    assert second["display"]["plugin_id"] == "ticker"
    assert second["display"]["summary"] == "showing ticker / ticker, dimmed"


def test_a_panel_switched_off_by_the_schedule_is_not_said_to_show_a_plugin(web):
    web.start_display(plugin_id="clock", mode="clock", showing="off", power="off",
                      dimmed=False, fps=0.0)
    display = web.client.get("/api/v3/system/status").get_json()["data"]["display"]
    assert (display["power"], display["showing"]) == ("off", "off")
    assert display["plugin_id"] is None and display["mode"] is None
    assert display["summary"] == "panel off (power schedule)"


def test_a_display_that_is_down_shows_nothing_stale(web):
    web.start_display(plugin_id="clock", mode="clock", showing="rotation", power="on",
                      dimmed=False, fps=30.0, brightness=80)
    web.stop_display()  # killed: its last state stays on the bus
    display = web.client.get("/api/v3/system/status").get_json()["data"]["display"]
    assert display["service"] == "not_running" and display["summary"] == "not running"
    assert all(display[k] is None for k in ("plugin_id", "mode", "showing", "fps", "power",
                                             "brightness", "dimmed", "started_at"))
    web.publish_state(service="stopped", updated_at=time.time())  # a clean stop says so
    display = web.client.get("/api/v3/system/status").get_json()["data"]["display"]
    assert display["service"] == "stopped" and display["summary"].startswith("not running")


def test_unknown_route_answers_json_404(web):
    response = web.client.get("/api/v3/nope")
    assert response.status_code == 404
    body = response.get_json()
    assert body["status"] == "error" and body["error_code"] == "NOT_FOUND"


def test_wrong_method_answers_json_405(web):
    response = web.client.get("/api/v3/display/on-demand/start")
    assert response.status_code == 405
    assert response.get_json()["error_code"] == "METHOD_NOT_ALLOWED"


def test_unexpected_failure_answers_500_without_traceback(web, monkeypatch):
    def explode():
        raise RuntimeError("secret internals")

    monkeypatch.setattr("web_service.api.system.host_metrics", explode)
    response = web.client.get("/api/v3/system/status")
    assert response.status_code == 500
    body = response.get_data(as_text=True)
    assert "secret internals" not in body and "Traceback" not in body
    assert response.get_json()["error_code"] == "INTERNAL_ERROR"


def test_status_page_renders(web):
    response = web.client.get("/")
    assert response.status_code == 200
    assert b"ledpanel" in response.data and b"app.js" in response.data
