"""POST /plugins/action: run a plugin's web-UI action script (never inside the web daemon)."""

from __future__ import annotations

from pathlib import Path

from flask import Blueprint, current_app

from shared.ids import require_plain_segment
from shared.plugin_system import actions
from web_service.api.requests import invalid_field, json_object
from web_service.envelope import Reply, ok
from web_service.services import services

bp = Blueprint("plugin_actions", __name__)

# app.config keys; tests shorten them
TIMEOUT_KEY = "PLUGIN_ACTION_TIMEOUT"
OUTPUT_LIMIT_KEY = "PLUGIN_ACTION_OUTPUT_LIMIT"


@bp.post("/plugins/action")
def run() -> Reply:
    """Run a plugin's web-UI action script with ``params``; answer the JSON it printed."""
    body = json_object()
    plugin_id = require_plain_segment(body.get("plugin_id"))
    params = body.get("params")
    if params is None:
        params = {}
    if not isinstance(params, dict):
        raise invalid_field("params", "must be a JSON object")
    plugin_dir = Path(services().catalog.record(plugin_id)["path"])
    script = actions.find_action_script(plugin_dir, body.get("action_id"))
    with actions.running_slot(plugin_id):
        answer = actions.run_action(
            plugin_id, plugin_dir, script, params,
            timeout=current_app.config.get(TIMEOUT_KEY, actions.TIMEOUT_SECONDS),
            limit=current_app.config.get(OUTPUT_LIMIT_KEY, actions.OUTPUT_LIMIT))
    message = answer.get("message")
    return ok(answer, message[:500] if isinstance(message, str) else "")
