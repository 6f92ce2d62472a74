"""Plugin failures the running display recorded: the summary, one plugin, and clearing.

The display publishes its records as the ``plugin_errors`` bus key
(``display_service/plugins/errors.py``); they describe the current run only, so while
the display is not running every answer here has no failures (as the status does).
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint

from shared.bus import core as keys
from shared.bus.display_status import RUNNING, STARTING, plugin_errors, timestamp
from shared.ids import require_plain_segment
from web_service.api.requests import json_object
from web_service.envelope import Reply, ok
from web_service.services import services

bp = Blueprint("errors", __name__)

CLEARED_KEY = keys.PLUGIN_ERRORS_CLEARED
BREAKER_STATES = ("closed", "open", "half_open")
CLOSED = {"state": "closed", "until": None, "opened": 0, "failures_in_a_row": 0}


def current_records() -> tuple[str, dict[str, dict[str, Any]]]:
    """Return the display's service state and its failure records (none unless running)."""
    svc = services()
    service = svc.display.service_state()
    if service != RUNNING:
        return service, {}
    published = svc.display.errors_record()
    records = plugin_errors(published)
    for plugin_id, record in records.items():
        record.update(_extra(published.get(plugin_id) if isinstance(published, dict) else None))
    return service, records


def _extra(entry: Any) -> dict[str, Any]:
    """The fields beyond the basic four, each checked: a malformed one reads as empty."""
    entry = entry if isinstance(entry, dict) else {}
    exception = entry.get("exception")
    phases = entry.get("phases")
    return {
        "exception": exception[:100] if isinstance(exception, str) else None,
        "first_at": timestamp(entry.get("first_at")),
        "phases": {p: n for p, n in phases.items() if isinstance(p, str) and _count(n)}
        if isinstance(phases, dict) else {},
        "breaker": _breaker(entry.get("breaker")),
    }


def _count(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _breaker(value: Any) -> dict[str, Any]:
    if not isinstance(value, dict) or value.get("state") not in BREAKER_STATES:
        return dict(CLOSED)
    opened, streak = value.get("opened"), value.get("failures_in_a_row")
    return {"state": value["state"], "until": timestamp(value.get("until")),
            "opened": opened if _count(opened) else 0,
            "failures_in_a_row": streak if _count(streak) else 0}


@bp.get("/errors/summary")
def summary() -> Reply:
    """Every plugin that failed in the display's current run, with totals."""
    service, records = current_records()
    resting = sorted(p for p, r in records.items() if r["breaker"]["state"] == "open")
    return ok({"service": service, "total_failures": sum(r["count"] for r in records.values()),
               "plugins_failing": len(records), "resting": resting,
               "plugins": dict(sorted(records.items()))})


@bp.get("/errors/plugin/<path:plugin_id>")
def one_plugin(plugin_id: str) -> Reply:
    """One plugin's record; a plugin with no failures gets an empty record (count 0)."""
    require_plain_segment(plugin_id)
    service, records = current_records()
    record = records.get(plugin_id) or {
        "count": 0, "last_error": None, "where": None, "at": None, "exception": None,
        "first_at": None, "phases": {}, "breaker": dict(CLOSED)}
    return ok({"plugin_id": plugin_id, "service": service, **record})


@bp.post("/errors/clear")
def clear() -> Reply:
    """Forget the display's failure records (one plugin's, or all) and reset breakers."""
    svc = services()
    plugin_id = json_object().get("plugin_id")
    if plugin_id is not None:
        plugin_id = require_plain_segment(plugin_id)
    request_id = svc.bus.request(keys.PLUGIN_ERRORS_CLEAR, {"plugin_id": plugin_id})
    data = {"plugin_id": plugin_id, "request_id": request_id, "cleared": False}
    if svc.display.service_state() not in (RUNNING, STARTING):
        return ok(data, "the display service is not running; its next run starts "
                        "with no records", status=202)

    def acknowledged(value: dict[str, Any] | None) -> bool:
        mark = value.get(CLEARED_KEY) if isinstance(value, dict) else None
        return isinstance(mark, dict) and mark.get("request_id") == request_id

    if not acknowledged(svc.bus.wait_for(keys.PLUGIN_ERRORS, acknowledged,
                                         timeout=svc.settings.ack_timeout)):
        return ok(data, "clear requested; the display has not answered yet", status=202)
    what = f"errors of {plugin_id}" if plugin_id else "all plugin errors"
    return ok({**data, "cleared": True}, f"{what} cleared")
