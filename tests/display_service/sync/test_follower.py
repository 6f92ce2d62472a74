"""A follower's choice of leader: alive while heartbeats come, lost without them."""

from __future__ import annotations

from display_service.sync.follower import LOST_AFTER_BEATS, Follower
from display_service.sync.messages import Status, Switch


def online(name: str, beat: float = 1.0) -> Status:
    return Status(name, True, beat)


def test_a_leader_is_followed_while_its_heartbeats_come() -> None:
    follower = Follower("")
    assert follower.choose(0.0) is None and not follower.had_leader
    follower.take(online("hall"), 0.0)
    follower.take(Switch("hall", 3, "clock", "main", 100.0), 0.1)
    assert follower.choose(0.2) == "hall" and follower.had_leader
    assert follower.switch("hall") == Switch("hall", 3, "clock", "main", 100.0)
    assert follower.next_due(0.2) == LOST_AFTER_BEATS * 1.0
    assert follower.choose(LOST_AFTER_BEATS) == "hall"
    assert follower.choose(LOST_AFTER_BEATS + 0.01) is None  # the heartbeats stopped
    assert follower.next_due(LOST_AFTER_BEATS + 0.01) is None
    follower.take(online("hall"), 10.0)
    assert follower.choose(10.0) == "hall"  # back


def test_offline_or_a_last_will_loses_the_leader_at_once() -> None:
    follower = Follower("")
    follower.take(online("hall"), 0.0)
    assert follower.choose(0.0) == "hall"
    follower.take(Status("hall", False, 0.0), 0.5)
    assert follower.choose(0.5) is None and follower.had_leader


def test_a_named_leader_only_and_otherwise_the_first_alive_one_which_stays() -> None:
    named = Follower("hall")
    named.take(online("attic"), 0.0)
    assert named.choose(0.0) is None and "attic" not in named.leaders
    anyone = Follower("")
    anyone.take(online("kitchen"), 0.0)
    assert anyone.choose(0.0) == "kitchen"
    anyone.take(online("attic"), 0.5)
    assert anyone.choose(0.5) == "kitchen"  # the one followed stays while alive
    anyone.take(Status("kitchen", False, 0.0), 1.0)
    assert anyone.choose(1.0) == "attic"
