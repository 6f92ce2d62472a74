"""The circuit breaker on a fake clock, alone and inside the plugin error records."""

from __future__ import annotations

from display_service.plugins.breaker import (
    CLOSED,
    FIRST_REST,
    HALF_OPEN,
    MAX_REST,
    OPEN,
    OPEN_AFTER,
    Breaker,
)
from display_service.plugins.errors import CLEARED_KEY, PluginErrors


class Clock:
    def __init__(self, now: float = 1000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def _open(breaker: Breaker, now: float, phase: str = "display") -> None:
    for _ in range(OPEN_AFTER):
        breaker.failed(phase, now)


def test_five_failures_in_a_row_open_it_for_thirty_seconds() -> None:
    breaker = Breaker()
    for _ in range(OPEN_AFTER - 1):
        assert breaker.failed("display", 0.0) is False
    assert breaker.state == CLOSED and not breaker.resting(0.0)
    assert breaker.failed("display", 0.0) is True
    assert breaker.state == OPEN and breaker.until == FIRST_REST
    assert breaker.resting(FIRST_REST - 0.01)
    assert not breaker.resting(FIRST_REST)
    assert breaker.state == HALF_OPEN


def test_a_success_between_failures_keeps_it_closed() -> None:
    breaker = Breaker()
    for _ in range(3 * OPEN_AFTER):
        breaker.failed("display", 0.0)
        if breaker.streaks["display"] == OPEN_AFTER - 1:
            breaker.succeeded("display")
    assert breaker.state == CLOSED and breaker.opened == 0


def test_the_rest_doubles_up_to_ten_minutes_and_a_success_resets_it() -> None:
    breaker = Breaker()
    now = 0.0
    _open(breaker, now)
    rests = []
    for _ in range(8):
        rests.append(breaker.until - now)
        now = breaker.until
        assert not breaker.resting(now)  # half open: one trial call
        assert breaker.failed("display", now) is True  # the trial failed: open again
    assert rests == [30, 60, 120, 240, 480, 600, 600, 600]
    assert MAX_REST == 600
    now = breaker.until
    assert not breaker.resting(now)
    assert breaker.succeeded("display") is True
    assert breaker.state == CLOSED and breaker.until is None
    _open(breaker, now)
    assert breaker.until - now == FIRST_REST


def test_a_working_update_does_not_close_it_while_display_keeps_failing() -> None:
    breaker = Breaker()
    _open(breaker, 0.0, "display")
    assert not breaker.resting(FIRST_REST)
    assert breaker.succeeded("update") is False
    assert breaker.state == HALF_OPEN
    breaker.failed("display", FIRST_REST)
    assert breaker.state == OPEN


def test_other_phases_are_recorded_but_never_open_it() -> None:
    breaker = Breaker()
    for _ in range(3 * OPEN_AFTER):
        assert breaker.failed("on_config_change", 0.0) is False
    assert breaker.state == CLOSED


def test_records_carry_phase_class_first_and_last_time_and_the_breaker() -> None:
    clock, wall = Clock(), Clock(5000.0)
    errors = PluginErrors(wall=wall, clock=clock)
    errors.record("weather", "update", KeyError("feed"))
    wall.now += 10
    for _ in range(OPEN_AFTER):
        errors.record("weather", "display", ValueError("no data"))
    record = errors.snapshot()["weather"]
    assert record["count"] == OPEN_AFTER + 1
    assert record["where"] == "display" and record["exception"] == "ValueError"
    assert record["last_error"] == "ValueError: no data"
    assert record["first_at"] == 5000.0 and record["at"] == 5010.0
    assert record["phases"] == {"update": 1, "display": OPEN_AFTER}
    assert record["breaker"] == {"state": OPEN, "until": 5010.0 + FIRST_REST, "opened": 1,
                                 "failures_in_a_row": OPEN_AFTER}
    assert errors.resting("weather") and errors.rest_until("weather") == 1000.0 + FIRST_REST

    version = errors.version
    clock.now += FIRST_REST
    assert not errors.resting("weather")
    assert errors.version > version  # half open is published
    assert errors.snapshot()["weather"]["breaker"]["state"] == HALF_OPEN
    errors.succeeded("weather", "display")
    assert errors.snapshot()["weather"]["breaker"]["state"] == CLOSED


def test_an_overrun_message_is_recorded_without_opening_the_breaker() -> None:
    errors = PluginErrors()
    for _ in range(3 * OPEN_AFTER):
        errors.record_message("slow", "display", "display() took 0.9 s (budget 0.5 s)")
    record = errors.snapshot()["slow"]
    assert record["exception"] is None and record["breaker"]["state"] == CLOSED
    assert not errors.resting("slow")


def test_clear_forgets_records_and_breakers_and_says_which_request() -> None:
    errors = PluginErrors()
    for plugin_id in ("a", "b"):
        for _ in range(OPEN_AFTER):
            errors.record(plugin_id, "display", ValueError("x"))
    errors.clear("a", "req-1")
    snapshot = errors.snapshot()
    assert set(snapshot) == {"b", CLEARED_KEY}
    assert snapshot[CLEARED_KEY]["request_id"] == "req-1"
    assert not errors.resting("a") and errors.resting("b")
    errors.clear(None, "req-2")
    assert set(errors.snapshot()) == {CLEARED_KEY}
    assert not errors.resting("b") and errors.count("b") == 0


def test_fresh_start_closes_the_breaker_and_keeps_the_record() -> None:
    clock = Clock()
    errors = PluginErrors(clock=clock)
    for _ in range(OPEN_AFTER):
        errors.record("a", "display", ValueError("x"))
    assert errors.resting("a")
    version = errors.version
    errors.fresh_start("a")
    assert not errors.resting("a") and errors.version > version
    snapshot = errors.snapshot()["a"]
    assert snapshot["count"] == OPEN_AFTER and snapshot["breaker"]["state"] == CLOSED
    errors.fresh_start("never-failed")  # nothing to close: no change
    for _ in range(OPEN_AFTER):  # the next opening rests it FIRST_REST again, not double
        errors.record("a", "display", ValueError("x"))
    assert errors.rest_until("a") == clock.now + FIRST_REST
