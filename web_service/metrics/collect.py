"""Every figure of both daemons in one object: the data of ``GET /api/v3/metrics``, and
what ``prometheus`` writes as text.

Shape: ``display`` (the render loop: ``running``, ``frames``, ``cache``, ``at``),
``plugins`` (per plugin id: display and update calls and seconds, ``errors``, ``safe_mode``),
``plugin_errors`` and ``safe_mode`` (totals), ``processes`` (``display`` and ``web``:
``pid``, ``rss_bytes``, ``cpu_seconds``), ``bus`` (``latency_seconds``: a reader mark
written until the display saw it; ``display_state_age_seconds``), ``store_jobs`` (counts
by state), ``web`` (``routes``: counts and latency by URL rule), ``pi``
(``cpu_temperature_c``, ``throttling``).
"""

from __future__ import annotations

import os
import time
from collections import Counter
from typing import Any

from flask import Flask

from shared.bus.display_status import RUNNING, plugin_errors, safe_mode, timestamp
from web_service.metrics.display_record import display_metrics
from web_service.metrics.pi_health import pi_health
from web_service.metrics.processes import process_figures
from web_service.metrics.route_timings import route_timings
from web_service.metrics.viewer import fresh_record
from web_service.services import WebServices
from web_service.store.app_jobs import store_jobs
from web_service.store.jobs_file import DONE, FAILED, QUEUED
from web_service.store.jobs_file import RUNNING as RUNNING_JOB

JOB_STATES = (QUEUED, RUNNING_JOB, DONE, FAILED)


def collect(svc: WebServices, app: Flask) -> dict[str, Any]:
    """Return the metrics of both daemons as of now."""
    state, holder = svc.display.state()
    running = svc.display.service_state() == RUNNING
    record = display_metrics(fresh_record(svc.bus, running))
    if record is not None and (not running or record["pid"] != holder):
        record = None  # a stopped display's last figures, or written by someone else
    errors = plugin_errors(svc.display.errors_record()) if running else {}
    kept_out = [entry["plugin_id"] for entry in safe_mode(svc.display.safe_mode_record())]
    return {
        "display": _display(running, record),
        "plugins": _plugins(record, errors, kept_out),
        "plugin_errors": sum(entry["count"] for entry in errors.values()),
        "safe_mode": len(kept_out),
        "processes": {"display": process_figures(holder) if running else None,
                      "web": process_figures(os.getpid())},
        "bus": _bus(record, state),
        "store_jobs": _jobs(app),
        "web": {"routes": route_timings(app).snapshot()},
        "pi": pi_health(),
    }


def _display(running: bool, record: dict[str, Any] | None) -> dict[str, Any]:
    if record is None:
        return {"running": running, "frames": None, "cache": None, "at": None}
    return {"running": running, "frames": record["frames"], "cache": record["cache"],
            "at": record["at"]}


def _plugins(record: dict[str, Any] | None, errors: dict[str, dict[str, Any]],
             kept_out: list[str]) -> dict[str, dict[str, Any]]:
    timed = record["plugins"] if record is not None else {}
    plugins: dict[str, dict[str, Any]] = {}
    for plugin_id in sorted(set(timed) | set(errors) | set(kept_out)):
        figures = timed.get(plugin_id) or {}
        plugins[plugin_id] = {
            "display_calls": figures.get("display_calls", 0),
            "display_seconds": figures.get("display_seconds", 0.0),
            "display_max_seconds": figures.get("display_max_seconds", 0.0),
            "update_calls": figures.get("update_calls", 0),
            "update_seconds": figures.get("update_seconds", 0.0),
            "update_max_seconds": figures.get("update_max_seconds", 0.0),
            "errors": errors.get(plugin_id, {}).get("count", 0),
            "safe_mode": plugin_id in kept_out,
        }
    return plugins


def _bus(record: dict[str, Any] | None, state: Any) -> dict[str, Any]:
    latency = None
    if record is not None and None not in (record["viewer_seen_at"],
                                           record["viewer_written_at"]):
        latency = round(max(0.0, record["viewer_seen_at"] - record["viewer_written_at"]), 6)
    updated = timestamp(state.get("updated_at")) if isinstance(state, dict) else None
    age = round(max(0.0, time.time() - updated), 3) if updated is not None else None
    return {"latency_seconds": latency, "display_state_age_seconds": age}


def _jobs(app: Flask) -> dict[str, int]:
    counts = Counter(job.get("state") for job in store_jobs(app).store.jobs())
    return {name: counts.get(name, 0) for name in JOB_STATES}
