"""A notification holds the controller: nothing advances, and every layer resumes with its
time left."""

from __future__ import annotations

from display_service.control.controller import MIN_RESUME, Controller, Entry

ROTATION = [Entry("a", "a1", 10), Entry("b", "b1", 20)]


def test_held_rotation_does_not_advance_and_resumes_with_its_time_left() -> None:
    controller = Controller(list(ROTATION), 0.0)
    controller.hold(4.0)
    assert controller.tick(30.0) == [] and controller.next_deadline() is None
    assert controller.current(30.0).key == ("a", "a1")
    controller.release(30.0)
    assert controller.next_deadline() == 36.0  # 6 s were left at 4.0
    assert controller.tick(35.9) == []
    assert controller.tick(36.0) == ["advanced"]


def test_a_sliver_left_is_stretched_to_min_resume() -> None:
    controller = Controller(list(ROTATION), 0.0)
    controller.hold(9.9)
    controller.release(50.0)
    assert controller.next_deadline() == 50.0 + MIN_RESUME


def test_held_on_demand_keeps_its_time_left() -> None:
    controller = Controller(list(ROTATION), 0.0)
    controller.start_on_demand("b", "b1", 10.0, False, "r1", 1.0)
    controller.hold(5.0)
    controller.release(25.0)
    assert controller.next_deadline() == 31.0
    assert controller.tick(30.9) == []
    assert "expired" in controller.tick(31.0) and controller.on_demand is None


def test_release_without_hold_changes_nothing() -> None:
    controller = Controller(list(ROTATION), 0.0)
    controller.release(5.0)
    assert controller.next_deadline() == 10.0
