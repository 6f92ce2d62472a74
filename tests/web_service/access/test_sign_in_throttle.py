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


def test_many_addresses_together_slow_those_that_failed_but_lock_out_nobody_else() -> None:
    clock = Clock()
    throttle = Throttle(per_client=5, total=4, window=60, slow=20, clock=clock)
    for number in range(4):
        throttle.failed(f"10.0.1.{number}")
    # The ceiling is reached: an address with no failure (the owner) goes ahead at once.
    assert throttle.wait_seconds("10.0.2.1") == 0
    # One that failed waits ``slow`` after its own last failure, not a whole window.
    assert throttle.wait_seconds("10.0.1.0") == 20
    clock.now += 20
    assert throttle.wait_seconds("10.0.1.0") == 0
    throttle.failed("10.0.1.0")
    assert throttle.wait_seconds("10.0.1.0") == 20
    clock.now += 61  # the window is over: no ceiling, no wait
    assert throttle.wait_seconds("10.0.1.0") == 0


def test_below_the_ceiling_a_failure_does_not_slow_the_next_try() -> None:
    clock = Clock()
    throttle = Throttle(per_client=5, total=50, window=60, slow=20, clock=clock)
    throttle.failed("10.0.1.1")
    assert throttle.wait_seconds("10.0.1.1") == 0


def test_attackers_cannot_keep_the_owner_out_by_renewing_the_ceiling() -> None:
    clock = Clock()
    throttle = Throttle(per_client=5, total=50, window=300, slow=60, clock=clock)
    for second in range(0, 900, 5):  # 15 minutes of failures from ever new addresses
        clock.now = 1000.0 + second
        address = f"10.1.{second // 256}.{second % 256}"
        if throttle.wait_seconds(address) == 0:
            throttle.failed(address)
        assert throttle.wait_seconds("192.168.1.20") == 0, second


def test_an_address_cannot_renew_its_own_wait_by_trying_while_refused() -> None:
    clock = Clock()
    throttle = Throttle(per_client=2, total=100, window=60, clock=clock)
    throttle.failed("10.0.0.9")
    throttle.failed("10.0.0.9")
    for _ in range(59):  # refused attempts are not failures: the caller does not count them
        clock.now += 1
        assert throttle.wait_seconds("10.0.0.9") > 0
    clock.now += 1
    assert throttle.wait_seconds("10.0.0.9") == 0


def test_memory_stays_bounded_under_many_addresses() -> None:
    throttle = Throttle(per_client=2, total=10, window=60, max_clients=50, clock=Clock())
    for number in range(5000):
        throttle.failed(f"10.{number // 256}.{number % 256}.1")
    assert len(throttle._clients) == 50 and len(throttle._all) == 10
