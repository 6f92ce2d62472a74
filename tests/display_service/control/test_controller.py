"""The rotation / on-demand state machine, driven by a fake clock (plain numbers)."""

from __future__ import annotations

from typing import Any

import pytest

from display_service.control.controller import (
    MIN_RESUME,
    NO_CONTENT_BACKOFF,
    Controller,
    Entry,
    build_entries,
)


def entries(*specs: tuple[str, str, float]) -> list[Entry]:
    return [Entry(*spec) for spec in specs]


ROTATION = entries(("a", "a1", 10), ("a", "a2", 10), ("b", "b1", 20))


def keys(controller: Controller, now: float) -> tuple[str, str] | None:
    entry = controller.current(now)
    return entry.key if entry else None


def test_rotation_order_is_plugin_id_then_declared_mode_order() -> None:
    modes = {"zeta": ["z1"], "alpha": ["second", "first"], "mid": ["m"]}
    built = build_entries(["zeta", "alpha", "mid"], modes.__getitem__, lambda _p: 5)
    assert [e.key for e in built] == [
        ("alpha", "second"), ("alpha", "first"), ("mid", "m"), ("zeta", "z1"),
    ]


def test_display_durations_outrank_the_plugins_own_duration() -> None:
    own = {"a": 7, "b": 9, "c": None}
    durations: dict[str, Any] = {"a": 30, "b": 0, "c": "x"}
    built = build_entries(["a", "b", "c"], lambda p: [p], own.__getitem__, durations)
    assert [e.duration for e in built] == [30.0, 9.0, 15.0]


def test_plugin_without_modes_gets_one_entry_named_after_it() -> None:
    assert [e.key for e in build_entries(["solo"], lambda _p: [], lambda _p: 5)] == [
        ("solo", "solo")
    ]


def test_rotation_advances_when_the_duration_is_over_and_wraps() -> None:
    controller = Controller(ROTATION, now=0)
    assert keys(controller, 0) == ("a", "a1")
    assert controller.tick(9.9) == []
    assert controller.tick(10) == ["advanced"]
    assert keys(controller, 10) == ("a", "a2")
    controller.tick(20)
    assert keys(controller, 20) == ("b", "b1")
    assert controller.next_deadline() == 40
    controller.tick(40)
    assert keys(controller, 40) == ("a", "a1")


def test_on_demand_shows_the_requested_mode_and_expires_after_its_duration() -> None:
    controller = Controller(ROTATION, now=0)
    assert controller.start_on_demand("b", "b1", 5, False, "r1", now=2) is None
    assert keys(controller, 2) == ("b", "b1")
    assert controller.state == "active"
    assert controller.tick(6.9) == []
    assert controller.tick(7) == ["expired"]
    assert controller.state == "idle"
    assert keys(controller, 7) == ("a", "a1")


def test_rotation_resumes_the_interrupted_entry_with_its_remaining_time() -> None:
    controller = Controller(ROTATION, now=0)
    controller.tick(10)  # now on a2, which ends at 20
    controller.start_on_demand("b", None, None, True, "r1", now=14)
    assert controller.tick(500) == []  # pinned: never expires by itself
    assert controller.stop_on_demand("r2", now=600) is True
    assert controller.state == "stopped"
    assert keys(controller, 600) == ("a", "a2")
    assert controller.next_deadline() == pytest.approx(606)  # 6 s were left


def test_an_expired_on_demand_resumes_a_later_entry_then_the_rotation_goes_on() -> None:
    controller = Controller(ROTATION, now=0)
    controller.tick(10)
    controller.tick(20)  # now on b1 (the last entry), which ends at 40
    controller.start_on_demand("a", "a1", 30, False, "r1", now=25)
    assert controller.tick(39) == []  # the rotation does not move under an on-demand
    assert controller.tick(55) == ["expired"]
    assert keys(controller, 55) == ("b", "b1")  # not a1: where it left off
    assert controller.next_deadline() == pytest.approx(70)  # the 15 s b1 had left
    assert controller.tick(69.9) == []
    assert controller.tick(70) == ["advanced"]
    assert keys(controller, 70) == ("a", "a1")


def test_a_sliver_of_remaining_time_is_stretched_on_resume() -> None:
    controller = Controller(ROTATION, now=0)
    controller.start_on_demand("b", "b1", 5, False, "r1", now=9.9)
    controller.tick(14.9)
    assert keys(controller, 14.9) == ("a", "a1")
    assert controller.next_deadline() == pytest.approx(14.9 + MIN_RESUME)


