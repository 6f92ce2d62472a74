"""One daemon per role and bus directory; the lock says who runs, without a heartbeat."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from shared.bus.daemon_lock import (
    DISPLAY,
    EXIT_ALREADY_RUNNING,
    EXIT_CACHE_DIR,
    MQTT,
    WEB,
    AlreadyRunning,
    DaemonLock,
    lock_at_start,
    lock_holder,
)
from tests.daemons import ROOT


def test_the_holder_is_named_and_a_second_lock_is_refused(tmp_path: Path) -> None:
    assert lock_holder(tmp_path, DISPLAY) is None  # never ran here
    lock = DaemonLock.acquire(tmp_path, DISPLAY)
    assert lock_holder(tmp_path, DISPLAY) == os.getpid()
    assert lock_holder(tmp_path, WEB) is None  # the roles are separate
    with pytest.raises(AlreadyRunning) as refused:
        DaemonLock.acquire(tmp_path, DISPLAY)
    assert refused.value.pid == os.getpid()
    assert f"pid {os.getpid()}" in refused.value.message
    lock.release()
    assert lock_holder(tmp_path, DISPLAY) is None
    DaemonLock.acquire(tmp_path, DISPLAY).release()


def test_a_killed_holder_frees_the_lock(tmp_path: Path) -> None:
    child = subprocess.Popen(
        [sys.executable, "-c", "import sys, time; from pathlib import Path; "
         "from shared.bus.daemon_lock import DaemonLock; "
         f"DaemonLock.acquire(Path({str(tmp_path)!r}), 'display'); print('held', flush=True); "
         "time.sleep(60)"], cwd=ROOT, stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout is not None and child.stdout.readline().strip() == "held"
        assert lock_holder(tmp_path, DISPLAY) == child.pid
    finally:
        child.kill()
        child.wait(5)
    assert lock_holder(tmp_path, DISPLAY) is None


def test_someone_asking_does_not_make_a_start_fail(tmp_path: Path) -> None:
    """``lock_holder`` takes a shared flock for a moment; a start that lands in that moment
    must still get the lock (it retries), never fail as if another daemon ran."""
    stop = threading.Event()
    answers: list[int | None] = []

    def ask() -> None:
        while not stop.is_set():
            answers.append(lock_holder(tmp_path, DISPLAY))

    DaemonLock.acquire(tmp_path, DISPLAY).release()  # the file exists, as after a stop
    askers = [threading.Thread(target=ask) for _ in range(2)]
    for thread in askers:
        thread.start()
    started = 0
    try:
        for _ in range(50):
            lock = DaemonLock.acquire(tmp_path, DISPLAY)  # raises when refused
            started += 1
            lock.release()
    finally:
        stop.set()
        for thread in askers:
            thread.join()
    assert started == 50
    assert answers, "the askers never ran beside the starts"
    # They saw no daemon, or this process holding the lock (0: held, its pid not yet
    # written): never another process.
    assert set(answers) <= {None, 0, os.getpid()}
    assert lock_holder(tmp_path, DISPLAY) is None  # and nothing is left held


def test_a_garbled_lock_file_still_reads_as_held(tmp_path: Path) -> None:
    lock = DaemonLock.acquire(tmp_path, DISPLAY)
    (tmp_path / "display.lock").write_text("garbage")
    try:
        assert lock_holder(tmp_path, DISPLAY) == 0  # held, pid unknown
        with pytest.raises(AlreadyRunning, match="unknown pid"):
            DaemonLock.acquire(tmp_path, DISPLAY)
    finally:
        lock.release()


def test_a_daemons_start_takes_the_lock_or_says_why_in_one_line(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    log = logging.getLogger("ledpanel-test-start")
    bus = tmp_path / "new" / "bus"  # made by the start
    lock = lock_at_start(bus, MQTT, log)
    assert isinstance(lock, DaemonLock) and lock_holder(bus, MQTT) == os.getpid()
    with caplog.at_level(logging.ERROR, logger=log.name):
        assert lock_at_start(bus, MQTT, log) == EXIT_ALREADY_RUNNING
        blocker = tmp_path / "a-file"
        blocker.write_text("")
        assert lock_at_start(blocker / "bus", MQTT, log) == EXIT_CACHE_DIR
    first, second = (record.getMessage() for record in caplog.records)
    assert first.startswith("cannot start: ") and f"pid {os.getpid()}" in first
    assert str(blocker / "bus") in second and "LEDPANEL_CACHE_DIR" in second
    lock.release()
