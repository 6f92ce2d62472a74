"""The download pool: callers wait at most their budget, one job per key, a bounded backlog."""

from __future__ import annotations

import threading
import time

from shared.plugin_api.logos.download_pool import DownloadPool


def test_a_caller_waits_at_most_its_budget_and_the_job_carries_on() -> None:
    pool = DownloadPool()
    release, finished = threading.Event(), threading.Event()

    def job() -> bool:
        release.wait(10)
        finished.set()
        return True

    started = time.monotonic()
    assert pool.run("a.png", job, 0.2) is None
    assert time.monotonic() - started < 1.0
    release.set()
    assert finished.wait(5)


def test_a_second_ask_for_the_same_key_joins_the_running_job() -> None:
    pool = DownloadPool()
    release, runs = threading.Event(), []

    def job() -> bool:
        runs.append(1)
        release.wait(10)
        return True

    assert pool.run("a.png", job, 0.1) is None
    threading.Timer(0.2, release.set).start()
    assert pool.run("a.png", job, 5) is True
    assert runs == [1]


def test_asks_beyond_the_backlog_are_answered_at_once() -> None:
    pool = DownloadPool(workers=1, max_pending=2)
    release = threading.Event()

    def job() -> bool:
        return release.wait(10)

    assert pool.run("a.png", job, 0) is None
    assert pool.run("b.png", job, 0) is None
    started = time.monotonic()
    assert pool.run("c.png", job, 5) is None  # refused, not waited for
    assert time.monotonic() - started < 0.5
    release.set()
    deadline = time.monotonic() + 5
    while pool.busy() and time.monotonic() < deadline:
        time.sleep(0.01)
    assert pool.busy() == 0


def test_a_job_that_raises_counts_as_failed_and_the_pool_goes_on() -> None:
    pool = DownloadPool(workers=1)

    def broken() -> bool:
        raise RuntimeError("boom")

    assert pool.run("a.png", broken, 5) is False
    assert pool.run("b.png", lambda: True, 5) is True
