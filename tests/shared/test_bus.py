"""The file bus: atomic publish, fresh reads, request ids, consumption, watching."""

from __future__ import annotations

import threading
import time

import pytest

from shared.bus import Bus


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
    data = bus.read("display_on_demand_request")
    assert data["request_id"] == first and data["action"] == "start"
    assert bus.request("display_on_demand_request", {"action": "stop"}) != first


def test_take_consumes_a_request_exactly_once(bus):
    bus.request("display_on_demand_request", {"action": "stop"})
    assert bus.take("display_on_demand_request")["action"] == "stop"
    assert bus.take("display_on_demand_request") is None
    assert not bus.path("display_on_demand_request").exists()


@pytest.mark.parametrize("key", ["", "../x", "a/b", ".hidden"])
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
