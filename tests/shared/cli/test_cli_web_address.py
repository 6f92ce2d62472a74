"""How the ``ledpanel`` command finds the web daemon it talks to (the address the running
daemon published, then ``--url``, the environment, the config), and a reader going away."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from shared.bus import core as keys
from shared.bus.core import Bus
from shared.bus.daemon_lock import WEB, DaemonLock
from shared.cli import main
from tests.daemons import ROOT, Instance, start_web
from tests.shared.cli.stub_web import StubWeb, closed_port_url, envelope


def _publish_web(bus: Path, host: str, port: int) -> DaemonLock:
    lock = DaemonLock.acquire(bus, WEB)
    Bus(bus).publish(keys.WEB_STATE, {"service": "running", "pid": os.getpid(),
                                      "host": host, "port": port})
    return lock


@pytest.mark.parametrize("host", ["127.0.0.1", "0.0.0.0"])
def test_commands_find_the_web_where_the_running_daemon_says_it_listens(
    tmp_path: Path, stub_web: StubWeb, capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch, host: str
) -> None:
    # The config and the environment name another port, as after `scripts/dev --port N`.
    monkeypatch.setenv("LEDPANEL_WEB_PORT", str(int(closed_port_url().rsplit(":", 1)[1])))
    stub_web.routes[("POST", "/api/v3/display/on-demand/stop")] = (
        200, envelope({"state": "stopped"}))
    lock = _publish_web(tmp_path, host, int(stub_web.url.rsplit(":", 1)[1]))
    try:
        assert main(["on-demand", "stop", "--cache-dir", str(tmp_path)]) == 0
        monkeypatch.setenv("LEDPANEL_CACHE_DIR", str(tmp_path))  # as the units set it
        assert main(["on-demand", "stop"]) == 0
    finally:
        lock.release()
    assert [r[:2] for r in stub_web.requests] == [
        ("POST", "/api/v3/display/on-demand/stop")] * 2


def test_a_record_left_by_a_stopped_web_is_not_believed(
    tmp_path: Path, stub_web: StubWeb, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LEDPANEL_WEB_URL", stub_web.url)
    stub_web.routes[("POST", "/api/v3/display/on-demand/stop")] = (
        200, envelope({"state": "stopped"}))
    _publish_web(tmp_path, "127.0.0.1", int(closed_port_url().rsplit(":", 1)[1])).release()
    assert main(["on-demand", "stop", "--cache-dir", str(tmp_path)]) == 0
    assert len(stub_web.requests) == 1  # the environment's address, not the stale record


def test_url_flag_beats_the_published_address(
    tmp_path: Path, stub_web: StubWeb, capsys: pytest.CaptureFixture[str]
) -> None:
    lock = _publish_web(tmp_path, "127.0.0.1", int(stub_web.url.rsplit(":", 1)[1]))
    try:
        code = main(["on-demand", "stop", "--url", closed_port_url(),
                     "--cache-dir", str(tmp_path)])
    finally:
        lock.release()
    assert code == 1 and stub_web.requests == []
    assert "cannot reach the web service" in capsys.readouterr().err


@pytest.mark.parametrize("record", [
    {"service": "running", "host": "127.0.0.1", "port": 99999},
    {"service": "running", "host": "127.0.0.1", "port": True},
    {"service": "running", "host": ["x"], "port": 80},
    {"service": "stopped", "host": "127.0.0.1", "port": 80},
    "garbage",
])
def test_a_hostile_web_record_falls_back_to_the_configured_address(
    tmp_path: Path, stub_web: StubWeb, monkeypatch: pytest.MonkeyPatch, record: Any
) -> None:
    monkeypatch.setenv("LEDPANEL_WEB_URL", stub_web.url)
    stub_web.routes[("POST", "/api/v3/display/on-demand/stop")] = (
        200, envelope({"state": "stopped"}))
    lock = DaemonLock.acquire(tmp_path, WEB)
    try:
        if isinstance(record, dict):
            record = {**record, "pid": os.getpid()}
        Bus(tmp_path).publish(keys.WEB_STATE, record)
        assert main(["on-demand", "stop", "--cache-dir", str(tmp_path)]) == 0
    finally:
        lock.release()
    assert len(stub_web.requests) == 1


def test_status_finds_a_real_web_daemon_started_on_another_port(tmp_path: Path) -> None:
    instance = Instance(tmp_path)
    instance.write_config({})
    web, url = start_web(instance)  # listens on a port nothing else names
    env = {k: v for k, v in os.environ.items()
           if k not in ("LEDPANEL_WEB_URL", "LEDPANEL_WEB_PORT")}
    try:
        done = subprocess.run(
            [sys.executable, "-m", "shared.cli", "status", "--json"], cwd=ROOT, text=True,
            env={**env, "LEDPANEL_CACHE_DIR": str(instance.cache_dir)},
            capture_output=True, timeout=60)
    finally:
        web.stop()
    report = json.loads(done.stdout)
    assert report["source"] == "web" and report["url"] == url, done.stderr
    assert report["web"]["service"] == "running"


def test_a_reader_that_goes_away_gets_no_traceback(tmp_path: Path) -> None:
    process = subprocess.Popen(
        [sys.executable, "-m", "shared.cli", "status", "--url", closed_port_url(),
         "--cache-dir", str(tmp_path)], cwd=ROOT, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE)
    assert process.stdout is not None and process.stderr is not None
    process.stdout.close()  # as `ledpanel status | head -0` does
    err = process.stderr.read().decode()
    assert process.wait(60) == 1
    assert "Traceback" not in err and "Exception ignored" not in err
