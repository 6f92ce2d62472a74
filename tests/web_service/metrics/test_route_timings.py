"""The web request recorder: by URL rule, bucketed, bounded whatever clients send."""

from __future__ import annotations

from web_service.metrics.route_timings import MAX_SERIES, OTHER, RouteTimings


def test_counts_statuses_and_cumulative_buckets() -> None:
    timings = RouteTimings()
    timings.record("/api/v3/health", "GET", 200, 0.003)
    timings.record("/api/v3/health", "GET", 200, 0.2)
    timings.record("/api/v3/health", "GET", 404, 20.0)
    (route,) = timings.snapshot()
    assert route["count"] == 3 and route["statuses"] == {"200": 2, "404": 1}
    assert route["buckets"]["0.005"] == 1 and route["buckets"]["0.25"] == 2
    assert route["buckets"]["10.0"] == 2  # 20 s is only in +Inf (the count)


def test_series_are_bounded_and_odd_methods_grouped() -> None:
    timings = RouteTimings()
    for index in range(MAX_SERIES + 50):
        timings.record(f"/r{index}", "GET", 200, 0.001)
    timings.record("/r0", "BREW", 418, 0.001)
    routes = timings.snapshot()
    assert len(routes) <= MAX_SERIES + 1
    other = [r for r in routes if r["route"] == OTHER]
    assert other and other[0]["count"] >= 50
    for status in range(100, 200):
        timings.record("/r1", "GET", status, 0.001)
    assert len(next(r for r in timings.snapshot() if r["route"] == "/r1")["statuses"]) <= 20
