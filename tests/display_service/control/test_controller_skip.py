"""Skipping to the next entry on request (``Controller.skip``), on a fake clock."""

from __future__ import annotations

from display_service.control.controller import Controller, Entry

ROTATION = [Entry("a", "a1", 10), Entry("a", "a2", 10), Entry("b", "b1", 20)]


def test_skip_starts_the_next_rotation_entry_with_its_full_time_and_wraps() -> None:
    controller = Controller(ROTATION, 0.0)
    assert controller.skip(4.0)
    assert controller.current(4.0) == ROTATION[1]
    assert controller.next_deadline() == 14.0  # a fresh slot, not the time left
    controller.skip(5.0)
    controller.skip(6.0)
    assert controller.current(6.0) == ROTATION[0]  # after the last, the first


def test_skip_moves_within_live_content_and_leaves_the_rotation_paused() -> None:
    controller = Controller(ROTATION, 0.0)
    controller.set_live({"a": []}, 1.0)
    assert controller.layer() == "live"
    assert controller.skip(2.0)
    assert controller.current(2.0) == ROTATION[1]
    assert controller.rotation.index == 0  # the rotation underneath did not move


def test_skip_does_nothing_under_an_on_demand_request_or_with_nothing_listed() -> None:
    controller = Controller(ROTATION, 0.0)
    assert controller.start_on_demand("b", None, None, True, "r1", 1.0) is None
    assert not controller.skip(2.0)
    assert controller.current(2.0) == Entry("b", "b1", 0.0)
    assert not Controller([], 0.0).skip(1.0)
