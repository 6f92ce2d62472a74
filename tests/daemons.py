"""Start the real daemons as subprocesses over temporary directories (tests and benchmarks)."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import requests

ROOT = Path(__file__).resolve().parent.parent
_LISTENING = re.compile(r"listening on http://[^:]+:(\d+)")


@dataclass
class Daemon:
    """One running daemon with its collected output."""

    name: str
    process: subprocess.Popen[str]
    lines: list[str] = field(default_factory=list)

    def output(self) -> str:
        return "".join(self.lines)

    def stop(self, timeout: float = 10) -> int:
        """SIGTERM and wait; SIGKILL if it does not stop in time. Return the exit code."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(5)
        return self.process.returncode


@dataclass
class Instance:
    """Directories shared by one display daemon and one web daemon."""

    base: Path

    @property
    def config_dir(self) -> Path:
        return self.base / "config"

    @property
    def cache_dir(self) -> Path:
        return self.base / "cache"

    @property
    def plugins_dir(self) -> Path:
        return self.base / "plugin-repos"

    @property
    def assets_dir(self) -> Path:
        return self.base / "assets"

    @property
    def runtime_dir(self) -> Path:
        """The tmpfs stand-in: the call trail and what else must stay off the SD card."""
        return self.base / "run"

    def dir_flags(self) -> list[str]:
        return ["--config-dir", str(self.config_dir), "--cache-dir", str(self.cache_dir),
                "--plugins-dir", str(self.plugins_dir)]

    def write_config(self, config: dict) -> None:
        self.config_dir.mkdir(parents=True, exist_ok=True)
        (self.config_dir / "config.json").write_text(json.dumps(config, indent=2))


def _spawn(name: str, args: list[str], instance: Instance | None = None,
           extra_env: dict[str, str] | None = None) -> Daemon:
    env = {**os.environ, "PYTHONUNBUFFERED": "1", **(extra_env or {})}
    # Tests run as root on some machines: a display that dropped to a user of the machine
    # could not reach the test's folders (display_service/privileges.py). Tests of the
    # drop set the variable themselves.
    env.setdefault("LEDPANEL_DISPLAY_USER", "root")
    if instance is not None:  # uploads and downloads stay in the test's folder, not the repo's
        env.setdefault("LEDPANEL_ASSETS_DIR", str(instance.assets_dir))
        env.setdefault("LEDPANEL_RUNTIME_DIR", str(instance.runtime_dir))
    process = subprocess.Popen([sys.executable, *args], cwd=ROOT, env=env, text=True,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    daemon = Daemon(name, process)

    def pump() -> None:
        assert process.stdout is not None
        for line in process.stdout:
            daemon.lines.append(line)

    threading.Thread(target=pump, daemon=True).start()
    return daemon


def start_display(instance: Instance, *extra: str, headless: bool = True) -> Daemon:
    """Start ``python -m display_service`` for ``instance`` (with ``--headless`` by default)."""
    flags = ["--headless"] if headless else []
    return _spawn("display", ["-m", "display_service", *flags, *instance.dir_flags(), *extra],
                  instance)


def start_mqtt(instance: Instance, env: dict[str, str] | None = None) -> Daemon:
    """Start ``python -m mqtt_service`` (the MQTT bridge) for ``instance``."""
    return _spawn("mqtt", ["-m", "mqtt_service", *instance.dir_flags()], instance, env)


def start_web(instance: Instance, timeout: float = 15,
              host: str = "127.0.0.1") -> tuple[Daemon, str]:
    """Start the web daemon on a free port of ``host`` (loopback by default); return it
    and its base URL (on 127.0.0.1, which every host tests bind answers on)."""
    daemon = _spawn("web", ["-m", "web_service", "--host", host, "--port", "0",
                            *instance.dir_flags()], instance)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        match = _LISTENING.search(daemon.output())
        if match:
            url = f"http://127.0.0.1:{match.group(1)}"
            wait_http(f"{url}/api/v3/health", deadline - time.monotonic())
            return daemon, url
        if daemon.process.poll() is not None:
            break
        time.sleep(0.02)
    daemon.stop()
    raise RuntimeError(f"web daemon did not start:\n{daemon.output()}")


def wait_http(url: str, timeout: float) -> None:
    """Wait until ``url`` answers 200."""
    deadline = time.monotonic() + max(timeout, 0.1)
    while True:
        # A daemon still starting may be slow to answer its first request on a busy
        # machine: a slow answer is waited for again, like a refused connection, until
        # the deadline.
        patience = min(5.0, max(1.0, deadline - time.monotonic()))
        try:
            if requests.get(url, timeout=patience).status_code == 200:
                return
        except (requests.ConnectionError, requests.Timeout):
            pass
        if time.monotonic() > deadline:
            raise TimeoutError(f"{url} did not answer")
        time.sleep(0.01)


@contextmanager
def running(instance: Instance) -> Iterator[tuple[Daemon, Daemon, str]]:
    """Run both daemons for ``instance``; stop them afterwards."""
    display = start_display(instance)
    try:
        web, url = start_web(instance)
    except Exception:
        display.stop()
        raise
    try:
        yield display, web, url
    finally:
        web.stop()
        display.stop()
