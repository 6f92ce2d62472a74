"""scripts/supervise.py: the one-process supervisor behind scripts/dev, run for real."""

from __future__ import annotations

import os
import shlex
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import requests

SUPERVISOR = Path(__file__).resolve().parents[2] / "scripts" / "supervise.py"

CHILD = """
import signal, sys, time
name, behaviour = sys.argv[1], sys.argv[2]
def on_term(signum, frame):
    print(f"{name} got SIGTERM", flush=True)
    if behaviour != "stubborn":
        sys.exit(0)
signal.signal(signal.SIGTERM, on_term)
print(f"{name} ready", flush=True)
if behaviour == "serve":  # answers the health check on LEDPANEL_WEB_PORT, as the web does
    import http.server, os, threading
    class Health(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            self.send_response(200 if self.path == "/api/v3/health" else 404)
            self.end_headers()
        def log_message(self, *args):
            pass
    server = http.server.HTTPServer(("127.0.0.1", int(os.environ["LEDPANEL_WEB_PORT"])), Health)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    print(f"{name} serving", flush=True)
if behaviour.startswith("exit"):
    time.sleep(0.3)
    print(f"{name} failing", flush=True)
    sys.exit(int(behaviour[4:]))
while True:
    time.sleep(0.05)
"""


class Run:
    """The supervisor as a subprocess, its output collected line by line."""

    def __init__(self, tmp_path: Path, display: str, web: str, *extra: str,
                 env: dict[str, str] | None = None, mqtt: bool = False) -> None:
        child = tmp_path / "child.py"
        child.write_text(CHILD)

        def command(name: str, behaviour: str) -> str:
            return shlex.join([sys.executable, str(child), name, behaviour])

        self.lines: list[str] = []
        self.process = subprocess.Popen(
            # Two stand-ins only, unless a test asks for the real MQTT bridge too.
            [sys.executable, str(SUPERVISOR), "--display-cmd", command("display", display),
             "--web-cmd", command("web", web), *(() if mqtt else ("--no-mqtt",)), *extra],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
            # Log files go under the test's own cache folder, never the repository's.
            env={**os.environ, "LEDPANEL_CACHE_DIR": str(tmp_path / "cache"), **(env or {})},
        )
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.append(line.rstrip("\n"))

    def wait_for_line(self, text: str, timeout: float = 10) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if text in self.lines:
                return
            time.sleep(0.02)
        raise AssertionError(f"{text!r} never printed; output: {self.lines}")

    def finish(self, timeout: float = 20) -> int:
        code = self.process.wait(timeout)
        self.reader.join(5)
        return code


@pytest.fixture
def kill_leftovers() -> Iterator[list[Run]]:
    runs: list[Run] = []
    yield runs
    for run in runs:
        if run.process.poll() is None:
            run.process.kill()
            run.process.wait()


def test_logs_of_both_daemons_are_interleaved_with_their_names(
    tmp_path: Path, kill_leftovers: list[Run]
) -> None:
    run = Run(tmp_path, "forever", "forever", env={"LEDPANEL_WEB_PORT": "5123"})
    kill_leftovers.append(run)
    run.wait_for_line("display | display ready")
    run.wait_for_line("web     | web ready")
    run.process.send_signal(signal.SIGINT)
    assert run.finish() == 0
    assert not any("web UI: http" in line for line in run.lines)  # it never answered


def test_the_web_ui_address_is_printed_once_the_web_answers(
    tmp_path: Path, kill_leftovers: list[Run]
) -> None:
    port = free_port()
    run = Run(tmp_path, "forever", "serve", env={"LEDPANEL_WEB_PORT": str(port)})
    kill_leftovers.append(run)
    # The supervisor asks every 0.25 s; a loaded machine may take a while to start both.
    run.wait_for_line(f"ledpanel web UI: http://localhost:{port}", timeout=60)
    assert run.lines.index("web     | web serving") < run.lines.index(
        f"ledpanel web UI: http://localhost:{port}")
    run.process.send_signal(signal.SIGINT)
    assert run.finish() == 0


def test_no_address_is_printed_for_a_web_that_fails_at_start(
    tmp_path: Path, kill_leftovers: list[Run]
) -> None:
    run = Run(tmp_path, "forever", "exit3", env={"LEDPANEL_WEB_PORT": str(free_port())})
    kill_leftovers.append(run)
    assert run.finish() == 3
    assert "web     | web failing" in run.lines
    assert not any("web UI: http" in line for line in run.lines)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_each_daemon_log_is_also_written_to_its_file_under_the_cache_folder(
    tmp_path: Path, kill_leftovers: list[Run]
) -> None:
    logs = tmp_path / "cache" / "logs"
    logs.mkdir(parents=True)
    (logs / "web.log").write_text("from the previous run\n")
    (logs / "web.log.1").write_text("older still\n")
    run = Run(tmp_path, "forever", "forever")
    kill_leftovers.append(run)
    run.wait_for_line("display | display ready")
    run.wait_for_line("web     | web ready")
    run.process.send_signal(signal.SIGTERM)
    assert run.finish() == 0
    assert (logs / "display.log").read_text() == "display ready\ndisplay got SIGTERM\n"
    assert (logs / "web.log").read_text() == "web ready\nweb got SIGTERM\n"
    assert not (logs / "web.log.1").exists()  # a run starts with empty files


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_a_signal_stops_both_daemons_with_sigterm(
    tmp_path: Path, kill_leftovers: list[Run], signum: int
) -> None:
    run = Run(tmp_path, "forever", "forever")
    kill_leftovers.append(run)
    run.wait_for_line("display | display ready")
    run.wait_for_line("web     | web ready")
    run.process.send_signal(signum)
    assert run.finish() == 0
    assert "display | display got SIGTERM" in run.lines
    assert "web     | web got SIGTERM" in run.lines


