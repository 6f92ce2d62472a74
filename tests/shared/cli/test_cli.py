"""The ``ledpanel`` command against real files, a real bus directory and a local HTTP server."""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from shared.bus import core as keys
from shared.bus.core import Bus
from shared.bus.daemon_lock import DISPLAY, DaemonLock
from shared.cli import main
from tests.shared.cli.stub_web import StubWeb, closed_port_url, envelope

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
        {"display": {"double_sided": False}, PLUGIN_ID: {"enabled": True, "interval": 10,
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
    # At the comma, whatever Python version parses it (3.11 and 3.13 place it apart).
    assert out.startswith("config.json: line 3, column 21:")
    assert "trailing comma before the end of the object" in out


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



@pytest.fixture
def running_display(tmp_path: Path) -> Iterator[Bus]:
    """Hold the display lock in ``tmp_path`` as a running display daemon would."""
    lock = DaemonLock.acquire(tmp_path, DISPLAY)
    yield Bus(tmp_path)
    lock.release()


def _running_state(**fields: Any) -> dict[str, Any]:
    return {"service": "running", "pid": os.getpid(), "on_demand": {"state": "idle"}, **fields}


def test_status_falls_back_to_the_bus_when_the_web_is_unreachable(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], running_display: Bus
) -> None:
    now = time.time()
    running_display.publish(keys.DISPLAY_STATE, _running_state(
        started_at=now - 3700, plugin_id="clock", mode="analog", showing="rotation",
        power="on", brightness=80, fps=30, reason="rotation: slot 2 of 5"))
    running_display.publish(keys.HARDWARE_STATUS, {
        "ok": False, "backend": "headless", "cause": "settings",
        "error": "rows 7 is not supported", "hint": "use 16, 32 or 64",
    })
    code = main(["status", "--url", closed_port_url(), "--cache-dir", str(tmp_path)])
    out = capsys.readouterr().out
    assert code == 3  # the web service is down
    assert "not running (cannot reach the web service" in out and "read the bus in" in out
    assert f"display service:   running (pid {os.getpid()}, up 1h 01m)" in out
    assert "panel:             showing clock / analog" in out
    assert "why:               rotation: slot 2 of 5" in out
    assert "no panel output: panel settings refused: rows 7 is not supported" in out


def test_status_json_has_one_shape_with_the_web_up_or_down(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], running_display: Bus,
    stub_web: StubWeb
) -> None:
    running_display.publish(keys.DISPLAY_STATE, _running_state(
        plugin_id="clock", mode="clock", showing="rotation", power="on"))
    code = main(["status", "--json", "--url", closed_port_url(), "--cache-dir", str(tmp_path)])
    down = json.loads(capsys.readouterr().out)
    assert code == 3 and down["source"] == "bus" and down["web"]["service"] == "not_running"
    assert down["display"]["plugin_id"] == "clock" and down["hardware"] is None
    stub_web.routes[("GET", "/api/v3/system/status")] = (200, envelope({
        **{k: v for k, v in down.items() if k not in ("source", "url", "cache_dir")},
        "web": {"service": "running", "uptime_seconds": 3}}))
    code = main(["status", "--json", "--url", stub_web.url])
    up = json.loads(capsys.readouterr().out)
    assert code == 0 and up["source"] == "web"
    shared_keys = {"source", "url", "version", "display", "hardware", "config", "web", "host"}
    assert shared_keys <= set(up) and shared_keys <= set(down)
    assert up["display"] == down["display"]


def test_status_without_the_display_lock_says_not_running_and_nothing_stale(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    Bus(tmp_path).publish(keys.DISPLAY_STATE, _running_state(
        plugin_id="clock", mode="clock", showing="rotation", fps=30.0,
        reason="rotation: slot 1 of 1"))  # left by a crash
    code = main(["status", "--url", closed_port_url(), "--cache-dir", str(tmp_path)])
    out = capsys.readouterr().out
    assert code == 3
    assert "display service:   not running" in out and "panel:             not running" in out
    assert "why:               display service not running: nothing drives the panel" in out
    assert "clock" not in out and "30.0" not in out and "slot" not in out


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
        "display": {"service": "running", "pid": 42, "plugin_id": "clock", "mode": "digital",
                    "summary": "showing clock / digital (on-demand)",
                    "on_demand": {"state": "active", "plugin_id": "clock", "mode": "digital",
                                  "pinned": True},
                    "brightness": 70, "fps": 29.5, "started_at": now},
        "hardware": {"ok": True, "backend": "headless", "summary": "headless 128x32 (no panel "
                     "attached; rendering into memory)",
                     "privileges": {"dropped": False, "user": "root", "summary": "user "
                                    "'ledpanel' does not exist, so plugins run as root"}},
        "config": {"ok": False, "problems": [{"message": "config.json changed but was not "
                                                         "applied: brightness: too high"}]},
        "web": {"service": "running", "uptime_seconds": 125},
        "host": {"load": [0.1, 0.2, 0.3], "memory": {"used_percent": 41.0},
                 "cpu_temperature_c": None},
    }))
    assert main(["status", "--url", stub_web.url]) == 0
    out = capsys.readouterr().out
    assert "ledpanel 3.8.0" in out and "running (up 2m 05s)" in out
    assert "panel:             showing clock / digital (on-demand)" in out
    assert "on-demand:         active: clock / digital (pinned)" in out
    assert "hardware:          headless 128x32 (no panel attached" in out
    assert "                   user 'ledpanel' does not exist, so plugins run as root" in out
    assert "config:            1 problem(s)" in out and "brightness: too high" in out
    assert "load 0.1 0.2 0.3, memory 41.0% used" in out


