"""Operation history: state-changing API calls and plugin lifecycle events, and clearing.

Storage and its rules are ``shared/history.py``; the web records its calls in
``web_service/history.py`` and the display its plugin events.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, request

from shared import history as store
from shared.errors import LedpanelError
from shared.ids import require_plain_segment
from web_service.api.query import query_choice, query_int
from web_service.envelope import Reply, ok
from web_service.history import history

bp = Blueprint("history", __name__)

DEFAULT_LIMIT, MAX_LIMIT = 100, 1000


@bp.get("/history")
def listed() -> Reply:
    """List the operation history, newest first, filtered and paged."""
    limit = query_int("limit", DEFAULT_LIMIT, 1, MAX_LIMIT)
    before = query_int("before", 0, 1, 2**63) or None
    kind = query_choice("kind", store.KINDS)
    plugin_id = request.args.get("plugin_id") or None
    if plugin_id is not None:
        require_plain_segment(plugin_id)
    entries, more = history().reader.entries(limit=limit, before=before, kind=kind,
                                              plugin_id=plugin_id)
    data: dict[str, Any] = {"entries": entries,
                            "next_before": entries[-1]["id"] if more and entries else None}
    return ok(data)


@bp.post("/history/clear")
def clear() -> Reply:
    """Forget the whole operation history (this call is its first new entry)."""
    directory = history().reader.directory
    try:
        removed = store.clear(directory)
    except OSError as err:
        raise LedpanelError(f"cannot clear the history in {directory}: "
                            f"{err.strerror or err}", error_code="WRITE_FAILED") from err
    return ok({"files_removed": removed}, "history cleared")
