"""The config lock: exclusive across processes and threads, reentrant within a thread."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from shared.config.lock import _lock_for, config_lock
from shared.config.store import ConfigStore
from shared.errors import ConfigError
from shared.paths import ROOT, Paths

HOLDER = textwrap.dedent(
    """
    import sys
    from pathlib import Path
    from shared.config.lock import _lock_for, config_lock
    from shared.paths import resolve_paths

    paths = resolve_paths(config_dir=sys.argv[1], cache_dir=sys.argv[1], env={})
    with config_lock(paths, timeout=5):
        print("locked", flush=True)
        sys.stdin.readline()
    """
)

COUNTER = textwrap.dedent(
    """
    import sys
    from shared.config.store import ConfigStore
    from shared.paths import resolve_paths

    store = ConfigStore(resolve_paths(config_dir=sys.argv[1], cache_dir=sys.argv[1], env={}))

    def bump(main, secrets):
        main["counter"] = main.get("counter", 0) + 1

    for _ in range(int(sys.argv[2])):
        store.update(bump)
    """
)


def _python(script: str, *args: str, **kwargs: Any) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.Popen([sys.executable, "-c", script, *args], env=env, text=True, **kwargs)


@contextmanager
def _held_by_another_process(paths: Paths) -> Iterator[None]:
    holder = _python(HOLDER, str(paths.config_dir), stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    try:
        assert holder.stdout is not None and holder.stdin is not None
        assert holder.stdout.readline().strip() == "locked"
        yield
    finally:
        if holder.stdin is not None:
            holder.stdin.close()
        holder.wait(timeout=10)


def test_lock_held_by_another_process_times_out_with_config_error(paths: Paths) -> None:
    with _held_by_another_process(paths):
        started = time.monotonic()
        with pytest.raises(ConfigError) as caught, config_lock(paths, timeout=0.2):
            pass
        assert 0.15 <= time.monotonic() - started < 2
        assert caught.value.error_code == "CONFIG_LOCKED"
    with config_lock(paths, timeout=2):
        pass


def test_save_writes_nothing_while_another_process_holds_the_lock(store: ConfigStore) -> None:
    store.ensure()
    before = store.paths.config_file.read_bytes()
    short = ConfigStore(store.paths, lock_timeout=0.2)
    with _held_by_another_process(store.paths), pytest.raises(ConfigError):
        short.save({"brightness": 1})
    assert store.paths.config_file.read_bytes() == before


def _old_config(paths: Paths) -> bytes:
    paths.config_dir.mkdir(parents=True, exist_ok=True)
    paths.config_file.write_text(json.dumps({"brightness": 12, "clock": {"enabled": True}}))
    return paths.config_file.read_bytes()


def test_ensure_waits_while_another_process_holds_the_lock(store: ConfigStore) -> None:
    old = _old_config(store.paths)
    holder = _python(HOLDER, str(store.paths.config_dir), stdin=subprocess.PIPE,
                     stdout=subprocess.PIPE)
    outcome: list[Any] = []
    try:
        assert holder.stdout is not None and holder.stdin is not None
        assert holder.stdout.readline().strip() == "locked"
        migrator = threading.Thread(target=lambda: outcome.append(store.ensure()))
        migrator.start()
        time.sleep(0.5)
        assert migrator.is_alive() and outcome == []
        assert store.paths.config_file.read_bytes() == old
        holder.stdin.close()
        migrator.join(5)
    finally:
        if holder.stdin is not None and not holder.stdin.closed:
            holder.stdin.close()
        holder.wait(timeout=10)
    assert not migrator.is_alive()
    assert "display" in outcome[0] and "brightness" not in outcome[0]
    migrated = json.loads(store.paths.config_file.read_text())
    assert migrated["brightness"] == 12 and migrated["clock"] == {"enabled": True}
    assert "vegas_scroll" in migrated


def test_ensure_gives_up_when_the_lock_is_held_too_long(store: ConfigStore) -> None:
    old = _old_config(store.paths)
    impatient = ConfigStore(store.paths, lock_timeout=0.3)
    with _held_by_another_process(store.paths):
        started = time.monotonic()
        with pytest.raises(ConfigError) as caught:
            impatient.ensure()
        assert 0.25 <= time.monotonic() - started < 3
    assert caught.value.error_code == "CONFIG_LOCKED"
    assert store.paths.config_file.read_bytes() == old
    assert not store.paths.backups_dir.exists() or not any(store.paths.backups_dir.iterdir())


def _other_thread_gets_the_lock(paths: Paths) -> bool:
    got: list[bool] = []

    def contender() -> None:
        try:
            with config_lock(paths, timeout=0.2):
                got.append(True)
        except ConfigError:
            got.append(False)

    thread = threading.Thread(target=contender)
    thread.start()
    thread.join(10)
    return got == [True]


def test_lock_is_reentrant_within_a_thread(paths: Paths) -> None:
    with config_lock(paths, timeout=1):
        with config_lock(paths, timeout=1):  # a nested take returns at once
            assert not _other_thread_gets_the_lock(paths)
        # Leaving the inner block keeps the lock: the outer one still holds it.
        assert not _other_thread_gets_the_lock(paths)
    assert _other_thread_gets_the_lock(paths)  # the last release frees it
    with config_lock(paths, timeout=1):  # and it can be taken again
        assert not _other_thread_gets_the_lock(paths)


def test_lock_excludes_other_threads(paths: Paths) -> None:
    entered = threading.Event()
    outcome: list[str] = []

    def contender() -> None:
        entered.set()
        try:
            with config_lock(paths, timeout=0.1):
                outcome.append("acquired")
        except ConfigError:
            outcome.append("timed out")

    with config_lock(paths, timeout=1):
        thread = threading.Thread(target=contender)
        thread.start()
        entered.wait(1)
        thread.join(2)
    assert outcome == ["timed out"]


def test_a_waiting_thread_goes_before_the_holder_taking_it_again(paths: Paths) -> None:
    order: list[str] = []
    guard = _lock_for(paths.lock_file)._guard

    def waiter() -> None:
        with config_lock(paths, timeout=10):
            order.append("waiter")

    with config_lock(paths, timeout=1):
        thread = threading.Thread(target=waiter)
        thread.start()
        deadline = time.monotonic() + 10
        while not guard._queue and time.monotonic() < deadline:  # until it queued
            time.sleep(0.001)
        assert guard._queue
    with config_lock(paths, timeout=10):  # released and taken again at once: it waits
        order.append("holder")
    thread.join(10)
    assert order == ["waiter", "holder"]


def test_a_thread_that_gave_up_waiting_leaves_the_queue(paths: Paths) -> None:
    gave_up: list[bool] = []

    def contender() -> None:
        try:
            with config_lock(paths, timeout=0.05):
                gave_up.append(False)
        except ConfigError:
            gave_up.append(True)

    with config_lock(paths, timeout=1):
        thread = threading.Thread(target=contender)
        thread.start()
        thread.join(5)
    assert gave_up == [True]
    assert not _lock_for(paths.lock_file)._guard._queue
    with config_lock(paths, timeout=0.5):  # and nobody is left in front
        pass


def test_concurrent_updates_from_threads_lose_nothing(store: ConfigStore) -> None:
    # What is tested is that no update is lost, not how long a save may wait: with the
    # fixture's 5 s, three waiters gave up on a CI disk where each save's fsyncs took
    # over a second. A wait long enough for any disk leaves only the property itself.
    store = ConfigStore(store.paths, lock_timeout=120.0)
    store.ensure()

    def bump(main: dict, secrets: dict) -> None:
        main["counter"] = main.get("counter", 0) + 1

    threads = [
        threading.Thread(target=lambda: [store.update(bump) for _ in range(10)]) for _ in range(4)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(300)
    assert store.load_main()["counter"] == 40


def test_concurrent_updates_from_processes_lose_nothing(store: ConfigStore) -> None:
    store.ensure()
    workers = [_python(COUNTER, str(store.paths.config_dir), "15") for _ in range(3)]
    assert [worker.wait(timeout=30) for worker in workers] == [0, 0, 0]
    assert json.loads(store.paths.config_file.read_text())["counter"] == 45
