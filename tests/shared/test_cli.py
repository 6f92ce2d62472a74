"""The ``ledpanel`` command against real files, a real bus directory and a local HTTP server."""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from shared import bus as keys
from shared.bus import Bus
from shared.cli import main

PLUGIN_ID = "cli-test-clock"
SCHEMA = {
    "type": "object",
    "properties": {
        "enabled": {"type": "boolean", "default": True},
        "interval": {"type": "integer", "minimum": 1, "default": 30},
        "api_key": {"type": "string", "x-secret": True},
    },
    "required": ["api_key"],
}


@dataclass
class Dirs:
    config: Path
    plugins: Path

    def write_config(self, config: Any, secrets: Any = None) -> None:
        text = config if isinstance(config, str) else json.dumps(config, indent=2)
        (self.config / "config.json").write_text(text)
        if secrets is not None:
            (self.config / "config_secrets.json").write_text(json.dumps(secrets))

    def validate(self) -> int:
        return main(["config", "validate", "--config-dir", str(self.config),
                     "--plugins-dir", str(self.plugins)])


@pytest.fixture
def dirs(tmp_path: Path) -> Dirs:
    config, plugins = tmp_path / "config", tmp_path / "plugin-repos"
    config.mkdir()
    (plugins / PLUGIN_ID).mkdir(parents=True)
    (plugins / PLUGIN_ID / "config_schema.json").write_text(json.dumps(SCHEMA))
    return Dirs(config, plugins)


def test_validate_accepts_a_valid_config_with_secrets_merged(
    dirs: Dirs, capsys: pytest.CaptureFixture[str]
) -> None:
    dirs.write_config(
        {"display": {"brightness": 80}, PLUGIN_ID: {"enabled": True, "interval": 10,
                                                    "dynamic_duration": True}},
        secrets={PLUGIN_ID: {"api_key": "k"}, "github": {"token": "t"}},
    )
    assert dirs.validate() == 0
    out = capsys.readouterr().out
    assert "valid (1 plugin section(s) checked" in out


def test_validate_reports_each_schema_problem_on_its_own_line(
    dirs: Dirs, capsys: pytest.CaptureFixture[str]
) -> None:
    dirs.write_config({PLUGIN_ID: {"interval": 0, "enabled": "yes"}})
    assert dirs.validate() == 1
    lines = capsys.readouterr().out.strip().splitlines()
    assert any(line.startswith(f"config.json: {PLUGIN_ID}.interval:") for line in lines)
    assert any(line.startswith(f"config.json: {PLUGIN_ID}.enabled:") for line in lines)
    assert any(line.startswith(f"config.json: {PLUGIN_ID}.api_key:") for line in lines)
    assert len(lines) == 3


def test_validate_reports_json_syntax_errors_with_line_and_column(
    dirs: Dirs, capsys: pytest.CaptureFixture[str]
) -> None:
    dirs.write_config('{\n  "display": {\n    "brightness": 80,\n  }\n}\n')
    assert dirs.validate() == 1
    out = capsys.readouterr().out
    assert out.startswith("config.json: line 4, column 3:")


def test_validate_rejects_a_config_that_is_not_an_object(
    dirs: Dirs, capsys: pytest.CaptureFixture[str]
) -> None:
    dirs.write_config("[1, 2]")
    assert dirs.validate() == 1
    assert "must hold a JSON object" in capsys.readouterr().out


def test_validate_skips_sections_of_plugins_that_are_not_installed(
    dirs: Dirs, capsys: pytest.CaptureFixture[str]
) -> None:
    dirs.write_config({"not-installed-plugin": {"anything": 1}})
    assert dirs.validate() == 0
    captured = capsys.readouterr()
    assert "not-installed-plugin: no installed plugin schema" in captured.err


