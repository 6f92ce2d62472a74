"""A real web daemon with sign-in set up through the real routes and the real command."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import requests

from tests.daemons import ROOT, Instance, start_web

PASSWORD = "correct horse battery"
TIMEOUT = 10


def ledpanel(instance: Instance, *args: str, stdin: str = "",
             token: str | None = None) -> subprocess.CompletedProcess:
    """Run the ``ledpanel`` command on ``instance``'s config directory."""
    env = {k: v for k, v in os.environ.items() if k != "LEDPANEL_TOKEN"}
    if token is not None:
        env["LEDPANEL_TOKEN"] = token
    return subprocess.run([sys.executable, "-m", "shared.cli", *args, "--config-dir",
                           str(instance.config_dir)], cwd=ROOT, input=stdin, env=env,
                          capture_output=True, text=True, timeout=60)


@contextmanager
def running_web(tmp_path: Path) -> Iterator[tuple[Instance, str]]:
    """Run a web daemon over fresh directories; yield the instance and its base URL."""
    instance = Instance(tmp_path)
    daemon, url = start_web(instance)
    try:
        yield instance, url
    finally:
        daemon.stop()


def switch_on(url: str, client: Any = requests, password: str = PASSWORD) -> None:
    """Set the password and switch sign-in on, the way a user does, over HTTP."""
    answer = client.post(f"{url}/api/v3/auth/password", json={"password": password},
                         timeout=TIMEOUT)
    assert answer.status_code == 200, answer.text
    answer = client.post(f"{url}/api/v3/config/main",
                         json={"web": {"sign_in": {"enabled": True}}}, timeout=TIMEOUT)
    assert answer.status_code == 200, answer.text


def signed_in(url: str, password: str = PASSWORD) -> requests.Session:
    """Return a client holding a session cookie."""
    session = requests.Session()
    answer = session.post(f"{url}/api/v3/auth/sign-in", json={"password": password},
                          timeout=TIMEOUT)
    assert answer.status_code == 200, answer.text
    return session


def stored(instance: Instance) -> dict[str, Any]:
    """Return the sign-in file as stored."""
    return json.loads((instance.config_dir / "sign_in.json").read_text())
