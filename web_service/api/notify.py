"""Notifications: post one, list the stack, dismiss one (docs/API.md, "Notifications").

The body is checked by ``shared.notify.fields.parse_notification``, the same check the
MQTT bridge uses; the request goes to the display over the bus. The list is the
display's ``notifications`` record, read as untrusted (``record_view``).
"""

from __future__ import annotations

import re

from flask import Blueprint

from shared.bus import core as keys
from shared.bus.display_status import RUNNING
from shared.errors import NotFoundError, ValidationError
from shared.notify.fields import parse_notification
from shared.notify.icon_source import missing_icon, stored_names
from shared.notify.icons import BUILTIN_NAMES
from shared.notify.record_view import record_view
from shared.notify.requests import ID_PATTERN, dismiss_notification, submit_notification
from web_service.api.requests import invalid_field, json_body
from web_service.envelope import Reply, ok
from web_service.services import services

bp = Blueprint("notify", __name__)

SOURCE = "http"
_FIELD = re.compile(r"'([^']+)'")


@bp.post("/notify")
def create() -> Reply:
    """Check a notification and queue it for the display; answer its id."""
    svc = services()
    checked, problem = parse_notification(json_body())
    if checked is not None:
        problem = missing_icon(checked, svc.settings.paths.assets_dir)
        checked = None if problem else checked
    if checked is None:
        field = _FIELD.search(problem or "")
        raise ValidationError(problem or "invalid notification", error_code="INVALID_FIELD",
                              details={"field": field.group(1) if field else None})
    notification_id = submit_notification(svc.bus, checked, SOURCE)
    running = svc.display.service_state() == RUNNING
    message = ("notification queued" if running else
               "notification queued; the display service is not running: it shows it "
               "when it starts, unless it waited too long by then")
    return ok({"id": notification_id}, message, status=202)


@bp.get("/notify")
def listing() -> Reply:
    """The notifications showing and waiting, the last finished, and the icons to name."""
    svc = services()
    view = record_view(svc.bus.read(keys.NOTIFICATIONS))
    return ok({**view, "service": svc.display.service_state(),
               "icons": {"builtin": list(BUILTIN_NAMES),
                         "stored": stored_names(svc.settings.paths.assets_dir)}})


@bp.delete("/notify/<path:notification_id>")
def dismiss(notification_id: str) -> Reply:
    """Dismiss a notification the display lists as showing or waiting."""
    svc = services()
    if not ID_PATTERN.match(notification_id):
        raise invalid_field("id", "is not a notification id (letters, digits, - and _)")
    view = record_view(svc.bus.read(keys.NOTIFICATIONS))
    if not any(entry["id"] == notification_id for entry in view["queue"]):
        finished = next((e for e in view["recent"] if e["id"] == notification_id), None)
        why = (f"it is already {finished['state']}" if finished else
               "the display lists no such notification")
        raise NotFoundError(f"notification {notification_id} is not waiting or showing: {why}",
                            error_code="UNKNOWN_NOTIFICATION")
    dismiss_notification(svc.bus, notification_id, SOURCE)
    return ok({"id": notification_id}, "dismissal queued", status=202)
