"""POST /system/action: the Overview's system buttons, and scripts written for them."""

from __future__ import annotations

from flask import Blueprint, g

from shared.supervision.supervisor import supervisor_kind
from web_service.api.requests import body_object
from web_service.envelope import Reply, ok
from web_service.history import WHAT_KEY
from web_service.services import services
from web_service.system.actions import check_action, perform

bp = Blueprint("system_actions", __name__)


@bp.post("/system/action")
def system_action() -> Reply:
    """Do one system action (``action``: start_display, stop_display, ...).

    The answer says what was done; a command that failed answers 502 with its output;
    an action the supervisor cannot do (reboot on a development run) answers 409.
    Restarting the web answers 202 first and restarts once the answer is sent.
    """
    action = check_action(body_object().get("action"))
    g.setdefault(WHAT_KEY, f"system.action {action}")  # the history says which one
    outcome = perform(action, supervisor_kind(), services().settings.paths.cache_dir)
    response, status = ok(outcome.data, outcome.message, outcome.status)
    if outcome.after is not None:
        response.call_on_close(outcome.after)
    return response, status
