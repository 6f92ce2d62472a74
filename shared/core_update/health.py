"""The health check after a core update restarted the daemons.

Healthy means: within ``HEALTH_START_TIMEOUT`` both daemons run (each holds its lock
and published its state), the web answers ``GET /api/v3/health`` and the display says
it rendered its first frame (``first_frame_ms`` in its state; with no plugin loaded there
is nothing to render, and running is enough); then for ``STABLE_WINDOW`` neither
daemon's pid changes (a crash loop restarts it under a new pid).

An install may name its own check instead: ``LEDPANEL_UPDATE_HEALTH_COMMAND`` (in the
update unit's environment) is a command run in the install's folder, with the new
release checked out, healthy when it exits 0 within both limits together. The tests use
it so a release itself decides whether it passes, while the whole update still runs.
"""

from __future__ import annotations

import os
import shlex
import subprocess
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path

from shared.bus.core import Bus
from shared.bus.daemon_lock import WEB, lock_holder
from shared.bus.display_status import RUNNING, display_report, read_display, timestamp
from shared.bus.web_address import client_url, published_web_address
from shared.core_update.limits import HEALTH_START_TIMEOUT, STABLE_WINDOW

COMMAND_ENV = "LEDPANEL_UPDATE_HEALTH_COMMAND"
POLL = 1.0


def check(root: Path, cache_dir: Path, *, start_timeout: float = HEALTH_START_TIMEOUT,
          window: float = STABLE_WINDOW) -> str | None:
    """Return None when the install is healthy, else why it is not."""
    command = os.environ.get(COMMAND_ENV, "").strip()
    if command:
        return _command_check(shlex.split(command), root, start_timeout + window)
    pids = _wait(lambda: _running(cache_dir), start_timeout)
    if isinstance(pids, str):
        return pids
    end = time.monotonic() + window
    while time.monotonic() < end:
        time.sleep(POLL)
        now = _running(cache_dir)
        if now != pids:
            return (f"a daemon restarted within {window:.0f} s of starting (a crash loop): "
                    f"{_describe(now)}")
    return None


def _command_check(argv: list[str], root: Path, timeout: float) -> str | None:
    try:
        done = subprocess.run(argv, cwd=root, stdin=subprocess.DEVNULL, capture_output=True,
                              timeout=timeout, check=False)
    except subprocess.TimeoutExpired:
        return f"the health check command took longer than {timeout:.0f} s"
    except OSError as err:
        return f"the health check command could not run: {err.strerror}"
    if done.returncode == 0:
        return None
    text = (done.stdout + done.stderr).decode("utf-8", "replace").strip()[-300:]
    return f"the health check command failed (exit {done.returncode}): {text or 'no output'}"


def _wait(probe: Callable[[], tuple[int, int] | str], timeout: float) -> tuple[int, int] | str:
    end = time.monotonic() + timeout
    while True:
        found = probe()
        if not isinstance(found, str) or time.monotonic() >= end:
            return found if not isinstance(found, str) else (
                f"not healthy {timeout:.0f} s after the restart: {found}")
        time.sleep(POLL)


def _running(cache_dir: Path) -> tuple[int, int] | str:
    """Return the (display, web) pids when both are up and answering, else what is not."""
    record, holder = read_display(Bus(cache_dir))
    report = display_report(record, holder)
    if report["service"] != RUNNING:
        return f"the display service is {report['service'].replace('_', ' ')}"
    if report.get("loaded_plugins") and timestamp(
            (record or {}).get("first_frame_ms")) is None:
        return "the display service has not rendered a frame"
    address = published_web_address(cache_dir)
    web_pid = lock_holder(cache_dir, WEB)
    if address is None or web_pid is None:
        return "the web service is not running"
    try:
        with urllib.request.urlopen(client_url(address) + "/api/v3/health",  # noqa: S310
                                    timeout=5) as answer:
            if answer.status != 200:
                return f"the web service answers {answer.status}"
    except OSError as err:
        return f"the web service does not answer ({err})"
    return (int(report["pid"]), web_pid)


def _describe(state: tuple[int, int] | str) -> str:
    return state if isinstance(state, str) else "both daemons run under new pids"
