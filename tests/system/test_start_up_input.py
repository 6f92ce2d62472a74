"""Bad start-up input gets one clear line and exit status 2, for both daemons and the
development supervisor; a port in use names the port and what to do."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from display_service.matrix.select import open_backend
from shared.config.template import load_template
from tests.daemons import ROOT

pytestmark = pytest.mark.timeout(120)

SUPERVISOR = ROOT / "scripts" / "supervise.py"


def run(args: list[str], tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith("LEDPANEL_")}
    return subprocess.run([sys.executable, *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=60, env={**clean, **env,
                                           "LEDPANEL_CONFIG_DIR": str(tmp_path / "config"),
                                           "LEDPANEL_CACHE_DIR": str(tmp_path / "cache")})


def one_line(result: subprocess.CompletedProcess[str]) -> str:
    text = (result.stderr + result.stdout).strip()
    assert result.returncode == 2, text
    assert len(text.splitlines()) == 1 and "Traceback" not in text, text
    return text


@pytest.mark.parametrize(("args", "env", "words"), [
    (["--port", "99999"], {}, "argument --port: must be a port number from 1 to 65535"),
    (["--port", "abc"], {}, "argument --port"),
    ([], {"LEDPANEL_WEB_PORT": "70000"}, "LEDPANEL_WEB_PORT: must be a port number"),
    ([], {"LEDPANEL_WEB_PORT": "abc"}, "LEDPANEL_WEB_PORT: must be a port number"),
    (["--threads", "0"], {}, "argument --threads"),
    (["--log-level", "chatty"], {}, "argument --log-level"),
    (["--plugins-dir", "/etc/hostname"], {}, "--plugins-dir: /etc/hostname exists and is not a "
                                             "directory"),
])
def test_the_web_daemon_refuses_bad_input_in_one_line(tmp_path: Path, args: list[str],
                                                      env: dict[str, str], words: str) -> None:
    assert words in one_line(run(["-m", "web_service", *args], tmp_path, **env))


def test_a_busy_port_names_the_port_and_what_to_do(tmp_path: Path) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        result = run(["-m", "web_service", "--host", "127.0.0.1", "--port", str(port)], tmp_path)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    [line] = [x for x in result.stderr.splitlines() if "cannot start" in x]
    assert f"port {port} on 127.0.0.1 is already in use" in line and "--port" in line


def test_a_host_that_is_no_address_here_is_one_line(tmp_path: Path) -> None:
    result = run(["-m", "web_service", "--host", "no-such-host.invalid", "--port", "0"],
                 tmp_path)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert "cannot listen on host 'no-such-host.invalid'" in result.stderr


@pytest.mark.parametrize(("args", "env", "words"), [
    (["--log-level", "loud"], {}, "argument --log-level"),
    (["--bogus"], {}, "unrecognized arguments: --bogus"),
    ([], {"LEDPANEL_PLUGINS_DIR": "/etc/hostname"}, "LEDPANEL_PLUGINS_DIR: /etc/hostname"),
])
def test_the_display_daemon_refuses_bad_input_in_one_line(tmp_path: Path, args: list[str],
                                                          env: dict[str, str], words: str) -> None:
    assert words in one_line(run(["-m", "display_service", "--headless", *args], tmp_path,
                                 **env))


@pytest.mark.parametrize(("args", "env", "words"), [
    ([], {"LEDPANEL_WEB_PORT": "abc"}, "LEDPANEL_WEB_PORT: must be a port number"),
    (["--port", "70000"], {}, "argument --port"),
])
def test_the_development_supervisor_refuses_bad_input_in_one_line(
        tmp_path: Path, args: list[str], env: dict[str, str], words: str) -> None:
    assert words in one_line(run([str(SUPERVISOR), *args], tmp_path, **env))


def test_headless_wins_over_emulator_mode_and_says_so() -> None:
    config = load_template()
    config["display"]["emulator"] = True
    backend, status = open_backend(config, force_headless=True)
    assert backend.name == "headless" and status["cause"] == "forced" and status["ok"] is True
    [warning] = [w for w in status["warnings"] if w["setting"] == "display.emulator"]
    assert "--headless wins" in warning["message"]
    _backend, both = open_backend(load_template(), force_headless=True, emulator=True)
    assert any("--emulator is set but --headless wins" in w["message"]
               for w in both["warnings"])
