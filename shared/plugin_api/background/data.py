"""Background fetches for plugins: the ``src.background_data_service`` names of the existing API.

Sports boards hand slow GETs (a season's schedule) to one service per process so their
``update()`` returns at once: ``get_background_service(cache_manager)`` returns it,
``submit_fetch_request(sport, year, url, cache_key, ...)`` queues a GET and returns a
request id; the JSON answer is stored with ``cache_manager.set(cache_key, data)`` and
handed to the request's ``callback`` as a ``FetchResult`` (``success``, ``data``,
``error``); ``get_result`` / ``get_request_status`` look a request up later. A second
request for a key already being fetched joins that fetch instead of starting another.

- At most ``MAX_WORKERS`` daemon threads, whatever plugins ask for (the Pi's cores are
  shared with the display), at most ``MAX_QUEUED`` requests waiting, at most
  ``MAX_RESULTS`` finished results kept.
- A fetch runs for the plugin that submitted it: what it caches counts against that
  plugin's allowance, and its callback runs inside ``boundary.plugin_call`` under that
  id (its log lines, the call trail).
- Nothing raises out of a fetch: a failing GET is retried (``background_fetch``), then
  recorded as a failed result and logged with the plugin id first.
- Callbacks never hold a fetch worker: ``background_callbacks`` calls them on a thread
  of their own, gives up on one still running after ``CALLBACK_LIMIT`` seconds, and logs
  one that raises, with its traceback (it is not counted in the plugin's error record).
  Only an answer from the cache, or a request refused, is handed to the callback at
  once, on the submitting thread.
"""

from __future__ import annotations

import contextlib
import enum
import itertools
import logging
import queue
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import requests

from shared.plugin_api import boundary
from shared.plugin_api.background import callbacks as background_callbacks
from shared.plugin_api.background.callbacks import CallbackDelivery, Callbacks
from shared.plugin_api.background.fetch import fetch_events

logger = logging.getLogger(__name__)

MAX_WORKERS = 3
MAX_QUEUED = 64
MAX_RESULTS = 200
MAX_RETRIES = 5
MAX_TIMEOUT = 60.0

Callback = Callable[["FetchResult"], Any]


class FetchStatus(enum.Enum):
    """Where a request stands."""

    PENDING = "pending"
    IN_PROGRESS = "in_progress"
    COMPLETED = "completed"
    FAILED = "failed"
    CANCELLED = "cancelled"


@dataclass
class FetchResult:
    """The outcome of one request, as callbacks and ``get_result`` see it."""

    request_id: str
    success: bool
    data: Any = None
    error: str | None = None
    cached: bool = False
    fetch_time: float = 0.0
    retry_count: int = 0
    completed_at: float = field(default_factory=time.time)
    final_status: FetchStatus | None = None


@dataclass
class _Request:
    id: str
    sport: str
    year: int
    url: str
    cache_key: str
    params: dict[str, Any]
    headers: dict[str, str]
    timeout: float
    max_retries: int
    owner: str | None
    callbacks: Callbacks  # with the plugin that gave each
    status: FetchStatus = FetchStatus.PENDING


