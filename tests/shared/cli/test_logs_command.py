"""``ledpanel logs``: journald's units through journalctl (a recording fake on PATH), and a
dev run's real log files followed as they grow."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.daemons import ROOT
from tests.fake_commands import calls_of, fake_command

JOURNAL_OUTPUT = (
    "Nov 26 16:40:24 pi ledpanel-display[812]: WARNING ledpanel-display: hardware: odd\n"
    "Nov 26 16:40:25 pi ledpanel-web[813]: ERROR ledpanel.web: config: broken\n")


def _env(path: str) -> dict[str, str]:
    env = {**os.environ, "PATH": path, "PYTHONUNBUFFERED": "1"}
    env.pop("LEDPANEL_CACHE_DIR", None)
    return env


def _ledpanel(*args: str, path: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "shared.cli", "logs", *args], cwd=ROOT,
                          env=_env(path), capture_output=True, text=True, timeout=60)



def journal_fake(tmp_path: Path, output: str, exit_code: int = 0) -> Path:
    """Put a recording journalctl first on PATH's folder; return its calls file."""
    fake_command(tmp_path / "bin", "journalctl", output=output, exit_code=exit_code)
    return tmp_path / "bin" / "journalctl.calls"

def test_under_systemd_it_follows_every_unit_through_journalctl(tmp_path: Path) -> None:
    calls = journal_fake(tmp_path, JOURNAL_OUTPUT)
    path = f"{tmp_path / 'bin'}{os.pathsep}{os.environ['PATH']}"
    done = _ledpanel("--cache-dir", str(tmp_path / "cache"), path=path)
    assert done.returncode == 0, done.stderr
    assert done.stdout == JOURNAL_OUTPUT
    assert calls_of(calls) == [["--no-pager", "-n", "50", "-f",
                                "-u", "ledpanel-display.service",
                                "-u", "ledpanel-web.service",
                                "-u", "ledpanel-mqtt.service"]]


def test_the_flags_become_journalctls(tmp_path: Path) -> None:
    calls = journal_fake(tmp_path, "", exit_code=1)
    path = f"{tmp_path / 'bin'}{os.pathsep}{os.environ['PATH']}"
    done = _ledpanel("--cache-dir", str(tmp_path / "cache"), "--lines", "5", "--unit", "web",
                     "--priority", "warning", "--no-follow", path=path)
    assert done.returncode == 1  # journalctl's own status
    assert calls_of(calls) == [["--no-pager", "-n", "5", "-u", "ledpanel-web.service",
                                "-p", "warning"]]
    bad = _ledpanel("--unit", "store", path=path)
    assert bad.returncode == 2 and "invalid choice" in bad.stderr


def test_without_dev_files_or_journalctl_it_says_what_to_do(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    done = _ledpanel("--cache-dir", str(tmp_path / "cache"), path=str(tmp_path / "empty"))
    assert done.returncode == 1
    assert "no journalctl" in done.stderr and "scripts/dev" in done.stderr
    assert "Traceback" not in done.stderr


def _dev_logs(tmp_path: Path) -> Path:
    logs = tmp_path / "cache" / "logs"
    logs.mkdir(parents=True)
    (logs / "display.log").write_text(
        "2026-11-26 16:40:24,001 INFO ledpanel-display: started\n"
        "2026-11-26 16:40:25,001 ERROR display_service.plugins: clock: failed\n"
        "Traceback (most recent call last):\n")
    (logs / "web.log").write_text("2026-11-26 16:40:24,500 WARNING ledpanel.web: slow\n")
    return logs


def test_a_dev_run_prints_its_files_newest_lines_at_a_level(tmp_path: Path) -> None:
    _dev_logs(tmp_path)
    done = _ledpanel("--cache-dir", str(tmp_path / "cache"), "--no-follow", "--priority",
                     "error", path=str(tmp_path))  # no journalctl needed
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "display | 2026-11-26 16:40:25,001 ERROR display_service.plugins: clock: failed",
        "display | Traceback (most recent call last):"]
    done = _ledpanel("--cache-dir", str(tmp_path / "cache"), "--no-follow", "-n", "1",
                     path=str(tmp_path))
    assert done.stdout.splitlines() == [
        "display | Traceback (most recent call last):",
        "web     | 2026-11-26 16:40:24,500 WARNING ledpanel.web: slow"]


def test_a_dev_run_with_the_mqtt_bridge_prints_its_file_too(tmp_path: Path) -> None:
    _dev_logs(tmp_path)
    (tmp_path / "cache" / "logs" / "mqtt.log").write_text(
        "2026-11-26 16:40:26,000 WARNING mqtt_service.link: mqtt: broker refused\n")
    done = _ledpanel("--cache-dir", str(tmp_path / "cache"), "--no-follow", "--priority",
                     "warning", path=str(tmp_path))
    assert done.returncode == 0, done.stderr
    assert ("mqtt    | 2026-11-26 16:40:26,000 WARNING mqtt_service.link: mqtt: broker refused"
            in done.stdout.splitlines())
    assert any(line.startswith("web     |") for line in done.stdout.splitlines())


@contextmanager
def _following(tmp_path: Path) -> Iterator[tuple[subprocess.Popen[str], list[str]]]:
    process = subprocess.Popen(
        [sys.executable, "-m", "shared.cli", "logs", "--cache-dir", str(tmp_path / "cache")],
        cwd=ROOT, env=_env(str(tmp_path)), stdout=subprocess.PIPE, text=True)
    lines: list[str] = []
    try:
        yield process, lines
    finally:
        process.terminate()
        process.wait(10)


def _wait_for(process: subprocess.Popen[str], lines: list[str], wanted: str) -> None:
    assert process.stdout is not None
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        line = process.stdout.readline()
        if not line:
            pytest.fail(f"ledpanel logs ended before {wanted!r}: {lines}")
        lines.append(line.rstrip("\n"))
        if wanted in line:
            return
    pytest.fail(f"{wanted!r} never came: {lines}")


def test_a_dev_run_is_followed_as_it_grows_and_rotates(tmp_path: Path) -> None:
    logs = _dev_logs(tmp_path)
    with _following(tmp_path) as (process, lines):
        _wait_for(process, lines, "WARNING ledpanel.web: slow")
        with open(logs / "web.log", "a") as log:
            log.write("2026-11-26 16:41:00,000 INFO ledpanel.web: appended\n")
        _wait_for(process, lines, "ledpanel.web: appended")
        os.replace(logs / "display.log", logs / "display.log.1")  # LogFileWriter's rotation
        (logs / "display.log").write_text("2026-11-26 16:42:00,000 INFO x: after rotation\n")
        _wait_for(process, lines, "INFO x: after rotation")
    assert "display | 2026-11-26 16:40:24,001 INFO ledpanel-display: started" in lines
    assert "web     | 2026-11-26 16:41:00,000 INFO ledpanel.web: appended" in lines
