"""GET /calendar/list-calendars: a calendar plugin's calendars, from its own action script.

The web never imports plugin code: the plugin declares a ``list-calendars`` web-UI
action (docs/PLUGINS.md, "Calendar lists and of-the-day data files") and it runs as a
child process, exactly as POST /plugins/action runs it, within the same time, output
and concurrency limits.
"""

from __future__ import annotations

from pathlib import Path

from flask import Blueprint, current_app, request

from shared.errors import NotFoundError
from shared.ids import require_plain_segment
from shared.plugin_system import actions, calendars
from web_service.api.plugin_actions import OUTPUT_LIMIT_KEY, TIMEOUT_KEY
from web_service.envelope import Reply, ok
from web_service.services import services

bp = Blueprint("plugin_calendar", __name__)


@bp.get("/calendar/list-calendars")
def list_calendars() -> Reply:
    """List the calendars a calendar plugin can show (its list-calendars action)."""
    plugin_id = require_plain_segment(request.args.get("plugin_id", calendars.PLUGIN_ID))
    try:
        record = services().catalog.record(plugin_id, missing_status=404)
    except NotFoundError as err:
        raise NotFoundError(f"the calendar plugin {plugin_id!r} is not installed",
                            error_code=err.error_code) from None
    plugin_dir = Path(record["path"])
    script = calendars.list_script(plugin_id, plugin_dir)
    with actions.running_slot(plugin_id):
        answer = actions.run_action(
            plugin_id, plugin_dir, script, {},
            timeout=current_app.config.get(TIMEOUT_KEY, actions.TIMEOUT_SECONDS),
            limit=current_app.config.get(OUTPUT_LIMIT_KEY, actions.OUTPUT_LIMIT))
    found = calendars.calendars_from(plugin_id, answer)
    return ok({"plugin_id": plugin_id, "calendars": found}, f"{len(found)} calendar(s)")
