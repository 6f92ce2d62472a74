"""GET /system/status."""

from __future__ import annotations

import os
import time

from flask import Blueprint

from shared.version import CORE_VERSION
from web_service.envelope import Reply, ok
from web_service.host_metrics import host_metrics
from web_service.services import services

bp = Blueprint("system", __name__)


@bp.get("/system/status")
def status() -> Reply:
    """Return display service state, hardware status, current plugin and host figures."""
    svc = services()
    state = svc.display.state() or {}
    on_demand = state.get("on_demand") or {"state": "idle"}
    return ok({
        "version": CORE_VERSION,
        "display": {
            "service": svc.display.service_state(state),
            "plugin_id": state.get("plugin_id"),
            "mode": state.get("mode"),
            "on_demand": on_demand,
            "brightness": state.get("brightness"),
            "fps": state.get("fps"),
            "heartbeat_at": state.get("updated_at"),
            "started_at": state.get("started_at"),
            "loaded_plugins": state.get("loaded_plugins"),
            "load_errors": state.get("load_errors"),
            "config_problem": state.get("config_problem"),
        },
        "hardware": svc.display.hardware(),
        "web": {"uptime_seconds": round(time.time() - svc.started_at, 1), "pid": os.getpid()},
        "host": host_metrics(),
    })
