"""The notification stack's order, due rules, power rules, expiry and bounds, as pure logic."""

from __future__ import annotations

from display_service.notify.queue import (
    DISMISSED,
    DROPPED,
    EXPIRED,
    SHOWN,
    Notification,
    NotificationQueue,
)


def note(nid: str, priority: str = "normal", behavior: str = "queue", at: float = 0.0,
         duration: float = 5.0) -> Notification:
    fields = {"text": nid, "priority": priority, "behavior": behavior, "duration": duration}
    return Notification(nid, fields, "http", 1000.0 + at, at)


def test_order_is_priority_then_behavior_then_arrival() -> None:
    queue = NotificationQueue()
    for n in (note("q-normal"), note("low", "low", "now"), note("next-normal", behavior="next"),
              note("q-normal-2"), note("crit", "critical"), note("high", "high")):
        queue.add(n)
    assert [n.id for n in queue.waiting] == [
        "crit", "high", "next-normal", "q-normal", "q-normal-2", "low"]


def test_now_shows_at_once_and_next_waits_for_the_slot_end() -> None:
    queue = NotificationQueue()
    queue.add(note("later", behavior="next"))
    assert not queue.pick(0.0, True, False) and queue.showing is None
    queue.add(note("at-once", behavior="now"))
    assert queue.pick(0.0, True, False)
    assert queue.showing is not None and queue.showing.id == "at-once"
    assert queue.showing.ends_at == 5.0
    queue.end_showing(SHOWN, "shown to its end")
    # the stack drains before the rotation resumes: "later" follows at once
    assert queue.pick(5.0, True, False) and queue.showing.id == "later"


def test_queue_behavior_waits_for_the_slot_end_too() -> None:
    queue = NotificationQueue()
    queue.add(note("q"))
    assert not queue.pick(1.0, True, False)
    queue.slot_ended()
    assert queue.pick(2.0, True, False) and queue.showing is not None
    queue.end_showing(SHOWN, "done")
    assert not queue.pick(3.0, True, False)
    queue.add(note("q2"))  # the stack is empty again: back to waiting for a slot end
    assert not queue.pick(3.0, True, False)


def test_a_higher_priority_now_takes_over_and_the_other_shows_again_later() -> None:
    queue = NotificationQueue()
    queue.add(note("normal", behavior="now"))
    queue.pick(0.0, True, False)
    queue.add(note("same", behavior="now"))
    assert not queue.pick(1.0, True, False)  # equal priority: waits its turn
    queue.add(note("urgent", "high", "now"))
    assert queue.pick(2.0, True, False) and queue.showing.id == "urgent"
    assert [n.id for n in queue.waiting] == ["normal", "same"]
    queue.end_showing(SHOWN, "done")
    assert queue.pick(3.0, True, False) and queue.showing.id == "normal"
    assert queue.showing.shown_at == 3.0  # from its start again


def test_power_off_holds_all_but_critical_when_allowed() -> None:
    queue = NotificationQueue()
    queue.add(note("normal", behavior="now"))
    queue.add(note("crit", "critical", "now"))
    assert not queue.pick(0.0, False, False)
    assert queue.pick(0.0, False, True) and queue.showing.id == "crit"
    queue.end_showing(SHOWN, "done")
    assert not queue.pick(1.0, False, True)  # normal still waits for the panel
    assert queue.pick(2.0, True, True) and queue.showing.id == "normal"


def test_a_showing_notification_goes_back_when_the_panel_turns_off() -> None:
    queue = NotificationQueue()
    queue.add(note("n", behavior="now"))
    queue.pick(0.0, True, False)
    assert queue.pick(1.0, False, False) and queue.showing is None
    assert [n.id for n in queue.waiting] == ["n"]


def test_waiting_too_long_expires() -> None:
    queue = NotificationQueue(max_wait=60.0)
    queue.add(note("old", at=0.0))
    queue.add(note("young", at=30.0))
    assert queue.next_expiry() == 60.0
    assert queue.expire(59.0) == []
    expired = queue.expire(60.0)
    assert [(f.notification.id, f.state) for f in expired] == [("old", EXPIRED)]
    assert [n.id for n in queue.waiting] == ["young"]
    assert queue.recent[-1]["state"] == EXPIRED and "60 s" in queue.recent[-1]["reason"]


def test_dismiss_waiting_showing_and_unknown() -> None:
    queue = NotificationQueue()
    queue.add(note("a", behavior="now"))
    queue.add(note("b"))
    queue.pick(0.0, True, False)
    gone = queue.dismiss("a", "dismissed over http")
    assert gone is not None and gone.state == DISMISSED and queue.showing is None
    assert queue.dismiss("b", "x") is not None and queue.waiting == []
    assert queue.dismiss("nope", "x") is None
    assert [r["id"] for r in queue.recent] == ["a", "b"]


def test_the_stack_is_bounded_dropping_the_last_in_order() -> None:
    queue = NotificationQueue(max_waiting=2)
    queue.add(note("high", "high"))
    queue.add(note("low", "low"))
    dropped = queue.add(note("normal"))
    assert [(f.notification.id, f.state, f.reason) for f in dropped] == [
        ("low", DROPPED, "queue full")]
    assert queue.add(note("low2", "low"))[0].notification.id == "low2"
    assert queue.ids() == {"high", "normal"}


def test_recent_keeps_the_last_twenty() -> None:
    queue = NotificationQueue()
    for i in range(25):
        queue.add(note(f"n{i}"))
        queue.dismiss(f"n{i}", "x")
    assert len(queue.recent) == 20 and queue.recent[0]["id"] == "n5"