def test_on_demand_without_duration_lasts_the_entry_duration() -> None:
    controller = Controller(ROTATION, now=0)
    controller.start_on_demand("b", None, None, False, "r1", now=0)
    od = controller.on_demand
    assert od is not None and od.mode == "b1" and od.ends_at == 20


@pytest.mark.parametrize(
    ("plugin_id", "mode", "duration", "message"),
    [
        ("nope", None, None, "not loaded"),
        ("a", "zz", None, "has no mode 'zz'"),
        ("a", "a1", -3, "positive number"),
    ],
)
def test_a_bad_start_request_is_refused_with_a_reason(
    plugin_id: str, mode: str | None, duration: float | None, message: str
) -> None:
    controller = Controller(ROTATION, now=0)
    problem = controller.start_on_demand(plugin_id, mode, duration, False, "r9", now=1)
    assert problem is not None and message in problem
    snapshot = controller.snapshot_on_demand()
    assert snapshot["state"] == "error"
    assert snapshot["request_id"] == "r9"
    assert message in snapshot["error"]
    assert keys(controller, 1) == ("a", "a1")


def test_a_refused_request_ends_the_running_on_demand() -> None:
    controller = Controller(ROTATION, now=0)
    controller.start_on_demand("b", None, None, True, "r1", now=1)
    controller.start_on_demand("nope", None, None, True, "r2", now=2)
    assert controller.on_demand is None
    assert keys(controller, 2) == ("a", "a1")


def test_stop_without_an_active_on_demand_is_acknowledged() -> None:
    controller = Controller(ROTATION, now=0)
    assert controller.stop_on_demand("r5", now=1) is False
    assert controller.snapshot_on_demand()["state"] == "stopped"
    assert controller.last_request_id == "r5"


def test_no_content_skips_to_the_next_entry_at_once() -> None:
    controller = Controller(ROTATION, now=0)
    assert controller.no_content(now=1) == 0.0
    assert keys(controller, 1) == ("a", "a2")


def test_a_rotation_with_no_content_anywhere_backs_off() -> None:
    controller = Controller(ROTATION, now=0)
    delays = [controller.no_content(now=1) for _ in range(len(ROTATION))]
    assert delays == [0.0, 0.0, NO_CONTENT_BACKOFF]
    controller.had_content()
    assert controller.no_content(now=5) == 0.0


def test_no_content_during_on_demand_keeps_the_on_demand() -> None:
    controller = Controller(ROTATION, now=0)
    controller.start_on_demand("b", None, None, True, "r1", now=0)
    assert controller.no_content(now=1) == NO_CONTENT_BACKOFF
    assert keys(controller, 1) == ("b", "b1")


def test_an_empty_rotation_has_no_current_entry_and_no_busy_loop() -> None:
    controller = Controller([], now=0)
    assert controller.current(0) is None
    assert controller.tick(100) == []
    assert controller.no_content(now=1) == NO_CONTENT_BACKOFF
    assert controller.next_deadline() is None


def test_rebuild_keeps_the_current_entry_and_its_start() -> None:
    controller = Controller(ROTATION, now=0)
    controller.tick(10)  # a2 since 10
    new = entries(("a", "a2", 30), ("b", "b1", 20), ("c", "c1", 5))
    controller.rebuild(new, now=12)
    assert keys(controller, 12) == ("a", "a2")
    assert controller.next_deadline() == 40


def test_rebuild_without_the_current_entry_continues_after_it() -> None:
    controller = Controller(ROTATION, now=0)
    controller.tick(10)  # a2
    controller.rebuild(entries(("a", "a1", 10), ("b", "b1", 20)), now=12)
    assert keys(controller, 12) == ("b", "b1")
    assert controller.next_deadline() == 32


def test_rebuild_without_the_on_demand_plugin_ends_it() -> None:
    controller = Controller(ROTATION, now=0)
    controller.start_on_demand("b", None, None, True, "r1", now=1)
    assert controller.rebuild(entries(("a", "a1", 10)), now=2) == ["expired"]
    assert controller.on_demand is None
    assert keys(controller, 2) == ("a", "a1")


def test_snapshot_names_the_active_request() -> None:
    controller = Controller(ROTATION, now=0)
    controller.start_on_demand("a", "a2", 8, False, "r7", now=3)
    assert controller.snapshot_on_demand() == {
        "state": "active", "plugin_id": "a", "mode": "a2", "request_id": "r7",
        "pinned": False, "started_at": 3, "ends_at": 11, "error": None,
    }
