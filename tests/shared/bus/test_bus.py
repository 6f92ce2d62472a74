"""The file bus: atomic publish, fresh reads, request ids, consumption, watching."""

from __future__ import annotations

import threading
import time

import pytest

from shared.bus.core import Bus


@pytest.fixture
def bus(tmp_path):
    return Bus(tmp_path / "bus")


def test_read_of_an_absent_key_is_none(bus):
    assert bus.read("display_state") is None


def test_reads_always_come_from_disk(bus):
    bus.publish("display_state", {"n": 1})
    assert bus.read("display_state") == {"n": 1}
    # Another process replaces the file behind our back: the next read sees it.
    other = Bus(bus.directory)
    other.publish("display_state", {"n": 2})
    assert bus.read("display_state") == {"n": 2}


def test_unreadable_or_non_object_content_reads_as_none(bus):
    bus.directory.mkdir(parents=True)
    bus.path("x").write_text("{torn")
    bus.path("y").write_text("[1, 2]")
    assert bus.read("x") is None and bus.read("y") is None


def test_request_adds_a_unique_request_id(bus):
    first = bus.request("display_on_demand_request", {"action": "start"})
    [data] = bus.pending("display_on_demand_request")
    assert data["request_id"] == first and data["action"] == "start"
    assert bus.request("display_on_demand_request", {"action": "stop"}) != first


def test_requests_queue_up_instead_of_overwriting_each_other(bus):
    ids = [bus.request("display_on_demand_request", {"n": n}) for n in range(5)]
    assert [r["request_id"] for r in bus.pending("display_on_demand_request")] == ids


def test_take_all_consumes_each_request_exactly_once_in_order(bus):
    bus.request("display_on_demand_request", {"action": "start"})
    bus.request("display_on_demand_request", {"action": "stop"})
    taken = bus.take_all("display_on_demand_request")
    assert [r["action"] for r in taken] == ["start", "stop"]
    assert bus.take_all("display_on_demand_request") == []
    assert sorted(p.name for p in bus.directory.iterdir()) == [".tmp"]
    assert list((bus.directory / ".tmp").iterdir()) == []


def test_concurrent_writers_and_consumers_lose_and_duplicate_nothing(bus):
    consumers_done = threading.Event()
    taken: list[dict] = []

    def consume() -> None:
        while not consumers_done.is_set():
            taken.extend(bus.take_all("display_on_demand_request"))

    def produce(base: int) -> list[str]:
        return [bus.request("display_on_demand_request", {"n": base + i}) for i in range(50)]

    consumers = [threading.Thread(target=consume) for _ in range(2)]
    for thread in consumers:
        thread.start()
    written: list[str] = []
    producers = [threading.Thread(target=lambda b=b: written.extend(produce(b)))
                 for b in (0, 1000, 2000)]
    for thread in producers:
        thread.start()
    for thread in producers:
        thread.join()
    consumers_done.set()
    for thread in consumers:
        thread.join()
    taken.extend(bus.take_all("display_on_demand_request"))
    ids = [r["request_id"] for r in taken]
    assert sorted(ids) == sorted(written) and len(set(ids)) == 150


def test_watch_reports_queued_requests_under_their_key(bus):
    noticed = threading.Event()
    watcher = bus.watch(["display_on_demand_request"], lambda _key: noticed.set())
    try:
        bus.request("display_on_demand_request", {"action": "stop"})
        assert noticed.wait(2)
    finally:
        watcher.stop()


@pytest.mark.parametrize("key", ["", "../x", "a/b", ".hidden", "a@b"])
def test_invalid_keys_are_refused(bus, key):
    with pytest.raises(ValueError):
        bus.publish(key, {})


def test_watch_reports_changes_and_removals_of_watched_keys_only(bus):
    seen: list[str] = []
    changed = threading.Event()

    def callback(key: str) -> None:
        seen.append(key)
        changed.set()

    watcher = bus.watch(["config_changed"], callback)
    try:
        bus.publish("display_state", {"ignored": True})
        bus.publish("config_changed", {"seq": 1})
        assert changed.wait(2)
        changed.clear()
        bus.remove("config_changed")
        assert changed.wait(2)
    finally:
        watcher.stop()
    assert set(seen) == {"config_changed"}


def test_watch_delivers_promptly(bus):
    """A write is noticed without waiting for a polling interval."""
    noticed = threading.Event()
    watcher = bus.watch(["k"], lambda _key: noticed.set())
    try:
        delays = []
        for index in range(20):
            noticed.clear()
            started = time.monotonic()
            bus.publish("k", {"i": index})
            assert noticed.wait(2)
            delays.append(time.monotonic() - started)
    finally:
        watcher.stop()
    # Behaviour, not a benchmark: inotify delivery never waits for move-pair matching.
    assert max(delays) < 0.4


def test_a_raising_callback_does_not_stop_the_watcher(bus):
    calls = []

    def callback(key: str) -> None:
        calls.append(key)
        raise RuntimeError("boom")

    watcher = bus.watch(["k"], callback)
    try:
        bus.publish("k", {"a": 1})
        deadline = time.monotonic() + 2
        while not calls and time.monotonic() < deadline:
            time.sleep(0.01)
        bus.publish("k", {"a": 2})
        while len(calls) < 2 and time.monotonic() < deadline + 2:
            time.sleep(0.01)
    finally:
        watcher.stop()
    assert len(calls) >= 2


def test_wait_for_returns_once_the_predicate_holds(bus):
    def later() -> None:
        time.sleep(0.1)
        bus.publish("display_state", {"ready": True})

    threading.Thread(target=later).start()
    value = bus.wait_for("display_state", lambda v: bool(v and v.get("ready")), timeout=3)
    assert value == {"ready": True}


def test_wait_for_gives_up_after_the_timeout(bus):
    started = time.monotonic()
    assert bus.wait_for("display_state", bool, timeout=0.2) is None
    assert time.monotonic() - started < 2


def test_polling_fallback_when_inotify_is_unavailable(bus, monkeypatch):
    import watchdog.observers

    def refuse(*_args, **_kwargs):
        raise OSError(24, "inotify watch limit reached")

    monkeypatch.setattr(watchdog.observers, "Observer", refuse)
    noticed = threading.Event()
    watcher = bus.watch(["k"], lambda _key: noticed.set())
    try:
        assert watcher.polling
        bus.publish("k", {"a": 1})
        assert noticed.wait(3)
    finally:
        watcher.stop()
