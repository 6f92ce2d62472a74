"""Web request counts and latency by route: a small in-process recorder on Flask's cycle.

Keyed by the matched URL rule (``/api/v3/plugins/<plugin_id>/config``, never the path a
client typed) and the method, so the number of series is bounded by the routes; a
request no route matches counts under ``UNMATCHED``. Past ``MAX_SERIES`` keys (only
reachable through odd methods or status codes) new keys count under ``OTHER``.
Latency is a histogram over ``BUCKETS`` seconds, as Prometheus histograms are.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from typing import Any

from flask import Flask, Response, g, request

RECORDER_KEY = "ledpanel.route_timings"
UNMATCHED = "<unmatched>"
OTHER = "<other>"
MAX_SERIES = 400
BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
_KNOWN_METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})


@dataclass
class RouteFigures:
    """One route and method: answers by status, and the latency histogram."""

    statuses: dict[int, int] = field(default_factory=dict)
    buckets: list[int] = field(default_factory=lambda: [0] * len(BUCKETS))
    count: int = 0
    seconds: float = 0.0


class RouteTimings:
    """Counts and latency per (route, method), thread-safe and bounded."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._routes: dict[tuple[str, str], RouteFigures] = {}

    def record(self, route: str, method: str, status: int, took: float) -> None:
        """Count one answer of ``status`` after ``took`` seconds."""
        method = method if method in _KNOWN_METHODS else OTHER
        with self._lock:
            figures = self._routes.get((route, method))
            if figures is None:
                if len(self._routes) >= MAX_SERIES:
                    route, method = OTHER, OTHER
                figures = self._routes.setdefault((route, method), RouteFigures())
            if status in figures.statuses or len(figures.statuses) < 20:
                figures.statuses[status] = figures.statuses.get(status, 0) + 1
            figures.count += 1
            figures.seconds += took
            for index, bound in enumerate(BUCKETS):
                if took <= bound:
                    figures.buckets[index] += 1

    def snapshot(self) -> list[dict[str, Any]]:
        """Return every route's figures, sorted by route and method."""
        with self._lock:
            return [{"route": route, "method": method, "count": f.count,
                     "seconds_sum": round(f.seconds, 6),
                     "statuses": {str(code): n for code, n in sorted(f.statuses.items())},
                     "buckets": dict(zip([str(b) for b in BUCKETS], f.buckets, strict=True))}
                    for (route, method), f in sorted(self._routes.items())]


def install_route_timings(app: Flask) -> None:
    """Time every request of ``app`` (call first: the guard's refusals count too)."""
    timings = RouteTimings()
    app.extensions[RECORDER_KEY] = timings

    def started() -> None:
        g.ledpanel_started = time.perf_counter()

    def finished(response: Response) -> Response:
        began = g.get("ledpanel_started")
        if began is not None:
            rule = request.url_rule.rule if request.url_rule is not None else UNMATCHED
            timings.record(rule, request.method, response.status_code,
                           time.perf_counter() - began)
        return response

    app.before_request(started)
    app.after_request(finished)


def route_timings(app: Flask) -> RouteTimings:
    """Return the recorder of ``app``."""
    recorder = app.extensions[RECORDER_KEY]
    assert isinstance(recorder, RouteTimings)
    return recorder
