"""The controller's follow layer: a follower shows its leader's entry, its own waits."""

from __future__ import annotations

from display_service.control.controller import ROTATION, SYNC, Controller, Entry

ENTRIES = [Entry("alpha", "a1", 10.0), Entry("alpha", "a2", 10.0), Entry("beta", "b", 10.0)]


def test_following_pauses_the_rotation_and_unfollowing_resumes_it_with_its_time() -> None:
    controller = Controller(ENTRIES, 0.0)
    assert controller.follow("beta", "b", 4.0)
    assert controller.layer() == SYNC and controller.current(4.0) == ENTRIES[2]
    assert controller.next_deadline() is None  # the leader says when
    assert controller.tick(100.0) == []  # the own rotation does not advance underneath
    starts = controller.starts
    assert controller.follow("beta", "b", 101.0) and controller.starts == starts + 1
    controller.unfollow(102.0)
    assert controller.layer() == ROTATION and controller.current(102.0) == ENTRIES[0]
    assert controller.next_deadline() == 108.0  # the 6 s alpha/a1 had left


def test_an_entry_the_rotation_lacks_is_not_followed() -> None:
    controller = Controller(ENTRIES, 0.0)
    assert controller.follow("alpha", "a2", 1.0)
    assert not controller.follow("gamma", "g", 2.0)
    assert controller.layer() == ROTATION and controller.current(2.0) == ENTRIES[0]


def test_on_demand_outranks_the_leader_and_the_leader_comes_back_after_it() -> None:
    controller = Controller(ENTRIES, 0.0)
    controller.follow("alpha", "a2", 1.0)
    assert controller.start_on_demand("beta", "b", 5.0, False, "r1", 2.0) is None
    assert controller.current(3.0) == Entry("beta", "b", 5.0)
    assert controller.tick(7.0) == ["expired"]
    assert controller.layer() == SYNC and controller.current(7.0) == ENTRIES[1]


def test_a_followed_entry_that_leaves_the_rotation_hands_back_to_the_rotation() -> None:
    controller = Controller(ENTRIES, 0.0)
    controller.follow("beta", "b", 1.0)
    controller.rebuild(ENTRIES[:2], 2.0)
    assert controller.followed is None and controller.layer() == ROTATION
