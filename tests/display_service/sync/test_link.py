"""The sync link's states with a stand-in client: what a follower shows and says."""

from __future__ import annotations

from typing import Any

from display_service.control.controller import ROTATION, SYNC, Controller, Entry
from display_service.loop.inbox import Inbox
from display_service.sync.client import CONNECTED, CONNECTING
from display_service.sync.link import SyncLink
from display_service.sync.messages import Status, Switch

ENTRIES = [Entry("alpha", "a", 30.0), Entry("beta", "b", 30.0)]
CONFIG = {"sync": {"role": "follower"},
          "mqtt": {"enabled": True, "host": "broker.local", "base_topic": "ledpanel/hall"}}


class StandInClient:
    """What the link uses of ``SyncClient``: messages handed in by the test."""

    def __init__(self, settings: Any, notify: Any) -> None:
        self.settings, self.notify = settings, notify
        self.state, self.refused, self.messages = CONNECTING, 0, []
        self.published: list[tuple[str, bytes]] = []
        self.closed = False

    def start(self) -> None:
        pass

    def take(self) -> list[Any]:
        taken, self.messages = self.messages, []
        return taken

    def take_frame(self) -> None:
        return None

    def publish(self, kind: str, payload: bytes) -> None:
        self.published.append((kind, payload))

    def close(self, wait: bool = True) -> None:
        self.closed = True


def follower() -> tuple[SyncLink, Controller, StandInClient]:
    controller = Controller(ENTRIES, 0.0)
    link = SyncLink(controller, Inbox(), lambda: 1000.0, client_factory=StandInClient)
    assert link.configure(CONFIG, 0.0)
    assert isinstance(link.client, StandInClient)
    return link, controller, link.client


def test_a_follower_says_what_it_waits_for_then_follows_then_goes_on_alone() -> None:
    link, controller, client = follower()
    link.apply(0.0)
    assert (link.state, link.note()) == ("connecting", "follower, connecting to the broker")
    client.state = CONNECTED
    link.apply(0.1)
    assert (link.state, link.note()) == ("waiting for a leader",
                                         "follower, waiting for a leader panel")
    client.messages = [Status("lead", True, 1.0)]
    link.apply(0.2)
    assert link.state == "waiting for a leader" and "has not said" in str(link.note())
    client.messages = [Switch("lead", 7, "beta", "b", 999.0)]
    link.apply(0.3)
    assert (link.state, link.leader, link.note()) == ("following", "lead", None)
    assert controller.layer() == SYNC and controller.current(0.3) == ENTRIES[1]
    link.switched(("beta", "b", None, controller.starts))
    assert link.snapshot()["seq"] == 7
    assert link.next_due() == 0.2 + 3.0  # three heartbeats after the last one
    link.apply(3.3)
    assert (link.state, link.note()) == ("leader lost", "follower, leader lead lost")
    assert controller.layer() == ROTATION


def test_a_switch_to_a_mode_it_lacks_leaves_its_own_rotation_and_says_which() -> None:
    link, controller, client = follower()
    client.state = CONNECTED
    client.messages = [Status("lead", True, 1.0), Switch("lead", 1, "gamma", "g", 999.0)]
    link.apply(0.0)
    assert link.state == "own content" and controller.layer() == ROTATION
    assert link.note() == "follower, leader lead shows gamma/g, which this panel does not have"
    client.messages = [Switch("lead", 2, "alpha", "a", 1000.0)]
    link.apply(0.5)
    assert link.state == "following" and controller.current(0.5) == ENTRIES[0]


def test_a_leader_publishes_each_switch_once_and_a_heartbeat_each_second() -> None:
    controller = Controller(ENTRIES, 0.0)
    config = {**CONFIG, "sync": {"role": "leader"}}
    link = SyncLink(controller, Inbox(), lambda: 1000.0, client_factory=StandInClient)
    link.configure(config, 0.0)
    client = link.client
    assert isinstance(client, StandInClient)
    link.apply(0.0)
    link.switched(("alpha", "a", None, 1))
    link.switched(("alpha", "a", None, 1))  # a notification came and went above it
    link.switched(("beta", "b", None, 2))
    link.apply(0.5)
    link.apply(1.0)
    assert [kind for kind, _ in client.published] == ["status", "switch", "switch", "status"]
    assert link.note() is None and link.snapshot()["role"] == "leader"
    link.close(final=True)
    assert client.closed and link.client is None
