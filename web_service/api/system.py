"""GET /system/status."""

from __future__ import annotations

import os
import time

from flask import Blueprint

from shared.bus import core as keys
from shared.bus.display_status import display_report, hardware_report
from shared.config.health import config_report
from shared.errors import LedpanelError
from shared.host_metrics import host_metrics
from shared.version import CORE_VERSION
from web_service.envelope import Reply, ok
from web_service.services import services

bp = Blueprint("system", __name__)


@bp.get("/system/status")
def status() -> Reply:
    """Return what the panel shows, the hardware, config problems and host figures.

    ``display`` says only what is true now: while the display service is not running
    every panel field is null and ``summary`` says "not running". ``hardware``
    carries ``restart_required`` when the saved panel settings differ from the ones the
    running display started with; ``config`` lists every known config problem;
    ``display.plugin_errors`` the plugins that failed since the display started;
    ``display.safe_mode`` the plugins kept out because they took the display down.
    """
    svc = services()
    state, holder = svc.display.state()
    display = display_report(state, holder, svc.display.errors_record(),
                             svc.bus.read(keys.PLUGIN_SAFE_MODE))
    hardware = hardware_report(svc.display.hardware())
    if hardware is not None:
        try:
            restart = svc.display.restart_settings(svc.store.main_snapshot().data,
                                                   service=display["service"], hardware=hardware)
        except LedpanelError:  # an unreadable config.json is reported under "config"
            restart = []
        hardware.update(restart_required=bool(restart), restart_settings=restart)
    return ok({
        "version": CORE_VERSION,
        "display": display,
        "hardware": hardware,
        "config": config_report(svc.store, display),
        "web": {"service": "running", "pid": os.getpid(),
                **(svc.listening or {"host": svc.settings.host, "port": svc.settings.port}),
                "uptime_seconds": round(time.time() - svc.started_at, 1)},
        "host": host_metrics(),
        # Files named like bus files that read as absent (a FIFO, a folder, junk).
        "bus": {"problems": svc.bus.problems()},
    })
