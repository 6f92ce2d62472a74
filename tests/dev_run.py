"""scripts/supervise.py (what scripts/dev runs) with the real daemons, for tests."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, TypeVar

import requests

from tests.daemons import ROOT, Instance

SUPERVISOR = ROOT / "scripts" / "supervise.py"
T = TypeVar("T")


@dataclass
class DevRun:
    """One supervisor run: its process, the web's base URL and the lines it printed."""

    process: subprocess.Popen[str]
    url: str
    lines: list[str] = field(default_factory=list)

    def act(self, action: str) -> requests.Response:
        return requests.post(f"{self.url}/api/v3/system/action", json={"action": action},
                             timeout=60)

    def status(self) -> dict[str, Any] | None:
        """Return the status data, None while the web does not answer."""
        try:
            answer = requests.get(f"{self.url}/api/v3/system/status", timeout=5)
        except (requests.ConnectionError, requests.Timeout):
            return None
        return answer.json()["data"] if answer.status_code == 200 else None


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_for(check: Callable[[], T | None], what: str, timeout: float = 30) -> T:
    """Return the first true value of ``check``; fail naming ``what`` after ``timeout``."""
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"{what}: not seen within {timeout} s")
        time.sleep(0.05)


def plain_config(instance: Instance) -> None:
    """Write the shipped config template for ``instance``."""
    template = json.loads((ROOT / "config" / "config.template.json").read_text())
    instance.write_config(template)


@contextmanager
def dev_run(instance: Instance) -> Iterator[DevRun]:
    """Run the supervisor with both real daemons over ``instance``; stop it afterwards."""
    port = free_port()
    env = {**os.environ, "PYTHONUNBUFFERED": "1",
           "LEDPANEL_ASSETS_DIR": str(instance.assets_dir),
           "LEDPANEL_RUNTIME_DIR": str(instance.runtime_dir)}
    env.pop("LEDPANEL_SUPERVISOR", None)
    process = subprocess.Popen(
        [sys.executable, str(SUPERVISOR), "--port", str(port), "--grace", "5",
         *instance.dir_flags()],
        cwd=ROOT, env=env, text=True, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    run = DevRun(process, f"http://127.0.0.1:{port}")

    def pump() -> None:
        assert process.stdout is not None
        for line in process.stdout:
            run.lines.append(line.rstrip("\n"))

    threading.Thread(target=pump, daemon=True).start()
    try:
        wait_for(lambda: any("ledpanel web UI:" in line for line in run.lines)
                 or process.poll() is not None, "the web UI address", 60)
        assert process.poll() is None, "\n".join(run.lines)
        yield run
    finally:
        if process.poll() is None:
            process.terminate()
            try:
                process.wait(30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(5)