class BackgroundDataService:
    """A small pool of daemon threads that fetch JSON into the cache for plugins."""

    # Plugins check this before handing the service a season date range; False makes
    # them fetch such ranges themselves, in the pieces ESPN accepts.
    handles_espn_date_ranges = False

    def __init__(self, cache_manager: Any, max_workers: int = MAX_WORKERS,
                 request_timeout: float = 30) -> None:
        self.cache_manager = cache_manager
        self.max_workers = int(_clamp(max_workers, 1, MAX_WORKERS, MAX_WORKERS))
        self.request_timeout = _clamp(request_timeout, 1.0, MAX_TIMEOUT, 30.0)
        self.session = requests.Session()
        self._lock = threading.Lock()
        self._queue: queue.Queue[_Request | None] = queue.Queue(MAX_QUEUED)
        self._workers: list[threading.Thread] = []
        self._stopping = threading.Event()
        self._ids = itertools.count(1)
        self._active: dict[str, _Request] = {}
        self._in_flight: dict[str, str] = {}  # cache key -> id of the request fetching it
        self._results: OrderedDict[str, FetchResult] = OrderedDict()
        self._callbacks = CallbackDelivery()
        self.stats = {"total_requests": 0, "completed_requests": 0, "failed_requests": 0,
                      "cached_hits": 0, "cache_misses": 0, "deduplicated_requests": 0}

    def get_sport_cache_key(self, sport: str, date_str: str | None = None) -> str:
        """Return the cache key for a sport's data of one day (today, UTC, by default)."""
        day = date_str or datetime.now(UTC).strftime("%Y%m%d")
        return f"{sport}_{day}"

    def submit_fetch_request(
        self, sport: str, year: int, url: str, cache_key: str | None = None,
        params: dict[str, Any] | None = None, headers: dict[str, str] | None = None,
        timeout: float | None = None, max_retries: int = 3, priority: int = 1,
        callback: Callback | None = None, slim_payload: bool = True,
    ) -> str:
        """Queue a GET of ``url`` whose JSON goes to the cache under ``cache_key``; return its id.

        A fresh cached value answers at once (the callback runs before this returns).
        ``priority`` and ``slim_payload`` are accepted and ignored: requests run in order.
        """
        key = cache_key or self.get_sport_cache_key(sport)
        request_id = f"{sport}_{year}_{int(time.time() * 1000)}_{next(self._ids)}"
        owner = boundary.current_plugin()
        callbacks = [(callback, owner)] if callback is not None else []
        if self._stopping.is_set():
            return self._refuse(request_id, callbacks, "the background service is shut down")
        cached = self._cached(key)
        if cached is not None:
            with self._lock:
                self.stats["cached_hits"] += 1
                result = self._store(FetchResult(request_id, True, cached, cached=True,
                                                 final_status=FetchStatus.COMPLETED))
            _deliver_now(result, callbacks)
            return request_id
        request = _Request(
            request_id, sport, year, url, key, dict(params or {}), dict(headers or {}),
            _clamp(timeout, 1.0, MAX_TIMEOUT, self.request_timeout),
            int(_clamp(max_retries, 0, MAX_RETRIES, 3)), owner, callbacks)
        with self._lock:
            joined = self._active.get(self._in_flight.get(key, ""))
            if joined is not None:
                joined.callbacks.extend(callbacks)
                self.stats["deduplicated_requests"] += 1
                return joined.id
            try:
                self._queue.put_nowait(request)
            except queue.Full:
                queued = False
            else:
                queued = True
                self._active[request_id] = request
                self._in_flight[key] = request_id
                self.stats["total_requests"] += 1
                self.stats["cache_misses"] += 1
                self._start_workers()
        if not queued:
            return self._refuse(request_id, callbacks,
                                f"more than {MAX_QUEUED} background fetches are waiting")
        return request_id

    def get_result(self, request_id: str) -> FetchResult | None:
        """Return a finished request's result, or None while it runs (or when unknown)."""
        with self._lock:
            return self._results.get(request_id)

    def is_request_complete(self, request_id: str) -> bool:
        """Return whether the request has finished (well or not)."""
        with self._lock:
            return request_id in self._results

    def get_request_status(self, request_id: str) -> FetchStatus | None:
        """Return where the request stands, or None when it is unknown."""
        with self._lock:
            if request_id in self._active:
                return self._active[request_id].status
            result = self._results.get(request_id)
        if result is None:
            return None
        return result.final_status or (FetchStatus.COMPLETED if result.success
                                       else FetchStatus.FAILED)

    def cancel_request(self, request_id: str) -> bool:
        """Cancel a request that has not started; return whether it was cancelled."""
        with self._lock:
            request = self._active.get(request_id)
            if request is None or request.status is not FetchStatus.PENDING:
                return False
            request.status = FetchStatus.CANCELLED
            self._finish(request, FetchResult(request_id, False, error="cancelled",
                                              final_status=FetchStatus.CANCELLED))
            return True

    def get_statistics(self) -> dict[str, Any]:
        """Return request counts, the pool size and how many requests wait or run."""
        with self._lock:
            return {**self.stats, "active_requests": len(self._active),
                    "completed_requests_count": len(self._results),
                    "max_completed_requests": MAX_RESULTS, "max_workers": self.max_workers,
                    "workers": len(self._workers)}

    def shutdown(self, wait: bool = True, timeout: float = 5.0) -> None:
        """Cancel what waits, let running fetches end, stop the workers."""
        self._stopping.set()
        with self._lock:
            for request in list(self._active.values()):
                if request.status is FetchStatus.PENDING:
                    request.status = FetchStatus.CANCELLED
                    self._finish(request, FetchResult(request.id, False, error="cancelled",
                                                      final_status=FetchStatus.CANCELLED))
            workers = list(self._workers)
        for _ in workers:
            with contextlib.suppress(queue.Full):
                self._queue.put_nowait(None)  # one stop mark per worker
        deadline = time.monotonic() + timeout
        if wait:
            for worker in workers:
                worker.join(max(0.0, deadline - time.monotonic()))
        self._callbacks.close(max(0.0, deadline - time.monotonic()) if wait else 0.0)
        self.session.close()

    def _start_workers(self) -> None:
        """Start the pool's threads (caller holds the lock)."""
        while len(self._workers) < self.max_workers:
            worker = threading.Thread(target=self._work, daemon=True,
                                      name=f"background-data-{len(self._workers) + 1}")
            self._workers.append(worker)
            worker.start()

    def _work(self) -> None:
        # The pool serves every plugin: whichever plugin's call started this thread has
        # no claim on it (the display marks threads with their starter's id).
        _act_for(None)
        while not self._stopping.is_set():
            request = self._queue.get()
            if request is None:
                return
            try:
                self._run(request)
            except Exception:  # a worker must outlive any surprise, or the pool shrinks
                logger.exception("%s: background fetch %s failed unexpectedly",
                                 request.owner or "core", request.id)

    def _run(self, request: _Request) -> None:
        with self._lock:
            if request.status is not FetchStatus.PENDING:
                return  # cancelled while it waited
            request.status = FetchStatus.IN_PROGRESS
        started = time.monotonic()
        with _acting_for(request.owner):
            data, error, retries = fetch_events(
                self.session, request.url, params=request.params, headers=request.headers,
                timeout=request.timeout, max_retries=request.max_retries, stop=self._stopping)
            if error is None:
                error = self._cache(request.cache_key, data)
        result = FetchResult(request.id, error is None, data if error is None else None, error,
                             fetch_time=time.monotonic() - started, retry_count=retries,
                             final_status=FetchStatus.COMPLETED if error is None
                             else FetchStatus.FAILED)
        if error is not None:
            logger.warning("%s: background fetch of %s %s failed: %s",
                           request.owner or "core", request.sport, request.year, error)
        with self._lock:
            request.status = result.final_status or FetchStatus.FAILED
            self._finish(request, result)
            self.stats["completed_requests" if error is None else "failed_requests"] += 1
        if request.callbacks:
            self._callbacks.deliver(result, request.callbacks)

    def _cache(self, key: str, data: Any) -> str | None:
        """Store ``data`` under ``key``; return why it could not be, or None."""
        try:
            self.cache_manager.set(key, data)
        except Exception as err:  # the plugin's cache manager is not ours to trust
            logger.exception("background fetch: caching %r failed", key)
            return f"the answer could not be cached: {err}"
        return None

    def _cached(self, key: str) -> Any:
        try:
            return self.cache_manager.get(key) or None
        except Exception:  # the plugin's cache manager is not ours to trust
            logger.exception("background fetch: cache lookup of %r failed", key)
            return None

    def _refuse(self, request_id: str, callbacks: Callbacks, why: str) -> str:
        logger.warning("%s: background fetch %s not queued: %s",
                       boundary.current_plugin() or "core", request_id, why)
        with self._lock:
            self.stats["failed_requests"] += 1
            result = self._store(FetchResult(request_id, False, error=why,
                                             final_status=FetchStatus.FAILED))
        _deliver_now(result, callbacks)
        return request_id

    def _finish(self, request: _Request, result: FetchResult) -> None:
        """File a request's result and forget it as active (caller holds the lock)."""
        self._active.pop(request.id, None)
        if self._in_flight.get(request.cache_key) == request.id:
            del self._in_flight[request.cache_key]
        self._store(result)

    def _store(self, result: FetchResult) -> FetchResult:
        """Keep ``result``, dropping the oldest beyond MAX_RESULTS (caller holds the lock)."""
        self._results[result.request_id] = result
        while len(self._results) > MAX_RESULTS:
            self._results.popitem(last=False)
        return result