def test_status_exits_3_when_the_display_is_down_behind_a_running_web(
    stub_web: StubWeb, capsys: pytest.CaptureFixture[str]
) -> None:
    stub_web.routes[("GET", "/api/v3/system/status")] = (200, envelope({
        "version": "3.8.0", "display": {"service": "not_running", "summary": "not running"},
        "hardware": None, "config": {"ok": True, "problems": []},
        "web": {"service": "running", "uptime_seconds": 1}, "host": {}}))
    assert main(["status", "--url", stub_web.url]) == 3
    assert "panel:             not running" in capsys.readouterr().out


def test_status_follows_the_web_port_in_the_config(
    tmp_path: Path, stub_web: StubWeb, capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("LEDPANEL_WEB_URL", raising=False)
    monkeypatch.delenv("LEDPANEL_WEB_PORT", raising=False)
    port = int(stub_web.url.rsplit(":", 1)[1])
    (tmp_path / "config.json").write_text(json.dumps({"web": {"port": port}}))
    stub_web.routes[("POST", "/api/v3/display/on-demand/stop")] = (
        200, envelope({"state": "stopped"}))
    assert main(["on-demand", "stop", "--config-dir", str(tmp_path)]) == 0
    assert stub_web.requests[-1][:2] == ("POST", "/api/v3/display/on-demand/stop")


@pytest.mark.parametrize(("argv", "env", "words"), [
    (["status", "--url", "ftp://x"], {}, "argument --url: must be the web service's address"),
    (["status", "--url", "http://h:99999"], {}, "argument --url"),
    (["status"], {"LEDPANEL_WEB_URL": "localhost"}, "LEDPANEL_WEB_URL: must be"),
    (["status"], {"LEDPANEL_WEB_PORT": "70000"}, "LEDPANEL_WEB_PORT: must be a port number"),
    (["on-demand", "start", "x", "--duration", "-3"], {}, "argument --duration: must be a "
                                                          "positive number"),
])
def test_bad_flags_and_variables_are_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, argv: list[str],
    env: dict[str, str], words: str
) -> None:
    for name in ("LEDPANEL_WEB_URL", "LEDPANEL_WEB_PORT"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert words in err and err.count("\n") == 1 and "Traceback" not in err


def test_usage_errors_return_2_without_traceback(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["on-demand", "start"]) == 2
    assert "Traceback" not in capsys.readouterr().err


@pytest.mark.parametrize(("plugin_system", "problem"), [
    ("x", "config.json: plugin_system: must be an object (got 'x')"),
    ([1], "config.json: plugin_system: must be an object (got an array)"),
    ({"plugins_directory": 5}, "config.json: plugin_system.plugins_directory: must be text "
                               "(got 5)"),
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
    assert out[0].startswith(f"config.json: {PLUGIN_ID}: ") and "not a valid JSON Schema" in out[0]


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


def test_service_state_is_one_rule_for_the_web_and_the_cli() -> None:
    from shared.bus.display_status import service_state

    assert service_state(None, None) == "not_running"
    assert service_state({"service": "running", "pid": 7}, None) == "not_running"  # crashed
    assert service_state({"service": "stopped"}, None) == "stopped"
    assert service_state({"service": "running", "pid": 7}, 7) == "running"
    assert service_state({"service": "running", "pid": 6}, 7) == "starting"  # an old record
    assert service_state({"service": "running", "pid": "7"}, 7) == "starting"
    assert service_state("garbage", 7) == "starting"


@pytest.mark.parametrize("record", [
    {"on_demand": "x", "started_at": [1], "plugin_id": 5, "showing": "sideways", "fps": "9"},
    {"pid": "me", "service": ["running"]}, {"summary": None, "dimmed": "very"},
])
def test_status_fallback_survives_malformed_records(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], running_display: Bus,
    record: dict[str, Any]
) -> None:
    running_display.publish(keys.DISPLAY_STATE, _running_state(**record))
    running_display.publish(keys.HARDWARE_STATUS, {"ok": True, "effective_size": "big"})
    code = main(["status", "--url", closed_port_url(), "--cache-dir", str(tmp_path)])
    captured = capsys.readouterr()
    assert code == 3 and "Traceback" not in captured.err
    assert "display service:" in captured.out and "panel:" in captured.out
