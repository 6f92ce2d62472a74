"""Safe mode: the plugins the display keeps out because they took it down, and release."""

from __future__ import annotations

from typing import Any

from flask import Blueprint

from shared.bus import core as keys
from shared.bus.display_status import RUNNING, STARTING, safe_mode
from shared.errors import LedpanelError
from shared.ids import require_plain_segment
from web_service.api.requests import body_object
from web_service.envelope import Reply, ok
from web_service.services import services

bp = Blueprint("safe_mode", __name__)


def safe_mode_records() -> dict[str, dict[str, Any]]:
    """Return ``{plugin_id: {reason, where, since}}`` as the display last published it."""
    return {entry.pop("plugin_id"): entry
            for entry in safe_mode(services().bus.read(keys.PLUGIN_SAFE_MODE))}


@bp.get("/plugins/safe-mode")
def listed() -> Reply:
    """List the plugins in safe mode (not loaded), with the reason and since when."""
    records = safe_mode_records()
    return ok([{"plugin_id": p, **r} for p, r in sorted(records.items())])


@bp.post("/plugins/safe-mode/release")
def release() -> Reply:
    """Take a plugin out of safe mode: the display loads it again at once."""
    svc = services()
    plugin_id = require_plain_segment(body_object().get("plugin_id"))
    if plugin_id not in safe_mode_records():
        raise LedpanelError(f"{plugin_id} is not in safe mode", error_code="NOT_IN_SAFE_MODE",
                            status=404)
    svc.bus.request(keys.PLUGIN_SAFE_MODE_RELEASE, {"plugin_id": plugin_id})
    if svc.display.service_state() not in (RUNNING, STARTING):
        return ok({"plugin_id": plugin_id, "released": False},
                  f"{plugin_id} is released when the display service starts", status=202)

    def gone(value: dict[str, Any] | None) -> bool:
        plugins = value.get("plugins") if isinstance(value, dict) else None
        return not isinstance(plugins, dict) or plugin_id not in plugins

    released = gone(svc.bus.wait_for(keys.PLUGIN_SAFE_MODE, gone,
                                     timeout=svc.settings.ack_timeout))
    if not released:
        return ok({"plugin_id": plugin_id, "released": False},
                  f"release of {plugin_id} requested; the display has not answered yet",
                  status=202)
    return ok({"plugin_id": plugin_id, "released": True}, f"{plugin_id} released from safe mode")