def test_when_one_daemon_dies_the_other_is_stopped_and_the_exit_is_non_zero(
    tmp_path: Path, kill_leftovers: list[Run]
) -> None:
    run = Run(tmp_path, "forever", "exit3")
    kill_leftovers.append(run)
    assert run.finish() == 3
    assert "ledpanel: web exited with code 3; stopping display" in run.lines
    assert "display | display got SIGTERM" in run.lines
    # The dead daemon's last words come before the supervisor's verdict.
    assert run.lines.index("web     | web failing") < run.lines.index(
        "ledpanel: web exited with code 3; stopping display")


def test_a_daemon_exiting_cleanly_on_its_own_still_fails_the_run(
    tmp_path: Path, kill_leftovers: list[Run]
) -> None:
    run = Run(tmp_path, "exit0", "forever")
    kill_leftovers.append(run)
    assert run.finish() == 1
    assert "ledpanel: display exited with code 0; stopping web" in run.lines


def test_a_daemon_ignoring_sigterm_is_killed_after_the_grace_period(
    tmp_path: Path, kill_leftovers: list[Run]
) -> None:
    run = Run(tmp_path, "stubborn", "forever", "--grace", "0.5")
    kill_leftovers.append(run)
    run.wait_for_line("display | display ready")
    run.wait_for_line("web     | web ready")
    started = time.monotonic()
    run.process.send_signal(signal.SIGTERM)
    assert run.finish() == 0
    assert time.monotonic() - started < 5
    assert "ledpanel: display did not stop within 0.5 s; killing it" in run.lines


def test_a_command_that_cannot_start_is_reported(tmp_path: Path) -> None:
    process = subprocess.run(
        [sys.executable, str(SUPERVISOR), "--display-cmd", str(tmp_path / "missing"),
         "--web-cmd", "true"],
        capture_output=True, text=True, timeout=30,
    )
    assert process.returncode == 1
    assert "ledpanel: cannot start display" in process.stdout


def test_with_preview_the_preview_server_runs_beside_the_daemons_and_stops_with_them(
    tmp_path: Path, kill_leftovers: list[Run]
) -> None:
    plugins = tmp_path / "plugins"
    plugins.mkdir()
    port = free_port()
    run = Run(tmp_path, "forever", "forever", "--preview", "--preview-port", str(port),
              "--plugins-dir", str(plugins), env={"LEDPANEL_WEB_PORT": "5123"})
    kill_leftovers.append(run)
    run.wait_for_line(f"preview | preview: serving http://127.0.0.1:{port}/", timeout=30)
    answer = requests.get(f"http://127.0.0.1:{port}/api/sizes", timeout=10)
    assert [96, 48] in answer.json()["sizes"]
    run.process.send_signal(signal.SIGINT)
    assert run.finish() == 0
    with pytest.raises(requests.ConnectionError):
        requests.get(f"http://127.0.0.1:{port}/api/sizes", timeout=5)


def test_without_preview_no_preview_server_starts(
    tmp_path: Path, kill_leftovers: list[Run]
) -> None:
    run = Run(tmp_path, "forever", "forever", "--preview-cmd", "false",
              env={"LEDPANEL_WEB_PORT": "5123"})
    kill_leftovers.append(run)
    run.wait_for_line("web     | web ready")
    run.process.send_signal(signal.SIGINT)
    assert run.finish() == 0
    assert not any(line.startswith("preview") for line in run.lines)


def test_the_mqtt_bridge_runs_beside_the_daemons_idle_and_stops_with_them(
    tmp_path: Path, kill_leftovers: list[Run]
) -> None:
    config = tmp_path / "config"
    run = Run(tmp_path, "forever", "forever", "--config-dir", str(config),
              env={"LEDPANEL_WEB_PORT": "5123"}, mqtt=True)
    kill_leftovers.append(run)
    run.wait_for_line("web     | web ready")
    deadline = time.monotonic() + 30
    while not any(line.startswith("mqtt    |") and "mqtt: disabled" in line
                  for line in run.lines):
        assert time.monotonic() < deadline, run.lines
        time.sleep(0.02)
    run.process.send_signal(signal.SIGINT)
    assert run.finish() == 0
    assert "mqtt: disabled" in (tmp_path / "cache" / "logs" / "mqtt.log").read_text()
    assert any("ledpanel-mqtt stopped" in line for line in run.lines)
