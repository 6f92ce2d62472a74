"""The bound on commands: a burst, then a steady rate."""

from __future__ import annotations

from mqtt_service.rate import RateLimit


def test_a_burst_then_the_rate() -> None:
    now = [0.0]
    limit = RateLimit(per_second=10, burst=3, clock=lambda: now[0])
    assert [limit.take() for _ in range(4)] == [True, True, True, False]
    now[0] += 0.1  # one token back
    assert limit.take() and not limit.take()
    now[0] += 100  # never more than the burst
    assert [limit.take() for _ in range(4)] == [True, True, True, False]
