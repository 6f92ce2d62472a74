"""GET /system/status."""

from __future__ import annotations

import os
import time

from flask import Blueprint

from shared.host_metrics import host_metrics
from shared.version import CORE_VERSION
from web_service.envelope import Reply, ok
from web_service.services import services

bp = Blueprint("system", __name__)


@bp.get("/system/status")
def status() -> Reply:
    """Return what the panel shows, the hardware, config problems and host figures.

    ``reason`` says in one sentence why the panel shows what it shows (the display's
    own sentence while it runs; that it does not run otherwise). ``display`` says only
    what is true now: while the display service is not running
    every panel field is null and ``summary`` says "not running". ``hardware``
    carries ``restart_required`` when the saved panel settings differ from the ones the
    running display started with; ``config`` lists every known config problem;
    ``display.plugin_errors`` the plugins that failed since the display started;
    ``display.safe_mode`` the plugins kept out because they took the display down.
    The three blocks are rebuilt only when a file they come from changed
    (``web_service.system_status``); the web and host figures are read each time.
    """
    svc = services()
    display, hardware, config = svc.status.blocks()
    return ok({
        "version": CORE_VERSION,
        "reason": display["reason"],
        "display": display,
        "hardware": hardware,
        "config": config,
        "web": {"service": "running", "pid": os.getpid(),
                **(svc.listening or {"host": svc.settings.host, "port": svc.settings.port}),
                "uptime_seconds": round(time.time() - svc.started_at, 1)},
        "host": host_metrics(),
        # Files named like bus files that read as absent (a FIFO, a folder, junk).
        "bus": {"problems": svc.bus.problems()},
    })
