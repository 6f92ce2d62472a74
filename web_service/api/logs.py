"""The daemons' logs: the newest lines, filtered by daemon and level.

Where each daemon's log is read from, and how its lines are read: ``log_sources.py``.
Following them as they grow is the server-sent-event stream ``/stream/logs``
(``web_service/streams/routes.py``), which takes the same parameters.
"""

from __future__ import annotations

from flask import Blueprint

from shared.logs.daemon_logs import DAEMONS, LEVELS
from web_service.api.query import query_choice, query_int
from web_service.envelope import Reply, ok
from web_service.logs.sources import LogQuery, newest, sources
from web_service.services import services

bp = Blueprint("logs", __name__)

ALL = "all"
DEFAULT_LINES, MAX_LINES = 200, 1000


def log_query(default_lines: int = DEFAULT_LINES) -> LogQuery:
    """Read ``daemon``, ``level`` and ``lines`` from the query string, or raise 400."""
    daemon = query_choice("daemon", (*DAEMONS, ALL), ALL)
    level = query_choice("level", LEVELS, "DEBUG", upper=True) or "DEBUG"
    lines = query_int("lines", default_lines, 1, MAX_LINES)
    return LogQuery(DAEMONS if daemon == ALL else (str(daemon),), level, lines)


@bp.get("/logs")
def tail() -> Reply:
    """The newest lines of the daemons' logs, at a level and above."""
    query = log_query()
    cache_dir = services().settings.paths.cache_dir
    entries, _positions = newest(cache_dir, query)
    return ok({"entries": entries, "sources": sources(cache_dir, query.daemons),
               "level": query.level, "lines": query.lines})
