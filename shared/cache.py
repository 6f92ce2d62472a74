"""The cache manager plugins receive (``self.cache_manager``).

Entries live in memory and, when the data is JSON-serialisable, in one file per key
under ``<cache_dir>/plugins/`` (written atomically), so they survive a restart and the
web's cache tab can list and clear them. A memory entry is checked against its file
on every read: a file removed or rewritten by another process is never shadowed by
a stale copy in memory. All methods are thread-safe.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import re
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from shared.errors import AtomicWriteError
from shared.jsonfile import atomic_write_json, read_json

logger = logging.getLogger(__name__)

DEFAULT_MAX_AGE = 300.0
# Seconds a cached value stays fresh, per kind of data.
STRATEGY_MAX_AGE: dict[str, float] = {
    "live_scores": 30.0,
    "stocks": 60.0,
    "weather": 600.0,
    "news": 900.0,
    "schedule": 3600.0,
    "default": DEFAULT_MAX_AGE,
}
_PLAIN_KEY = re.compile(r"[A-Za-z0-9_-][A-Za-z0-9_.-]{0,99}")


def data_type_for_key(key: str) -> str:
    """Return the strategy name a cache key suggests (``live_scores``, ``weather``, ...)."""
    lowered = key.lower()
    if "live" in lowered:
        return "live_scores"
    for name in ("weather", "stocks", "news", "schedule"):
        if name in lowered:
            return name
    if "upcoming" in lowered or "recent" in lowered:
        return "schedule"
    return "default"


class CacheManager:
    """Key-value cache with freshness limits, shared by all plugins of one process."""

    def __init__(self, cache_dir: Path, clock: Callable[[], float] = time.time) -> None:
        self.directory = Path(cache_dir) / "plugins"
        self._clock = clock
        self._lock = threading.Lock()
        self._memory: dict[str, tuple[float, Any, int | None]] = {}
        self._hits = 0
        self._misses = 0
        self._sets = 0

    def get(self, key: str, max_age: float | None = DEFAULT_MAX_AGE) -> Any:
        """Return the cached value when younger than ``max_age`` seconds, else None."""
        with self._lock:
            entry = self._entry(key)
            fresh = entry is not None and (
                max_age is None or self._clock() - entry[0] <= max_age
            )
            if fresh:
                self._hits += 1
                return entry[1] if entry else None
            self._misses += 1
            return None

    def set(self, key: str, data: Any) -> None:
        """Store ``data`` under ``key`` now, in memory and (when JSON-serialisable) on disk."""
        now = self._clock()
        path = self._path(key)
        with self._lock:
            self._sets += 1
            mtime: int | None = None
            try:
                atomic_write_json(path, {"key": key, "saved_at": now, "data": data}, compact=True)
                mtime = path.stat().st_mtime_ns
            except (TypeError, ValueError, AtomicWriteError, OSError) as err:
                logger.debug("cache %s kept in memory only: %s", key, err)
                with contextlib.suppress(OSError):
                    path.unlink()
            self._memory[key] = (now, data, mtime)

    def clear_cache(self, key: str | None = None) -> None:
        """Forget one key, or every key when ``key`` is None."""
        with self._lock:
            if key is not None:
                self._memory.pop(key, None)
                with contextlib.suppress(OSError):
                    self._path(key).unlink()
                return
            self._memory.clear()
            for path in self.directory.glob("*.json"):
                with contextlib.suppress(OSError):
                    path.unlink()

    def get_cached_data_with_strategy(self, key: str, data_type: str = "default") -> Any:
        """Return the cached value if fresh for its kind of data (see STRATEGY_MAX_AGE)."""
        return self.get(key, max_age=STRATEGY_MAX_AGE.get(data_type, DEFAULT_MAX_AGE))

    def get_background_cached_data(self, key: str, sport_key: str | None = None) -> Any:
        """Return data a background fetcher cached, fresh for the kind its key suggests."""
        data_type = data_type_for_key(key if sport_key is None else f"{sport_key}_{key}")
        return self.get_cached_data_with_strategy(key, data_type)

    def get_cache_metrics(self) -> dict[str, Any]:
        """Return hit and miss counts, ``cache_hit_rate`` (0.0-1.0) and the entry count."""
        with self._lock:
            lookups = self._hits + self._misses
            return {
                "hits": self._hits,
                "misses": self._misses,
                "sets": self._sets,
                "cache_hit_rate": self._hits / lookups if lookups else 0.0,
                "memory_entries": len(self._memory),
            }

    def _entry(self, key: str) -> tuple[float, Any, int | None] | None:
        """Return the current entry, re-reading the file when it changed or is new."""
        entry = self._memory.get(key)
        if entry is not None and entry[2] is None:
            return entry  # memory-only value
        path = self._path(key)
        try:
            mtime = path.stat().st_mtime_ns
        except OSError:
            self._memory.pop(key, None)  # cleared by someone else, or never stored
            return None
        if entry is not None and entry[2] == mtime:
            return entry
        try:
            stored = read_json(path)
            loaded = (float(stored["saved_at"]), stored["data"], mtime)
        except (OSError, ValueError, KeyError, TypeError):
            self._memory.pop(key, None)
            return None
        self._memory[key] = loaded
        return loaded

    def _path(self, key: str) -> Path:
        if not isinstance(key, str):
            raise TypeError(f"cache key must be a string, not {type(key).__name__}")
        if _PLAIN_KEY.fullmatch(key):
            return self.directory / f"{key}.json"
        return self.directory / f"key-{hashlib.sha256(key.encode('utf-8')).hexdigest()[:32]}.json"
