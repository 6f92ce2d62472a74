"""On-demand start/stop and the live preview frame."""

from __future__ import annotations

import math
from typing import Any

from flask import Blueprint

from shared.config.limits import MAX_ON_DEMAND_SECONDS, MIN_DISPLAY_SECONDS
from shared.errors import LedpanelError, ValidationError
from shared.ids import require_plain_segment
from web_service.api.requests import (
    body_object,
    invalid_field,
    is_form,
    optional_bool,
    optional_number,
    optional_text,
)
from web_service.envelope import Reply, ok
from web_service.services import services

bp = Blueprint("display", __name__)


@bp.post("/display/on-demand/start")
def on_demand_start() -> Reply:
    """Ask the display to show one plugin (and mode) now.

    JSON bodies carry typed values; a form-encoded body sends text, read as a number
    (``duration``) or a checkbox (``pinned``: ``on``, ``true``, ``1``, ``yes`` or their
    opposites); a blank form field counts as absent.
    """
    svc = services()
    body = body_object()
    form = is_form()
    plugin_id = require_plain_segment(body.get("plugin_id", body.get("plugin")))
    mode = optional_text(body, "mode", form=form)
    duration = optional_number(body, "duration", form=form)
    pinned = optional_bool(body, "pinned", form=form, default=False)
    if duration is not None and not _in_range(duration):
        raise invalid_field("duration", f"must be {MIN_DISPLAY_SECONDS:g} to "
                                        f"{MAX_ON_DEMAND_SECONDS:g} seconds (7 days); "
                                        "pinned keeps a plugin until stopped")
    record = svc.catalog.record(plugin_id)
    if record.get("errors"):
        raise ValidationError(f"plugin {plugin_id!r} cannot load: {record['errors'][0]}",
                              error_code="PLUGIN_UNAVAILABLE")
    modes = record.get("display_modes") or []
    if mode is not None and modes and mode not in modes:
        raise ValidationError(f"plugin {plugin_id!r} has no mode {mode!r}; modes: "
                              f"{', '.join(modes)}", error_code="UNKNOWN_MODE")
    return _send({"action": "start", "plugin_id": plugin_id, "mode": mode,
                  "duration": duration, "pinned": pinned})


@bp.post("/display/on-demand/stop")
def on_demand_stop() -> Reply:
    """Stop on-demand; the normal rotation resumes where it left off."""
    body_object()  # a body is optional, but a malformed one is still an error
    return _send({"action": "stop"})


def _in_range(value: float) -> bool:
    try:
        return math.isfinite(value) and MIN_DISPLAY_SECONDS <= value <= MAX_ON_DEMAND_SECONDS
    except OverflowError:  # a whole number too large for a float: no one waits that long
        return False


def _send(payload: dict[str, Any]) -> Reply:
    svc = services()
    request_id, outcome, state = svc.display.on_demand(payload)
    if outcome is None or state is None:
        service = svc.display.service_state()
        message = ("request queued; the display service is not running"
                   if service != "running" else
                   "request sent; the display service has not acknowledged it yet")
        return ok({"state": "requested", "service": service, "request_id": request_id,
                   **{k: payload.get(k) for k in ("plugin_id", "mode")}}, message, status=202)
    if outcome.get("state") == "error":
        raise LedpanelError(outcome.get("error") or "the display refused the request",
                            error_code="ON_DEMAND_REFUSED", status=409)
    data = {"state": outcome.get("state"), "service": "running", "request_id": request_id,
            "plugin_id": outcome.get("plugin_id"), "mode": outcome.get("mode"),
            "on_demand": state.get("on_demand"),
            "current": {"plugin_id": state.get("plugin_id"), "mode": state.get("mode")}}
    message = "on-demand started" if payload["action"] == "start" else "on-demand stopped"
    return ok(data, message)


@bp.get("/display/preview")
def preview() -> Reply:
    """Return the latest panel frame as base64 PNG; marks a viewer present."""
    svc = services()
    frame = svc.display.preview()
    return ok(frame or {"width": None, "height": None, "png_base64": None})
