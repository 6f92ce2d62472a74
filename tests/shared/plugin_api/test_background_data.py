"""The background fetch service community sports plugins use, against a loopback server."""

from __future__ import annotations

import importlib
import json
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from shared.plugin_api import boundary, compat
from shared.plugin_api.background import callbacks as background_callbacks
from shared.plugin_api.background import data as background_data
from shared.plugin_api.background.data import (
    MAX_WORKERS,
    BackgroundDataService,
    FetchResult,
    FetchStatus,
    get_background_service,
    shutdown_background_service,
)
from shared.plugin_api.cache.manager import CacheManager
from tests.shared.loopback_http import Server, fixed, hold, serving

EVENTS = {"events": [{"id": "401"}, {"id": "402"}]}


class Results:
    """Callback results, waited for by request id."""

    def __init__(self) -> None:
        self.got: dict[str, FetchResult] = {}
        self.plugins: dict[str, str | None] = {}
        self.data: dict[str, Any] = {}
        self.changed = threading.Condition()

    def callback(self, result: FetchResult) -> None:
        with self.changed:
            self.got[result.request_id] = result
            self.plugins[result.request_id] = boundary.current_plugin()
            self.data[result.request_id] = result.data
            self.changed.notify_all()

    def wait(self, request_id: str, timeout: float = 10) -> FetchResult:
        with self.changed:
            assert self.changed.wait_for(lambda: request_id in self.got, timeout)
            return self.got[request_id]


def slow_events(server: Server, seconds: float) -> Callable[[Any], tuple[int, str, bytes]]:
    def route(_handler: Any) -> tuple[int, str, bytes]:
        server.release.wait(seconds)
        return 200, "application/json", json.dumps(EVENTS).encode()

    return route


@pytest.fixture
def server() -> Iterator[Server]:
    with serving({}) as running:
        running.routes.update({
            "/scoreboard": fixed(200, "application/json", json.dumps(EVENTS).encode()),
            "/missing": fixed(404, "text/plain", b"no"),
            "/broken": fixed(500, "text/plain", b"down"),
            "/not-json": fixed(200, "text/html", b"<html></html>"),
            "/no-events": fixed(200, "application/json", b'{"teams": []}'),
            "/slow": slow_events(running, 0.3),
            "/stuck": hold(running, 30),
        })
        yield running


@pytest.fixture
def cache(tmp_path: Path) -> CacheManager:
    return CacheManager(tmp_path)


@pytest.fixture
def service(cache: CacheManager) -> Iterator[BackgroundDataService]:
    shutdown_background_service()
    yield get_background_service(cache, max_workers=1)
    shutdown_background_service()


def test_a_fetch_lands_in_the_cache_and_reaches_the_callback(
        service: BackgroundDataService, server: Server, cache: CacheManager, tmp_path: Path
) -> None:
    results = Results()

    request_id = service.submit_fetch_request("nfl", 2026, server.url("/scoreboard"),
                                              cache_key="nfl_2026", params={"limit": 500},
                                              callback=results.callback)

    result = results.wait(request_id)
    assert result.success and result.error is None and not result.cached
    assert results.data[request_id] == EVENTS
    assert cache.get("nfl_2026") == EVENTS
    assert (tmp_path / "plugins" / "nfl_2026.json").is_file()
    assert service.get_request_status(request_id) is FetchStatus.COMPLETED
    assert service.is_request_complete(request_id)
    deadline = time.monotonic() + 5  # let go of once every callback has returned
    while result.data is not None and time.monotonic() < deadline:
        time.sleep(0.01)
    assert result.data is None  # handed over; the cache keeps it


def test_a_cached_value_answers_without_a_request(service: BackgroundDataService,
                                                  server: Server, cache: CacheManager) -> None:
    cache.set("nfl_2026", EVENTS)
    results = Results()

    request_id = service.submit_fetch_request("nfl", 2026, server.url("/scoreboard"),
                                              cache_key="nfl_2026", callback=results.callback)

    result = results.wait(request_id, timeout=0)  # delivered before submit returned
    assert result.cached and result.success and results.data[request_id] == EVENTS
    assert server.hits["/scoreboard"] == 0


