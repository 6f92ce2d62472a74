"""What waits while the broker is away: newest state per topic, a bounded queue."""

from __future__ import annotations

from mqtt_service.outbox import Message, Outbox


def test_retained_state_coalesces_to_the_newest_per_topic() -> None:
    box = Outbox()
    for value in range(100):
        box.keep(Message("p/state", str(value).encode(), retain=True))
    box.keep(Message("p/plugins", b"[]", retain=True))
    drained = box.drain()
    assert [(m.topic, m.payload) for m in drained] == [("p/state", b"99"), ("p/plugins", b"[]")]
    # Kept for the next connect too: a restarted broker has forgotten them.
    assert [m.payload for m in box.drain()] == [b"99", b"[]"]


def test_other_messages_wait_in_a_bounded_queue_dropping_the_oldest() -> None:
    box = Outbox(max_pending=3)
    for value in range(10):
        box.keep(Message("p/error", str(value).encode(), retain=False))
    assert box.pending_count() == 3 and box.dropped == 7
    assert [m.payload for m in box.drain()] == [b"7", b"8", b"9"]
    assert box.drain() == []  # sent once, not again


def test_retained_topics_are_bounded_too() -> None:
    box = Outbox(max_retained=2)
    assert box.keep(Message("a", b"1", retain=True)) and box.keep(Message("b", b"1", retain=True))
    assert not box.keep(Message("c", b"1", retain=True))
    assert box.keep(Message("a", b"2", retain=True))  # a known topic still updates
    box.forget("b")
    assert box.keep(Message("c", b"1", retain=True))
    assert box.retained("a") == b"2" and box.retained("b") is None
