"""The plugin store's registry: every source's entries, merged, cached on disk with a TTL.

    reg = Registry(cache_dir, sources, session=None, ttl=TTL)
    reg.entries(refresh=False) -> RegistryView    # plugins, stale, warnings, fetched_at
    reg.cached() -> RegistryView | None           # the cache only, never the network
    reg.find(plugin_id) -> dict | None            # one entry (what the install job calls)

``entries`` answers from ``<cache_dir>/store/registry.json`` while it is younger than
``ttl`` and was made from the same sources; otherwise (or with ``refresh=True``) it
fetches every source (``registry_fetch``). Entries of several sources are merged: the
first source wins on a duplicate id, and each entry's ``source`` names its source URL.
A source that fails keeps its entries from the previous cache and makes the view
``stale`` with a warning naming it; when every source fails the cache is served stale,
and with no cache at all ``RegistryUnavailable`` (503) is raised. After a failed fetch
the TTL path waits ``RETRY_AFTER`` seconds before trying the network again (an explicit
refresh always tries). Nothing here runs at import or in the background: only the store
list route and the store jobs call ``entries``/``find``.

A refresh never holds a request for long: the sources are fetched by at most
``MAX_WORKERS`` threads at once and the whole refresh ends after ``REFRESH_DEADLINE``
seconds (a source still fetching then counts as failed). While one refresh runs, other
callers do not queue behind it: with a cache they get it at once, marked ``refreshing``;
with none they wait up to ``NO_CACHE_WAIT`` seconds, then get ``RegistryUnavailable``.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Sequence
from concurrent.futures import Future, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from shared.errors import AtomicWriteError, LedpanelError
from web_service.store.registry.cache import cache_file, read_cache, write_cache
from web_service.store.registry.sources import Source, SourceError
from web_service.store.registry.sources import sources as store_sources

if TYPE_CHECKING:  # requests is loaded by the first fetch, not with the web daemon
    import requests

    from web_service.services import WebServices

logger = logging.getLogger(__name__)

TTL = 3600.0
RETRY_AFTER = 60.0
LOCK_WAIT = 0.5  # seconds a caller with a cache waits for another refresh
NO_CACHE_WAIT = 20.0  # seconds a caller without one waits
REFRESH_DEADLINE = 30.0  # seconds for a whole refresh, every source together
MAX_WORKERS = 4

_locks: dict[Path, threading.Lock] = {}
_failed_at: dict[Path, float] = {}
_offline: set[Path] = set()  # registries whose every source failed at the last fetch
_locks_lock = threading.Lock()


class RegistryUnavailable(LedpanelError):
    """No registry was ever fetched and no source can be reached now."""

    error_code = "REGISTRY_UNAVAILABLE"
    status = 503
    logged = True  # the outage is logged here once, not by the error handler per visit


@dataclass(frozen=True)
class RegistryView:
    """The merged entries (in source order) and how fresh they are."""

    plugins: list[dict[str, Any]]
    stale: bool = False
    warnings: list[str] = field(default_factory=list)
    fetched_at: str | None = None
    refreshing: bool = False
    by_id: dict[str, dict[str, Any]] = field(default_factory=dict, repr=False)


class Registry:
    """The registry of one cache folder for a list of sources."""

    def __init__(self, cache_dir: Path, sources: Sequence[Source],
                 session: requests.Session | None = None, *, ttl: float = TTL) -> None:
        self.path = cache_file(cache_dir)
        self.sources = list(sources)
        self.session = session
        self.ttl = ttl

    def cached(self) -> RegistryView | None:
        """Return the cached registry as it is (any age, any sources), or None."""
        data = read_cache(self.path)
        return None if data is None else _view(data)

    def entries(self, refresh: bool = False) -> RegistryView:
        """Return the registry, fetching it when asked, expired or never fetched."""
        data = read_cache(self.path)
        if not refresh and data is not None and self._fresh(data):
            return _view(data)
        lock = _lock_for(self.path)
        if not lock.acquire(timeout=LOCK_WAIT):
            if data is not None:
                return _view(data, refreshing=True, note="the sources are being fetched; "
                                                         "showing the cached list")
            if not lock.acquire(timeout=NO_CACHE_WAIT):
                raise RegistryUnavailable(
                    "the plugin registry is being fetched and nothing is cached yet; try "
                    "again in a moment", details={"sources": [s.url for s in self.sources]})
            waited = read_cache(self.path)  # the other refresh wrote it
            if waited is not None or self._recently_failed():
                lock.release()  # it failed just now: no second full fetch for this one
                if waited is None:
                    raise RegistryUnavailable(
                        "no plugin registry source could be read a moment ago and nothing "
                        "is cached yet", details={"sources": [s.url for s in self.sources]})
                return _view(waited)
        try:
            data = read_cache(self.path)  # another request may have refreshed meanwhile
            if not refresh and data is not None and self._fresh(data):
                return _view(data)
            if not refresh and data is not None and self._recently_failed():
                return _view(data, stale=True, note="the sources could not be reached a "
                                                    "moment ago; showing the cached list")
            return self._refresh(data)
        finally:
            lock.release()

    def find(self, plugin_id: str) -> dict[str, Any] | None:
        """Return the entry of ``plugin_id``, or None when no source lists it."""
        return self.entries().by_id.get(plugin_id)

    def _fresh(self, data: dict[str, Any]) -> bool:
        age = time.time() - float(data["fetched_ts"])
        return 0 <= age < self.ttl and data["sources"] == [s.url for s in self.sources]

    def _recently_failed(self) -> bool:
        with _locks_lock:
            failed = _failed_at.get(self.path)
        return failed is not None and time.monotonic() - failed < RETRY_AFTER

    def _refresh(self, old: dict[str, Any] | None) -> RegistryView:
        merged, warnings, failures = self._fetch_all(old)
        if len(failures) == len(self.sources):
            self._log_outage(failures, old is not None)
            if old is None:
                raise RegistryUnavailable("no plugin registry source could be read and nothing "
                                          "is cached yet: " + "; ".join(failures),
                                          details={"sources": [s.url for s in self.sources]})
            return _view(old, stale=True, note=None, extra=failures)
        with _locks_lock:
            _failed_at.pop(self.path, None)
            back = self.path in _offline
            _offline.discard(self.path)
        if back:
            logger.info("store registry: reachable again")
        now = time.time()
        data = {"fetched_ts": now, "fetched_at": _iso(now),
                "sources": [s.url for s in self.sources], "stale": bool(failures),
                "warnings": failures + warnings, "plugins": merged}
        try:
            write_cache(self.path, data)
        except AtomicWriteError as err:
            logger.warning("store registry: cache not written: %s", err.message)
        logger.info("store registry: %d plugins from %d sources (%d failed)", len(merged),
                    len(self.sources), len(failures))
        return _view({**data, "by_id": {e["id"]: e for e in merged}})

    def _log_outage(self, failures: list[str], cached: bool) -> None:
        """Remember the failed fetch; log it once per outage (a WARNING: being offline
        is no fault of the device), and at debug level while it lasts."""
        with _locks_lock:
            _failed_at[self.path] = time.monotonic()
            first = self.path not in _offline
            _offline.add(self.path)
        if not first:
            logger.debug("store registry: still unreachable: %s", "; ".join(failures))
            return
        logger.warning("store registry: unreachable (%s); %s until it answers again (logged "
                       "once)", "; ".join(failures),
                       "the cached list is shown" if cached else "the store has no list")

    def _fetch_one(self, source: Source) -> tuple[list[dict[str, Any]], list[str]]:
        from web_service.store.destinations import store_session
        from web_service.store.registry.fetch import fetch_source

        session = self.session or store_session()
        try:
            return fetch_source(session, source)
        finally:
            if self.session is None:
                session.close()

    def _fetch_all(self, old: dict[str, Any] | None
                   ) -> tuple[list[dict[str, Any]], list[str], list[str]]:
        merged: dict[str, dict[str, Any]] = {}
        warnings: list[str] = []
        failures: list[str] = []
        pool = ThreadPoolExecutor(max_workers=max(1, min(MAX_WORKERS, len(self.sources))),
                                  thread_name_prefix="registry-fetch")
        try:
            futures = [pool.submit(self._fetch_one, source) for source in self.sources]
            wait(futures, timeout=REFRESH_DEADLINE)
        finally:
            # Stragglers end on their own request timeouts; nobody waits for them.
            pool.shutdown(wait=False, cancel_futures=True)
        for source, future in zip(self.sources, futures, strict=True):
            try:
                entries, found = _outcome(future, source)
            except SourceError as err:
                failures.append(f"{err} (its entries are from the last fetch)"
                                if old is not None else str(err))
                entries = [e for e in (old or {}).get("plugins", [])
                           if e.get("source") == source.url]
                found = []
            warnings.extend(found)
            for entry in entries:
                if entry["id"] in merged:
                    warnings.append(f"{source.url}: {entry['id']!r} is skipped: "
                                    f"{merged[entry['id']]['source']} lists it first")
                else:
                    merged[entry["id"]] = entry
        for warning in warnings:
            logger.warning("store registry: %s", warning)
        return list(merged.values()), warnings, failures


def _outcome(future: Future[tuple[list[dict[str, Any]], list[str]]], source: Source
             ) -> tuple[list[dict[str, Any]], list[str]]:
    """Return a finished fetch's result; raise SourceError for any other outcome."""
    if future.cancelled():  # still queued when the refresh's time ran out
        raise SourceError(f"{source.url} was not fetched: the refresh ran out of its "
                          f"{REFRESH_DEADLINE:g} s")
    if not future.done():
        future.cancel()
        raise SourceError(f"{source.url} did not answer within {REFRESH_DEADLINE:g} s")
    try:
        return future.result()
    except SourceError:
        raise
    except Exception as err:  # a fetch that failed in an unexpected way: that source only
        logger.exception("store registry: fetching %s failed", source.url)
        raise SourceError(f"{source.url} could not be read ({type(err).__name__})") from err


def _view(data: dict[str, Any], *, stale: bool = False, note: str | None = None,
          extra: Sequence[str] = (), refreshing: bool = False) -> RegistryView:
    warnings = list(extra) + ([note] if note else []) + list(data["warnings"])
    return RegistryView(plugins=data["plugins"], stale=stale or bool(data.get("stale")),
                        warnings=warnings, fetched_at=data.get("fetched_at"),
                        refreshing=refreshing,
                        by_id=data.get("by_id") or {e["id"]: e for e in data["plugins"]})


def _lock_for(path: Path) -> threading.Lock:
    with _locks_lock:
        return _locks.setdefault(path, threading.Lock())


def _iso(stamp: float) -> str:
    return datetime.fromtimestamp(stamp, UTC).isoformat(timespec="seconds")


def current_registry(svc: WebServices) -> Registry:
    """Return the plugin store's registry for the sources in force now (no fetch)."""
    config = svc.store.main_snapshot().data
    return Registry(svc.settings.paths.cache_dir, store_sources(config))
