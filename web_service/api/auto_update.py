"""The weekly automatic plugin update's schedule and last run (read-only).

The timer itself is ``web_service.store.auto_update``; the settings are ``auto_update`` in the
config, saved through the config routes.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint

from shared.errors import LedpanelError
from web_service.envelope import Reply, ok
from web_service.services import services
from web_service.store.auto_update import auto_updater

bp = Blueprint("auto_update", __name__)


@bp.get("/plugins/store/auto-update")
def status() -> Reply:
    """Return whether plugins update weekly, when next (``next_run``, local ISO time) and
    how the last run went (``last_run``: ``at`` and ``summary``, nulls before the first)."""
    config: dict[str, Any]
    try:
        config = services().store.main_snapshot().data
    except LedpanelError:  # an unusable config.json: the timer's own schedule still answers
        config = {}
    return ok(auto_updater().status(config))
