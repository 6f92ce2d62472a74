"""Health, status and the error envelope."""

from __future__ import annotations

import time

from shared import bus as keys
from shared.version import CORE_VERSION


def test_health_answers_with_version(web):
    response = web.client.get("/api/v3/health")
    assert response.status_code == 200
    assert response.get_json()["data"] == {"status": "ok", "version": CORE_VERSION}


def test_status_reports_display_not_running_without_heartbeat(web):
    data = web.client.get("/api/v3/system/status").get_json()["data"]
    assert data["version"] == "3.8.0"
    assert data["display"]["service"] == "not_running"
    assert data["display"]["on_demand"] == {"state": "idle"}
    assert data["hardware"] is None
    assert set(data["host"]) == {"uptime_seconds", "load", "memory", "cpu_temperature_c"}


def test_status_reads_the_display_heartbeat_fresh_from_the_bus(web):
    web.bus.publish(keys.HARDWARE_STATUS, {"ok": False, "cause": "forced", "backend": "headless"})
    web.bus.publish(keys.DISPLAY_STATE, {"updated_at": time.time(), "plugin_id": "clock",
                                         "mode": "clock", "on_demand": {"state": "idle"},
                                         "config_problem": "config.json: line 3 column 1"})
    first = web.client.get("/api/v3/system/status").get_json()["data"]
    assert first["display"]["service"] == "running"
    assert first["display"]["plugin_id"] == "clock"
    assert first["hardware"]["cause"] == "forced"
    assert first["display"]["config_problem"] == "config.json: line 3 column 1"
    web.bus.publish(keys.DISPLAY_STATE, {"updated_at": time.time(), "plugin_id": "ticker",
                                         "mode": "ticker"})
    second = web.client.get("/api/v3/system/status").get_json()["data"]
    assert second["display"]["plugin_id"] == "ticker"


def test_stale_heartbeat_means_not_running(web):
    web.bus.publish(keys.DISPLAY_STATE, {"updated_at": time.time() - 60, "plugin_id": "clock"})
    data = web.client.get("/api/v3/system/status").get_json()["data"]
    assert data["display"]["service"] == "not_running"


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
    assert b"ledpanel" in response.data and b"status.js" in response.data
