"""Dynamic duration, live priority and their order with on-demand, on a fake clock."""

from __future__ import annotations

import pytest

from display_service.control.controller import (
    LIVE,
    MIN_DYNAMIC_SLOT,
    ON_DEMAND,
    ROTATION,
    Controller,
)
from display_service.control.rotation import DEFAULT_DYNAMIC_CAP, Entry, build_entries

ROTATION_ENTRIES = [Entry("a", "a1", 10), Entry("a", "a2", 10), Entry("b", "b1", 20)]


def shown(controller: Controller, now: float = 0) -> tuple[str, str] | None:
    entry = controller.current(now)
    return entry.key if entry else None


# -- dynamic duration ---------------------------------------------------------


def dynamic_rotation() -> list[Entry]:
    return [Entry("d", "d1", 10, cap=60), Entry("f", "f1", 10)]


def test_a_dynamic_entry_ends_when_its_cycle_completes() -> None:
    controller = Controller(dynamic_rotation(), now=0)
    starts = controller.starts
    assert controller.cycle_complete(now=4) is True
    assert shown(controller) == ("f", "f1")
    assert controller.next_deadline() == 14
    assert controller.starts == starts + 1


def test_a_dynamic_entry_outlasts_its_duration_until_the_cap() -> None:
    controller = Controller(dynamic_rotation(), now=0)
    assert controller.next_deadline() == 60
    assert controller.tick(10) == []
    assert shown(controller) == ("d", "d1")
    assert controller.tick(60) == ["advanced"]
    assert shown(controller) == ("f", "f1")


def test_a_cycle_complete_at_once_keeps_the_slot_for_the_minimum() -> None:
    controller = Controller(dynamic_rotation(), now=0)
    starts = controller.starts
    assert controller.cycle_complete(now=0.1) is False  # too soon: the slot ends at 1 s
    assert shown(controller) == ("d", "d1")
    assert controller.next_deadline() == MIN_DYNAMIC_SLOT
    assert controller.tick(MIN_DYNAMIC_SLOT) == ["advanced"]
    assert shown(controller) == ("f", "f1") and controller.starts == starts + 1


def test_a_lone_dynamic_entry_restarts_no_sooner_than_the_minimum() -> None:
    controller = Controller([Entry("d", "d1", 10, cap=60)], now=0)
    assert controller.cycle_complete(now=0) is False
    assert controller.tick(0.5) == []
    assert controller.cycle_complete(now=MIN_DYNAMIC_SLOT) is True  # a new slot of d1
    assert controller.cycle_complete(now=MIN_DYNAMIC_SLOT) is False
    assert controller.next_deadline() == 2 * MIN_DYNAMIC_SLOT


def test_cycle_complete_does_not_end_a_fixed_entry() -> None:
    controller = Controller(dynamic_rotation(), now=0)
    controller.tick(60)  # now on f1, a fixed entry
    assert controller.cycle_complete(now=61) is False
    assert shown(controller) == ("f", "f1")


def test_build_entries_marks_dynamic_plugins_and_defaults_their_cap() -> None:
    caps = {"d": 45.0, "e": 0.0, "f": None}
    built = build_entries(["d", "e", "f"], lambda p: [p], lambda _p: 10, None, caps.get)
    assert [(e.plugin_id, e.cap) for e in built] == [
        ("d", 45.0), ("e", DEFAULT_DYNAMIC_CAP), ("f", None)]
    assert [e.limit for e in built] == [45.0, DEFAULT_DYNAMIC_CAP, 10.0]


# -- live priority ------------------------------------------------------------


def test_live_content_takes_over_and_the_rotation_resumes_where_it_left_off() -> None:
    controller = Controller(ROTATION_ENTRIES, now=0)
    controller.tick(10)  # a2, until 20
    assert controller.set_live({"b": []}, now=14) == ["live_started"]
    assert controller.layer() == LIVE
    assert shown(controller) == ("b", "b1")
    assert controller.tick(30) == []  # the rotation does not move under live content
    assert controller.set_live({}, now=30) == ["live_ended"]
    assert controller.layer() == ROTATION
    assert shown(controller) == ("a", "a2")
    assert controller.next_deadline() == pytest.approx(36)  # the 6 s a2 had left


