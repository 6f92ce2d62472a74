"""The next rotation entry now, and the panel on or off by hand.

Both wait for the display's answer like the on-demand routes: 200 with the outcome,
409 when the display refused (``DISPLAY_CONTROL_REFUSED``), 202 when it is not running
or did not answer in time (the request waits in its queue; a stale one is ignored).
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, g

from shared.bus.display_control import answer, request_next, request_power
from shared.bus.display_status import MAX_REASON, display_report
from shared.errors import LedpanelError
from web_service.api.requests import body_object, invalid_field, is_form, optional_bool
from web_service.envelope import Reply, ok
from web_service.history import WHAT_KEY
from web_service.services import services

bp = Blueprint("display_control", __name__)
SOURCE = "http"


@bp.post("/display/next")
def next_entry() -> Reply:
    """End the shown rotation (or live) entry now and show the next one."""
    body_object()  # a body is optional, but a malformed one is still an error
    g.setdefault(WHAT_KEY, "display.next")
    return _answered(request_next(services().bus, SOURCE), "next")


@bp.get("/display/power")
def power() -> Reply:
    """Return whether the panel is on, who decided it, and why it shows what it shows."""
    state, holder = services().display.state()
    report = display_report(state, holder)
    return ok({key: report[key] for key in ("service", "power", "power_cause", "showing",
                                           "reason")})


@bp.post("/display/power")
def set_power() -> Reply:
    """Turn the panel on or off by hand (``{"on": true|false}``)."""
    body = body_object()
    if body.get("on") is None or body.get("on") == "":
        raise invalid_field("on", "is required: true turns the panel on, false turns it off")
    on = optional_bool(body, "on", form=is_form(), default=True)
    g.setdefault(WHAT_KEY, f"display.power {'on' if on else 'off'}")  # the history says which
    return _answered(request_power(services().bus, on, SOURCE), "power")


def _text(value: Any) -> str | None:
    """Return a bus value as text for the answer (the bus is anyone's to write)."""
    return value[:MAX_REASON] if isinstance(value, str) and value else None


def _answered(request_id: str, action: str) -> Reply:
    svc = services()
    outcome, state = answer(svc.bus, request_id, svc.settings.ack_timeout)
    if outcome is None or state is None:
        service = svc.display.service_state()
        message = ("request queued; the display service is not running"
                   if service != "running" else
                   "request sent; the display service has not acknowledged it yet")
        return ok({"state": "requested", "service": service, "request_id": request_id},
                  message, status=202)
    if outcome.get("state") != "done":
        raise LedpanelError(str(outcome.get("error") or "the display refused the request"),
                            error_code="DISPLAY_CONTROL_REFUSED", status=409)
    data: dict[str, Any] = {
        "state": "done", "service": "running", "request_id": request_id,
        **{key: _text(outcome.get(key)) for key in ("power", "plugin_id", "mode")},
        "reason": _text(state.get("reason"))}
    if action == "next":
        message = f"showing {data['plugin_id']} / {data['mode']}"
    else:
        message = f"panel {data['power']}"
    return ok(data, message)