def test_validate_without_config_file_is_a_one_line_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["config", "validate", "--config-dir", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert err.startswith("ledpanel: ") and "Traceback" not in err


def closed_port_url() -> str:
    """Return a loopback URL on which nothing listens."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"http://127.0.0.1:{port}"


def test_status_falls_back_to_the_bus_when_the_web_is_unreachable(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bus = Bus(tmp_path)
    now = time.time()
    bus.publish(keys.DISPLAY_STATE, {
        "pid": 1, "started_at": now - 3700, "updated_at": now, "plugin_id": "clock",
        "mode": "analog", "on_demand": {"state": "idle"}, "brightness": 80, "fps": 30,
    })
    bus.publish(keys.HARDWARE_STATUS, {
        "ok": False, "backend": "headless", "cause": "settings",
        "error": "rows 7 is not supported", "hint": "use 16, 32 or 64",
    })
    code = main(["status", "--url", closed_port_url(), "--cache-dir", str(tmp_path)])
    captured = capsys.readouterr()
    assert code == 0
    assert "reading the bus in" in captured.err and "cannot reach the web service" in captured.err
    assert "running" in captured.out and ", up 1h 01m" in captured.out
    assert "clock / analog" in captured.out
    assert "cause: settings" in captured.out and "rows 7 is not supported" in captured.out


def test_status_json_fallback_prints_the_raw_bus_records(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    Bus(tmp_path).publish(keys.DISPLAY_STATE, {"updated_at": 1.0, "plugin_id": "clock"})
    code = main(["status", "--json", "--url", closed_port_url(), "--cache-dir", str(tmp_path)])
    data = json.loads(capsys.readouterr().out)
    assert code == 0
    assert data["source"] == "bus"
    assert data["display_state"]["plugin_id"] == "clock"
    assert data["hardware_status"] is None


def test_status_with_a_stale_heartbeat_says_not_running(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    Bus(tmp_path).publish(keys.DISPLAY_STATE, {"updated_at": time.time() - 60})
    main(["status", "--url", closed_port_url(), "--cache-dir", str(tmp_path)])
    assert "display service:   not running" in capsys.readouterr().out


@dataclass
class StubWeb:
    """A local HTTP server standing in for the web daemon's API."""

    url: str
    routes: dict[tuple[str, str], tuple[int, dict[str, Any]]] = field(default_factory=dict)
    requests: list[tuple[str, str, Any]] = field(default_factory=list)


@pytest.fixture
def stub_web() -> Iterator[StubWeb]:
    stub = StubWeb(url="")

    class Handler(BaseHTTPRequestHandler):
        def _answer(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length) if length else b""
            stub.requests.append((self.command, self.path, json.loads(raw) if raw else None))
            status, body = stub.routes.get(
                (self.command, self.path),
                (404, {"status": "error", "data": None, "message": "no route",
                       "error_code": "NOT_FOUND"}),
            )
            payload = json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)

        do_GET = do_POST = _answer

        def log_message(self, format: str, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    stub.url = f"http://127.0.0.1:{server.server_address[1]}"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield stub
    server.shutdown()
    server.server_close()


def envelope(data: Any, message: str = "") -> dict[str, Any]:
    return {"status": "success", "data": data, "message": message, "error_code": None}


def test_on_demand_start_posts_the_request_and_prints_the_state(
    stub_web: StubWeb, capsys: pytest.CaptureFixture[str]
) -> None:
    stub_web.routes[("POST", "/api/v3/display/on-demand/start")] = (
        200, envelope({"state": "active", "service": "running"}, "on-demand started"))
    code = main(["on-demand", "start", "clock", "--mode", "analog", "--duration", "30",
                 "--pinned", "--url", stub_web.url])
    assert code == 0
    assert capsys.readouterr().out.strip() == "active (on-demand started)"
    assert stub_web.requests == [("POST", "/api/v3/display/on-demand/start",
                                  {"plugin_id": "clock", "mode": "analog", "duration": 30.0,
                                   "pinned": True})]


def test_on_demand_stop_uses_the_url_from_the_environment(
    stub_web: StubWeb, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LEDPANEL_WEB_URL", stub_web.url)
    stub_web.routes[("POST", "/api/v3/display/on-demand/stop")] = (
        200, envelope({"state": "stopped", "service": "running"}))
    assert main(["on-demand", "stop"]) == 0
    assert capsys.readouterr().out.strip() == "stopped"
    assert [r[:2] for r in stub_web.requests] == [("POST", "/api/v3/display/on-demand/stop")]


def test_on_demand_error_prints_the_server_message_without_traceback(
    stub_web: StubWeb, capsys: pytest.CaptureFixture[str]
) -> None:
    stub_web.routes[("POST", "/api/v3/display/on-demand/start")] = (
        400, {"status": "error", "data": None, "message": "unknown plugin 'nope'",
              "error_code": "UNKNOWN_PLUGIN"})
    assert main(["on-demand", "start", "nope", "--url", stub_web.url]) == 1
    captured = capsys.readouterr()
    assert captured.err.strip() == "ledpanel: unknown plugin 'nope' [UNKNOWN_PLUGIN]"
    assert captured.out == ""


def test_on_demand_with_the_web_down_is_a_one_line_error(
    capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["on-demand", "stop", "--url", closed_port_url()]) == 1
    err = capsys.readouterr().err
    assert err.startswith("ledpanel: cannot reach the web service") and err.count("\n") == 1


def test_status_summarises_the_api_answer(
    stub_web: StubWeb, capsys: pytest.CaptureFixture[str]
) -> None:
    now = time.time()
    stub_web.routes[("GET", "/api/v3/system/status")] = (200, envelope({
        "version": "3.8.0",
        "display": {"service": "running", "plugin_id": "clock", "mode": "digital",
                    "on_demand": {"state": "active", "plugin_id": "clock", "mode": "digital",
                                  "pinned": True},
                    "brightness": 70, "fps": 29.5, "heartbeat_at": now, "started_at": now},
        "hardware": {"ok": True, "backend": "headless"},
        "web": {"uptime_seconds": 125},
        "host": {"load": [0.1, 0.2, 0.3], "memory": {"used_percent": 41.0},
                 "cpu_temperature_c": None},
    }))
    assert main(["status", "--url", stub_web.url]) == 0
    out = capsys.readouterr().out
    assert "ledpanel 3.8.0" in out and "web service up 2m 05s" in out
    assert "on-demand:         active: clock / digital (pinned)" in out
    assert "hardware:          ok (headless)" in out
    assert "load 0.1 0.2 0.3, memory 41.0% used" in out


def test_usage_errors_return_2_without_traceback(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["on-demand", "start"]) == 2
    assert "Traceback" not in capsys.readouterr().err


@pytest.mark.parametrize(("plugin_system", "problem"), [
    ("x", "config.json: plugin_system: must be an object"),
    ([1], "config.json: plugin_system: must be an object"),
    ({"plugins_directory": 5}, "config.json: plugin_system.plugins_directory: must be a string"),
])
def test_validate_reports_a_plugin_system_of_the_wrong_shape_without_traceback(
    dirs: Dirs, capsys: pytest.CaptureFixture[str], plugin_system: Any, problem: str
) -> None:
    dirs.write_config({"plugin_system": plugin_system,
                       PLUGIN_ID: {"interval": 10}}, secrets={PLUGIN_ID: {"api_key": "k"}})
    assert dirs.validate() == 1
    captured = capsys.readouterr()
    assert captured.out.strip().splitlines() == [problem]
    assert "Traceback" not in captured.err


def test_validate_names_a_plugin_whose_schema_is_not_a_json_schema(
    dirs: Dirs, capsys: pytest.CaptureFixture[str]
) -> None:
    broken = {"type": "object", "properties": {"interval": {"type": "integer", "minimum": "x"}}}
    (dirs.plugins / PLUGIN_ID / "config_schema.json").write_text(json.dumps(broken))
    dirs.write_config({PLUGIN_ID: {"interval": 10}})
    assert dirs.validate() == 1
    out = capsys.readouterr().out.strip().splitlines()
    assert len(out) == 1
    assert out[0].startswith(f"{PLUGIN_ID}: ") and "not a valid JSON Schema" in out[0]


def test_validate_leaves_reserved_secrets_sections_out(
    dirs: Dirs, capsys: pytest.CaptureFixture[str]
) -> None:
    (dirs.plugins / "github").mkdir()
    (dirs.plugins / "github" / "config_schema.json").write_text(json.dumps(
        {"type": "object", "properties": {"token": {"type": "integer"}}}))
    dirs.write_config({"github": {"enabled": True}, PLUGIN_ID: {}},
                      secrets={"github": {"token": "core credential"},
                               PLUGIN_ID: {"api_key": "k"}})
    assert dirs.validate() == 0, capsys.readouterr().out


@pytest.mark.parametrize("updated_at", ["yesterday", None, [1], True, "nan", {"t": 1}])
def test_status_fallback_reads_a_malformed_heartbeat_as_not_running(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], updated_at: Any
) -> None:
    Bus(tmp_path).publish(keys.DISPLAY_STATE, {"updated_at": updated_at,
                                               "started_at": "long ago"})
    code = main(["status", "--url", closed_port_url(), "--cache-dir", str(tmp_path)])
    captured = capsys.readouterr()
    assert code == 0
    assert "display service:   not running" in captured.out
    assert "Traceback" not in captured.err


def test_service_state_is_one_rule_for_the_web_and_the_cli() -> None:
    from shared.display_status import service_state

    assert service_state(None, 100.0, 5.0) == "not_running"
    assert service_state({}, 100.0, 5.0) == "not_running"
    assert service_state({"service": "stopped", "updated_at": 100.0}, 100.0, 5.0) == "stopped"
    assert service_state({"updated_at": 96.0}, 100.0, 5.0) == "running"
    assert service_state({"updated_at": 94.0}, 100.0, 5.0) == "not_running"
    assert service_state({"updated_at": "99"}, 100.0, 5.0) == "not_running"
    assert service_state({"updated_at": float("nan")}, 100.0, 5.0) == "not_running"


def test_status_fallback_survives_malformed_records(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bus = Bus(tmp_path)
    bus.publish(keys.DISPLAY_STATE, {"updated_at": time.time(), "on_demand": "x",
                                     "started_at": [1]})
    bus.publish(keys.HARDWARE_STATUS, {"ok": True})
    code = main(["status", "--url", closed_port_url(), "--cache-dir", str(tmp_path)])
    out = capsys.readouterr().out
    assert code == 0
    assert "display service:   running" in out and "on-demand:         idle" in out
