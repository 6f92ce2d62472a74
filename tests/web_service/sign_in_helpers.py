"""A real web daemon with sign-in set up through the real routes and the real command."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import requests
from requests.adapters import HTTPAdapter

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
def running_web(tmp_path: Path, host: str = "127.0.0.1") -> Iterator[tuple[Instance, str]]:
    """Run a web daemon over fresh directories; yield the instance and its base URL."""
    instance = Instance(tmp_path)
    daemon, url = start_web(instance, host=host)
    try:
        yield instance, url
    finally:
        daemon.stop()


def page_token(url: str) -> str:
    """Return the token the panel's own pages carry (read from the page, as a browser)."""
    page = requests.get(f"{url}/", timeout=TIMEOUT).text
    found = re.search(r'<meta name="ledpanel-token" content="([^"]+)"', page)
    assert found, "the page carries no token"
    return found.group(1)


def switch_on(url: str, client: Any = requests, password: str = PASSWORD) -> None:
    """Switch sign-in on with its first password in the same step, as the owner's
    browser does (the page token proves it may set the first password)."""
    answer = client.post(f"{url}/api/v3/config/main",
                         json={"web": {"sign_in": {"enabled": True, "password": password}}},
                         headers={"X-Ledpanel-Token": page_token(url)}, timeout=TIMEOUT)
    assert answer.status_code == 200, answer.text


class SourceAddressAdapter(HTTPAdapter):
    """Connect from a chosen local address (127.0.0.2 is another client on loopback)."""

    def __init__(self, address: str) -> None:
        self.address = address
        super().__init__()

    def init_poolmanager(self, *args: Any, **kwargs: Any) -> None:
        kwargs["source_address"] = (self.address, 0)
        super().init_poolmanager(*args, **kwargs)


def client_at(address: str) -> requests.Session:
    """Return a client whose connections come from ``address``."""
    session = requests.Session()
    session.mount("http://", SourceAddressAdapter(address))
    return session


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