@pytest.mark.parametrize(("route", "hits", "error"), [
    ("/missing", 1, "HTTP 404"),
    ("/broken", 2, "HTTP 500"),
    ("/not-json", 1, "not JSON"),
    ("/no-events", 1, "no 'events' list"),
])
def test_a_failing_fetch_is_recorded_not_raised(service: BackgroundDataService, server: Server,
                                                cache: CacheManager, route: str, hits: int,
                                                error: str) -> None:
    results = Results()

    request_id = service.submit_fetch_request("nfl", 2026, server.url(route), cache_key="k",
                                              max_retries=1, callback=results.callback)

    result = results.wait(request_id)
    assert not result.success and error in (result.error or "")
    assert service.get_result(request_id) is result
    assert service.get_request_status(request_id) is FetchStatus.FAILED
    assert server.hits[route] == hits  # 5xx is tried again, the others are not
    assert cache.get("k") is None


def test_more_requests_than_workers_all_complete_on_a_bounded_pool(
        service: BackgroundDataService, server: Server, cache: CacheManager) -> None:
    service = get_background_service(cache, max_workers=50)  # grows, to the cap only
    results = Results()

    ids = [service.submit_fetch_request("nfl", 2026, server.url("/slow"), cache_key=f"k{n}",
                                        callback=results.callback) for n in range(9)]

    assert all(results.wait(request_id).success for request_id in ids)
    assert service.max_workers == MAX_WORKERS
    assert server.most_running == MAX_WORKERS
    pool = [t for t in threading.enumerate() if t.name.startswith("background-data-")]
    assert len(pool) == MAX_WORKERS and all(t.daemon for t in pool)
    assert all(cache.get(f"k{n}") == EVENTS for n in range(9))


def test_requests_for_a_key_in_flight_join_the_running_fetch(
        service: BackgroundDataService, server: Server) -> None:
    results = Results()

    first = service.submit_fetch_request("nfl", 2026, server.url("/slow"), cache_key="season",
                                         callback=results.callback)
    second = service.submit_fetch_request("nfl", 2026, server.url("/slow"), cache_key="season",
                                          callback=results.callback)

    assert second == first
    results.wait(first)
    with results.changed:
        assert results.changed.wait_for(lambda: len(results.data) == 1, 1)
    assert server.hits["/slow"] == 1


def test_the_service_is_one_per_process(service: BackgroundDataService,
                                        cache: CacheManager, tmp_path: Path) -> None:
    assert get_background_service() is service
    assert get_background_service(CacheManager(tmp_path / "other")) is service

    shutdown_background_service()
    with pytest.raises(ValueError, match="cache_manager"):
        get_background_service()
    assert get_background_service(cache) is not service


def mark_threads_as_the_display_does(monkeypatch: pytest.MonkeyPatch) -> None:
    """Threads started inside a plugin call carry its id (display_service.plugins.containment)."""
    real_start = threading.Thread.start

    def start(self: threading.Thread) -> None:
        if boundary.current_plugin() is not None:
            setattr(self, boundary.STARTED_BY, boundary.current_plugin())
        real_start(self)

    monkeypatch.setattr(threading.Thread, "start", start)


def test_a_fetch_runs_for_the_plugin_that_asked(service: BackgroundDataService, server: Server,
                                                tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                                ) -> None:
    mark_threads_as_the_display_does(monkeypatch)  # the pool starts inside the plugin's call
    results = Results()

    with boundary.plugin_call("nfl-board", "update"):
        asked = service.submit_fetch_request("nfl", 2026, server.url("/scoreboard"),
                                             cache_key="mine", callback=results.callback)
    results.wait(asked)
    core = service.submit_fetch_request("nfl", 2026, server.url("/scoreboard"),
                                        cache_key="core", callback=results.callback)
    results.wait(core)

    assert results.plugins == {asked: "nfl-board", core: None}
    owners = {p.stem: json.loads(p.read_text())["owner"]
              for p in (tmp_path / "plugins").glob("*.json")}
    assert owners == {"mine": "nfl-board", "core": "core"}