def test_live_modes_limit_what_is_shown_and_unknown_modes_mean_all() -> None:
    controller = Controller(ROTATION_ENTRIES, now=0)
    controller.set_live({"a": ["a2"]}, now=1)
    assert shown(controller) == ("a", "a2")
    assert controller.tick(11) == ["advanced"]
    assert shown(controller) == ("a", "a2")  # the only live mode, again
    controller.set_live({"a": ["nope"]}, now=12)
    assert [e.key for e in controller.live.entries] == [("a", "a1"), ("a", "a2")]


def test_an_unchanged_live_set_changes_nothing() -> None:
    controller = Controller(ROTATION_ENTRIES, now=0)
    controller.set_live({"b": []}, now=1)
    deadline = controller.next_deadline()
    assert controller.set_live({"b": []}, now=5) == []
    assert controller.next_deadline() == deadline


def test_a_plugin_that_is_not_in_the_rotation_cannot_be_live() -> None:
    controller = Controller(ROTATION_ENTRIES, now=0)
    assert controller.set_live({"ghost": []}, now=1) == []
    assert controller.layer() == ROTATION


def test_on_demand_outranks_live_content() -> None:
    controller = Controller(ROTATION_ENTRIES, now=0)
    controller.tick(10)  # a2, until 20
    controller.set_live({"b": []}, now=12)
    controller.start_on_demand("a", "a1", 5, False, "r1", now=13)
    assert controller.layer() == ON_DEMAND
    assert shown(controller) == ("a", "a1")
    assert controller.tick(18) == ["expired"]
    assert controller.layer() == LIVE  # live content is back first
    assert shown(controller) == ("b", "b1")
    controller.set_live({}, now=40)
    assert shown(controller) == ("a", "a2")
    assert controller.next_deadline() == pytest.approx(48)  # a2 had 8 s left at 12


def test_live_content_found_during_on_demand_waits_for_it() -> None:
    controller = Controller(ROTATION_ENTRIES, now=0)
    controller.start_on_demand("a", "a2", None, True, "r1", now=2)
    controller.set_live({"b": []}, now=3)
    assert shown(controller) == ("a", "a2")
    controller.stop_on_demand("r2", now=9)
    assert shown(controller) == ("b", "b1")
    assert controller.next_deadline() == 29  # a fresh live slot


def test_unloading_the_live_plugin_ends_live_content() -> None:
    controller = Controller(ROTATION_ENTRIES, now=0)
    controller.set_live({"b": []}, now=4)
    events = controller.rebuild([Entry("a", "a1", 10), Entry("a", "a2", 10)], now=5)
    assert events == ["live_ended"]
    assert shown(controller) == ("a", "a1")


def test_no_content_while_live_moves_among_the_live_entries() -> None:
    controller = Controller(ROTATION_ENTRIES, now=0)
    controller.set_live({"a": []}, now=1)
    assert controller.no_content(now=2) == 0.0
    assert shown(controller) == ("a", "a2")


# -- fresh starts (when reset_cycle_state is due) -----------------------------


def test_a_resumed_entry_is_not_a_fresh_start_but_one_moved_to_while_hidden_is() -> None:
    controller = Controller(ROTATION_ENTRIES, now=0)
    before = controller.starts
    controller.start_on_demand("b", None, None, True, "r1", now=1)
    controller.stop_on_demand("r2", now=2)
    assert controller.starts == before  # a1 resumed: its cycle goes on
    controller.start_on_demand("b", None, None, True, "r3", now=3)
    controller.rebuild([Entry("a", "a2", 10), Entry("b", "b1", 20)], now=4)  # a1 is gone
    assert controller.starts == before  # a2 starts only when it is shown
    controller.stop_on_demand("r4", now=5)
    assert shown(controller) == ("a", "a2")
    assert controller.starts == before + 1
