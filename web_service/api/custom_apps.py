"""Custom apps pushed from outside: list, set and remove (``/api/v3/custom``).

Bodies are checked by ``shared.notify.custom_fields`` (the MQTT bridge uses the same
function) and queued for the display's ``custom-apps`` plugin
(``shared.notify.custom_requests``); the answer waits a moment for the display's outcome
in its ``custom_apps`` record (``shared.notify.custom_record``): 200 once applied, 202
while the display has not answered (or does not run: the request waits in the queue).
"""

from __future__ import annotations

import time
from typing import Any

from flask import Blueprint, g

from shared.bus.core import CUSTOM_APPS
from shared.bus.display_status import RUNNING, STARTING
from shared.errors import LedpanelError, NotFoundError, ValidationError
from shared.notify.custom_fields import name_problem, parse_custom_app
from shared.notify.custom_record import listed_apps, request_outcome
from shared.notify.custom_requests import (
    PLUGIN_ID,
    mode_of,
    remove_custom_app,
    set_custom_app,
)
from shared.notify.icon_source import missing_icon
from web_service.api.requests import json_object
from web_service.envelope import Reply, ok
from web_service.history import WHAT_KEY
from web_service.services import services

bp = Blueprint("custom_apps", __name__)


@bp.get("/custom")
def list_apps() -> Reply:
    """The custom apps the display holds (not expired), by name."""
    svc = services()
    apps = listed_apps(svc.bus.read(CUSTOM_APPS), time.time())
    return ok({"apps": apps, "service": svc.display.service_state(),
               "plugin_enabled": _plugin_enabled()})


@bp.post("/custom/<name>")
def set_app(name: str) -> Reply:
    """Add or replace the custom app ``name`` (mode ``custom-<name>``)."""
    _check_name(name, "set")
    app, problem = parse_custom_app(name, json_object())
    if app is not None:
        problem = missing_icon(app, services().settings.paths.assets_dir)
        app = None if problem else app
    if app is None:
        raise ValidationError(problem or "the custom app is not valid",
                              error_code="INVALID_CUSTOM_APP")
    if not _plugin_enabled():
        raise LedpanelError(f"the {PLUGIN_ID} plugin is disabled or not installed; enable "
                            "it to show custom apps", error_code="PLUGIN_DISABLED", status=409)
    return _answer(set_custom_app(services().bus, name, app, "http"), name)


@bp.delete("/custom/<name>")
def remove_app(name: str) -> Reply:
    """Remove the custom app ``name`` from the rotation."""
    _check_name(name, "remove")
    json_object()  # a body is optional, but a malformed one is still an error
    return _answer(remove_custom_app(services().bus, name, "http"), name)


def _check_name(name: str, action: str) -> None:
    problem = name_problem(name)
    if problem is not None:
        raise ValidationError(problem, error_code="INVALID_NAME")
    g.setdefault(WHAT_KEY, f"custom.{action} {name}")  # the history says which app


def _plugin_enabled() -> bool:
    try:
        return services().catalog.record(PLUGIN_ID).get("enabled") is True
    except LedpanelError:  # not installed
        return False


def _answer(request_id: str, name: str) -> Reply:
    """The display's outcome for ``request_id`` as the answer, or 202 while it has none."""
    svc = services()
    data: dict[str, Any] = {"name": name, "mode": mode_of(name), "request_id": request_id}
    service = svc.display.service_state()
    if service not in (RUNNING, STARTING):
        return ok({**data, "state": "queued", "service": service},
                  "request queued; the display service is not running", status=202)
    record = svc.bus.wait_for(CUSTOM_APPS, lambda r: request_outcome(r, request_id) is not None,
                              timeout=svc.settings.ack_timeout)
    outcome = request_outcome(record, request_id)
    if outcome is None:
        return ok({**data, "state": "queued", "service": service},
                  "request sent; the display has not answered yet", status=202)
    state = outcome["outcome"]
    if state == "refused":
        raise LedpanelError(outcome["problem"] or "the display refused the custom app",
                            error_code="CUSTOM_APP_REFUSED", status=409)
    if state == "not_found":
        raise NotFoundError(f"no custom app named {name!r}", error_code="UNKNOWN_CUSTOM_APP")
    shown = next((a for a in listed_apps(record, time.time()) if a["name"] == name), None)
    return ok({**data, "state": state, "service": service, "app": shown}, _MESSAGES[state])


_MESSAGES = {"set": "custom app set; it joins the rotation",
             "removed": "custom app removed",
             "expired": "its lifetime ended before the display took it"}