def _deliver_now(result: FetchResult, callbacks: Callbacks) -> None:
    """Hand ``result`` to its callbacks on this thread, then let go of its data."""
    for callback, owner in callbacks:
        background_callbacks.call(result, callback, owner)
    if callbacks:  # the cache has it (see background_callbacks: megabytes)
        result.data = None


def _clamp(value: Any, low: float, high: float, default: float) -> float:
    """Return ``value`` as a number within [low, high]; ``default`` when it is no number."""
    if isinstance(value, bool) or not isinstance(value, int | float) or value != value:
        return default
    return max(low, min(high, value))


def _act_for(owner: str | None) -> None:
    """Make ``boundary.current_plugin()`` on this thread answer ``owner``."""
    setattr(threading.current_thread(), boundary.STARTED_BY, owner)


@contextlib.contextmanager
def _acting_for(owner: str | None) -> Iterator[None]:
    """Run the block as ``owner``'s work (its cache allowance, its log lines), untracked.

    Not a ``plugin_call``: a GET may take a minute, and a daemon that dies meanwhile
    should not blame (and rest) the plugin that merely asked for it.
    """
    _act_for(owner)
    try:
        yield
    finally:
        _act_for(None)


_service: BackgroundDataService | None = None
_service_lock = threading.Lock()


def get_background_service(cache_manager: Any = None, max_workers: int = MAX_WORKERS
                           ) -> BackgroundDataService:
    """Return the process's background service, creating it on the first call.

    The first call must give ``cache_manager`` (ValueError otherwise). A later call that
    asks for more workers grows the pool, never beyond ``MAX_WORKERS``.
    """
    global _service
    with _service_lock:
        if _service is None:
            if cache_manager is None:
                raise ValueError("the first get_background_service() call needs a cache_manager")
            _service = BackgroundDataService(cache_manager, max_workers)
        else:
            wanted = int(_clamp(max_workers, 1, MAX_WORKERS, 1))
            with _service._lock:
                _service.max_workers = max(_service.max_workers, wanted)
                if _service._workers:
                    _service._start_workers()
        return _service


def shutdown_background_service(timeout: float = 5.0) -> None:
    """Stop the process's background service, waiting up to ``timeout`` seconds for its
    running fetches; the next ``get_background_service`` starts anew."""
    global _service
    with _service_lock:
        service, _service = _service, None
    if service is not None:
        service.shutdown(timeout=timeout)