def test_a_callback_that_raises_leaves_the_pool_working(service: BackgroundDataService,
                                                        server: Server) -> None:
    def explode(_result: FetchResult) -> None:
        raise SystemExit("a plugin's callback ending the process")

    service.submit_fetch_request("nfl", 2026, server.url("/scoreboard"), cache_key="a",
                                 callback=explode)
    results = Results()
    later = service.submit_fetch_request("nfl", 2026, server.url("/scoreboard"),
                                         cache_key="b", callback=results.callback)

    assert results.wait(later).success


def test_callbacks_that_never_return_hold_no_fetch_worker(cache: CacheManager,
                                                          server: Server) -> None:
    shutdown_background_service()
    service = get_background_service(cache, max_workers=MAX_WORKERS)
    release = threading.Event()
    try:
        for n in range(MAX_WORKERS):
            service.submit_fetch_request("nfl", 2026, server.url("/scoreboard"),
                                         cache_key=f"stuck-{n}",
                                         callback=lambda _result: release.wait(30))
        later = service.submit_fetch_request("nfl", 2026, server.url("/scoreboard"),
                                             cache_key="later")
        deadline = time.monotonic() + 10
        while not service.is_request_complete(later) and time.monotonic() < deadline:
            time.sleep(0.01)
        assert service.get_request_status(later) is FetchStatus.COMPLETED
    finally:
        release.set()
        shutdown_background_service()


def test_a_stuck_callback_is_given_up_on_and_later_callbacks_still_run(
        service: BackgroundDataService, server: Server, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    monkeypatch.setattr(background_callbacks, "CALLBACK_LIMIT", 0.3)
    release, entered = threading.Event(), threading.Event()

    def stuck(_result: FetchResult) -> None:
        entered.set()
        release.wait(30)

    try:
        with boundary.plugin_call("nfl-board", "update"):
            service.submit_fetch_request("nfl", 2026, server.url("/scoreboard"),
                                         cache_key="a", callback=stuck)
        assert entered.wait(5)
        time.sleep(0.4)
        results = Results()
        later = service.submit_fetch_request("nfl", 2026, server.url("/scoreboard"),
                                             cache_key="b", callback=results.callback)
        assert results.wait(later).success
    finally:
        release.set()
    assert "nfl-board: background fetch callback still running after 0.3 s" in caplog.text


def test_shutdown_cancels_waiting_requests_and_ends_the_workers(
        service: BackgroundDataService, server: Server) -> None:
    running = service.submit_fetch_request("nfl", 2026, server.url("/stuck"), cache_key="a",
                                           timeout=2, max_retries=0)
    waiting = service.submit_fetch_request("nfl", 2026, server.url("/stuck"), cache_key="b")
    pool = [t for t in threading.enumerate() if t.name.startswith("background-data-")]
    deadline = time.monotonic() + 5
    while server.hits["/stuck"] == 0 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert service.get_request_status(running) is FetchStatus.IN_PROGRESS

    started = time.monotonic()
    shutdown_background_service()

    assert time.monotonic() - started < 6
    assert not any(t.is_alive() for t in pool)
    assert service.get_request_status(waiting) is FetchStatus.CANCELLED
    assert service.get_request_status(running) is FetchStatus.FAILED
    late = service.submit_fetch_request("nfl", 2026, server.url("/scoreboard"), cache_key="c")
    assert service.get_request_status(late) is FetchStatus.FAILED


def test_community_import_names_resolve_to_these_modules(
        monkeypatch: pytest.MonkeyPatch) -> None:
    assert compat.ALIASES["src.background_data_service"] == "shared.plugin_api.background.data"
    assert compat.ALIASES["src.logo_downloader"] == "shared.plugin_api.logos.downloader"
    for name in ("src.background_data_service", "src.logo_downloader"):
        monkeypatch.delitem(sys.modules, name, raising=False)
    compat.install()
    try:
        from src.background_data_service import get_background_service as aliased  # type: ignore
        from src.logo_downloader import LogoDownloader, download_missing_logo  # type: ignore

        import shared.plugin_api.logos.downloader as ours
        assert aliased is get_background_service
        assert LogoDownloader is ours.LogoDownloader
        assert download_missing_logo is ours.download_missing_logo
        assert importlib.import_module("src.background_data_service") is background_data
    finally:
        for name in ("src.background_data_service", "src.logo_downloader"):
            sys.modules.pop(name, None)
