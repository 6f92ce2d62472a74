"""Starting a core update from the web daemon, and reading how it goes.

The update itself runs elsewhere, because it restarts the web: under systemd the
``ledpanel-update`` unit (started through ``sudo -n systemctl start --no-block``), on a
development run a detached ``python -m shared.core_update``. First the request (who
asked, whether local changes may be stashed, whether plugins follow) and a ``starting``
state are written to the bus folder, so the page shows progress at once and an update
whose process never came is reported lost after the lost-timeout.
"""

from __future__ import annotations

import logging
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path
from typing import Any

from flask import Flask, current_app

from shared.core_update import state as files
from shared.core_update.host_steps import DEV, supervisor
from shared.core_update.preview import is_checkout
from shared.errors import AtomicWriteError, LedpanelError
from shared.paths import ROOT as CODE_ROOT
from shared.supervision.privileged import START_CORE_UPDATE, sudo_argv
from web_service.services import EXTENSION_KEY, WebServices

logger = logging.getLogger(__name__)

SUDO_TIMEOUT = 15.0
DEV_LOG = "updater.log"  # on a development run, beside the state file
_starting = threading.Lock()
_OUTPUT_LIMIT = 400


def _paths(app: Flask | None) -> tuple[Path, Path]:
    web: WebServices = (app or current_app).extensions[EXTENSION_KEY]
    return web.settings.paths.root, web.settings.paths.cache_dir


def update_status(app: Flask | None = None) -> dict[str, Any]:
    """Return the last core update's state as the API shows it (``lost`` included)."""
    _root, cache_dir = _paths(app)
    return files.report(files.read_state(cache_dir))


def start_core_update(*, trigger: str = "button", stash: bool = True,
                      plugins_after: bool = False, app: Flask | None = None) -> dict[str, Any]:
    """Start a core update (Update Code stashes local core changes; the automatic one
    never does); return a message and the state. Raise LedpanelError (409 when one is
    running or the install is no checkout, 503 when the start command failed)."""
    with _starting:  # two clicks at once start one update
        return _start(trigger, stash, plugins_after, *_paths(app))


def _start(trigger: str, stash: bool, plugins_after: bool, root: Path,
           cache_dir: Path) -> dict[str, Any]:
    current = files.read_state(cache_dir)
    if not files.is_final(current) and not files.is_lost(current):
        raise LedpanelError("a core update is already running; wait for its verdict",
                            error_code="UPDATE_RUNNING", status=409)
    if not is_checkout(root):
        raise LedpanelError(f"{root} is not a git checkout, so it cannot update itself; "
                            "install from a git clone (scripts/install)",
                            error_code="NOT_A_CHECKOUT", status=409)
    request = {"id": uuid.uuid4().hex[:12], "trigger": trigger, "stash": stash,
               "plugins_after": plugins_after}
    starting = {**request, "result": None, "phase": "starting", "started_at": time.time(),
                "message": "starting the update"}
    try:
        files.write_request(cache_dir, request)
        files.write_state(cache_dir, starting)
    except AtomicWriteError as err:
        raise LedpanelError(f"the update could not be started: {err}",
                            error_code="UPDATE_NOT_STARTED", status=503) from err
    kind = supervisor()
    how = _start_dev(root, cache_dir) if kind == DEV else _start_unit(cache_dir, starting)
    logger.info("core update %s started (%s, %s)", request["id"], trigger, how)
    message = f"update started ({how})" + (
        "; local changes outside the plugin folders will be stashed" if stash else "")
    return {"message": message, "update": files.report(files.read_state(cache_dir))}


def _start_unit(cache_dir: Path, starting: dict[str, Any]) -> str:
    argv = sudo_argv(START_CORE_UPDATE)
    try:
        done = subprocess.run(argv, capture_output=True, timeout=SUDO_TIMEOUT,
                              stdin=subprocess.DEVNULL, check=False)
        failure = None if done.returncode == 0 else (
            f"exit {done.returncode}: "
            f"{(done.stderr or done.stdout).decode('utf-8', 'replace').strip()[-_OUTPUT_LIMIT:]}")
    except (OSError, subprocess.TimeoutExpired) as err:
        failure = str(err)
    if failure is None:
        return "the ledpanel-update unit"
    message = (f"`{' '.join(argv)}` failed ({failure}); the sudo rule "
               "/etc/sudoers.d/ledpanel may be missing: run scripts/install again")
    files.write_state(cache_dir, {**starting, "result": files.FAILED, "phase": "done",
                                  "finished_at": time.time(), "message": message})
    raise LedpanelError(message, error_code="UPDATE_NOT_STARTED", status=503)


def _start_dev(root: Path, cache_dir: Path) -> str:
    log = files.folder(cache_dir) / DEV_LOG
    with open(log, "ab") as output:
        proc = subprocess.Popen(  # detached: it outlives a web restart
            [sys.executable, "-m", "shared.core_update", "--root", str(root),
             "--cache-dir", str(cache_dir)],
            cwd=CODE_ROOT, stdin=subprocess.DEVNULL, stdout=output,
            stderr=subprocess.STDOUT, start_new_session=True)
    threading.Thread(target=proc.wait, name="core-update-reaper", daemon=True).start()
    return "a detached updater process (development run)"
