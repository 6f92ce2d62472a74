"""The wrong-password limit: per address, in total, and forgotten after its window."""

from __future__ import annotations

from web_service.access.sign_in_throttle import Throttle


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_a_client_waits_until_its_oldest_failure_leaves_the_window() -> None:
    clock = Clock()
    throttle = Throttle(per_client=3, total=100, window=60, clock=clock)
    for _ in range(3):
        assert throttle.wait_seconds("10.0.0.2") == 0
        throttle.failed("10.0.0.2")
        clock.now += 10
    assert throttle.wait_seconds("10.0.0.2") == 30  # first failure at 1000, now 1030
    assert throttle.wait_seconds("10.0.0.3") == 0  # others are not held up
    clock.now += 30
    assert throttle.wait_seconds("10.0.0.2") == 0


def test_many_addresses_together_meet_the_total_limit() -> None:
    clock = Clock()
    throttle = Throttle(per_client=5, total=4, window=60, clock=clock)
    for number in range(4):
        throttle.failed(f"10.0.1.{number}")
    assert throttle.wait_seconds("10.0.2.1") == 60
    clock.now += 61
    assert throttle.wait_seconds("10.0.2.1") == 0


def test_memory_stays_bounded_under_many_addresses() -> None:
    throttle = Throttle(per_client=2, total=10, window=60, max_clients=50, clock=Clock())
    for number in range(5000):
        throttle.failed(f"10.{number // 256}.{number % 256}.1")
    assert len(throttle._clients) == 50 and len(throttle._all) == 10
