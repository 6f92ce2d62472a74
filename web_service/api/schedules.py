"""GET/POST /config/schedule (power schedule) and /config/dim-schedule.

GET returns the section in the per-day shape (every day under ``days.<day>``); POST
accepts that shape, the global fields, or flat form keys (``shared.config.schedule_save``),
form-encoded or JSON, and saves through the one config writer (lock, backup, the
``config_changed`` notice to the display).
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint

from shared.config.schedule_save import DIM, POWER, plan_schedule_save, schedule_view
from web_service.api.requests import body_object, is_form
from web_service.envelope import Reply, ok
from web_service.services import services

bp = Blueprint("schedules", __name__)


@bp.get("/config/schedule")
def get_schedule() -> Reply:
    """Return the power schedule."""
    return ok(schedule_view(services().store.main_snapshot().data, POWER))


@bp.post("/config/schedule")
def post_schedule() -> Reply:
    """Save the power schedule; all or nothing."""
    return _save(POWER, "Schedule saved")


@bp.get("/config/dim-schedule")
def get_dim_schedule() -> Reply:
    """Return the dim schedule."""
    return ok(schedule_view(services().store.main_snapshot().data, DIM))


@bp.post("/config/dim-schedule")
def post_dim_schedule() -> Reply:
    """Save the dim schedule; all or nothing."""
    return _save(DIM, "Dim schedule saved")


def _save(key: str, message: str) -> Reply:
    svc = services()
    body = body_object()
    form = is_form()

    def plan(main: dict[str, Any], secrets: dict[str, Any]) -> tuple[dict, dict, list[str]]:
        new_main, changed = plan_schedule_save(main, body, key, form=form)
        return new_main, secrets, changed

    saved = svc.save_config(plan)
    return ok(schedule_view(saved.main, key),
              message if saved.changed else "Nothing changed; the schedule was already so")
