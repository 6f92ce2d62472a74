"""What the ``ledpanel`` commands share: errors, the web service's address, API calls."""

from __future__ import annotations

import argparse
import contextlib
import json
import os
from pathlib import Path
from typing import Any

from shared import cli_args
from shared.bus.web_address import client_url, published_web_address
from shared.paths import DEVICE_CACHE_DIR, resolve_paths

TIMEOUT = (2.0, 10.0)  # seconds to connect, seconds to read (on-demand waits for the ack)


class CliError(Exception):
    """A problem to report in one line, without a traceback (exit status 1)."""


class Unreachable(CliError):
    """The web daemon did not answer at all."""


def web_url(args: argparse.Namespace) -> str:
    """Return the web service's base URL.

    ``--url``, else the address the running web daemon published on the bus (so every
    command works however the daemon was started, e.g. ``scripts/dev --port 5601``),
    else ``LEDPANEL_WEB_URL``, else ``http://127.0.0.1:<port>`` with the port from
    ``LEDPANEL_WEB_PORT`` or ``web.port`` in config.json, else 5000.
    """
    if getattr(args, "url", None):
        return str(args.url)
    published = published_web_address(bus_dir(getattr(args, "cache_dir", None)))
    if published is not None:
        return client_url(published)
    url = cli_args.from_env("LEDPANEL_WEB_URL", cli_args.web_url)
    if url:
        return url
    port = cli_args.from_env("LEDPANEL_WEB_PORT", cli_args.port) or stored_port(
        getattr(args, "config_dir", None))
    return f"http://127.0.0.1:{port}"


def bus_dir(flag: str | None) -> Path:
    """Return the bus directory: flag or environment, else the device's, else the checkout's."""
    if flag or os.environ.get("LEDPANEL_CACHE_DIR") or os.environ.get("CACHE_DIRECTORY"):
        return resolve_paths(cache_dir=flag).cache_dir
    # Over SSH on a device nothing sets the variable the units set: look where they point.
    return DEVICE_CACHE_DIR if DEVICE_CACHE_DIR.is_dir() else resolve_paths().cache_dir


def stored_port(config_dir: str | None) -> int:
    """Return ``web.port`` from config.json, 5000 when the file or the key is unusable."""
    path = resolve_paths(config_dir=config_dir).config_file
    config: Any = None
    with contextlib.suppress(OSError, ValueError):
        config = json.loads(path.read_text(encoding="utf-8"))
    return cli_args.configured_port(config)


def api(url: str, method: str, path: str, body: Any = None) -> dict[str, Any]:
    """Call ``<url>/api/v3<path>`` and return the envelope; raise CliError on any failure.

    ``LEDPANEL_TOKEN``, when set, is sent as the API token (``Authorization: Bearer``).
    """
    import requests

    target = f"{url}/api/v3{path}"
    token = os.environ.get("LEDPANEL_TOKEN")  # needed when web.sign_in is on
    headers = {"Authorization": f"Bearer {token}"} if token else None
    try:
        response = requests.request(method, target, json=body, headers=headers,
                                    timeout=TIMEOUT)
    except requests.RequestException as err:
        raise Unreachable(f"cannot reach the web service at {url}: {_reason(err)}") from err
    envelope = None
    with contextlib.suppress(ValueError):
        envelope = response.json()
    if not isinstance(envelope, dict):
        raise CliError(f"{method} {target} answered HTTP {response.status_code} without JSON")
    if response.status_code >= 400 or envelope.get("status") == "error":
        code = f" [{envelope['error_code']}]" if envelope.get("error_code") else ""
        message = envelope.get("message") or f"HTTP {response.status_code}"
        if response.status_code == 401:
            message = (f"{message} (set LEDPANEL_TOKEN to an API token: "
                       "ledpanel sign-in token create <name>)")
        raise CliError(f"{message}{code}")
    return envelope


def _reason(err: Exception) -> str:
    markers = ("Connection refused", "timed out", "Name or service not known")
    return next((m.lower() for m in markers if m in str(err)), type(err).__name__)
