"""Applying the queued ``custom_app_request`` commands to the apps held.

Each request is untrusted (anyone who can write the bus folder can queue one): the app
in a ``set`` is checked again with ``parse_custom_app``; a request that does not pass is
refused with its reason. Outcomes, by request id: ``set``, ``removed``, ``not_found``
(removing an app that is not there), ``expired`` (its lifetime ended before the display
took it) and ``refused``. A lifetime counts from the request's ``requested_at``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from shared.notify.custom_fields import name_problem, parse_custom_app
from shared.notify.custom_requests import SOURCES

from .app_store import MAX_APPS, HeldApp

SET, REMOVED, NOT_FOUND, EXPIRED, REFUSED = "set", "removed", "not_found", "expired", "refused"


@dataclass(frozen=True)
class Outcome:
    """What became of one request."""

    request_id: str
    name: str
    outcome: str
    problem: str | None = None

    def as_record(self) -> dict[str, Any]:
        return {"name": self.name, "outcome": self.outcome, "problem": self.problem}


def apply_requests(apps: dict[str, HeldApp], requests: list[dict[str, Any]],
                   now: float) -> tuple[dict[str, HeldApp], list[Outcome]]:
    """Return the apps after ``requests`` (oldest first) and each request's outcome."""
    result = dict(apps)
    outcomes = []
    for request in requests:
        outcome = _apply(result, request, now)
        if outcome is not None:
            outcomes.append(outcome)
    return result, outcomes


def _apply(apps: dict[str, HeldApp], request: dict[str, Any], now: float) -> Outcome | None:
    request_id = request.get("request_id")
    if not isinstance(request_id, str) or not 0 < len(request_id) <= 64:
        return None  # nobody can be waiting for it
    name = request.get("name")
    problem = name_problem(name)
    if problem is not None or not isinstance(name, str):
        return Outcome(request_id, "", REFUSED, problem)
    action = request.get("action")
    if action == "remove":
        found = apps.pop(name, None)
        return Outcome(request_id, name, REMOVED if found is not None else NOT_FOUND)
    if action != "set":
        return Outcome(request_id, name, REFUSED, "action must be \"set\" or \"remove\"")
    app, problem = parse_custom_app(name, request.get("app"))
    if app is None:
        return Outcome(request_id, name, REFUSED, problem)
    if name not in apps and len(apps) >= MAX_APPS:
        return Outcome(request_id, name, REFUSED,
                       f"{MAX_APPS} custom apps are shown already; remove one first")
    held = _held(name, app, request, request_id, now)
    if held.expired(now):
        apps.pop(name, None)
        return Outcome(request_id, name, EXPIRED, "its lifetime ended before it was shown")
    apps[name] = held
    return Outcome(request_id, name, SET)


def _held(name: str, app: dict[str, Any], request: dict[str, Any], request_id: str,
          now: float) -> HeldApp:
    requested = request.get("requested_at")
    if (isinstance(requested, bool) or not isinstance(requested, int | float)
            or not math.isfinite(requested) or requested > now):
        requested = now  # a clock from the future (or none) counts from now
    lifetime = app.get("lifetime")
    expires = None if lifetime is None else float(requested) + float(lifetime)
    source = request.get("source")
    return HeldApp(name, app, source if source in SOURCES else "http", float(requested),
                   expires, request_id)
