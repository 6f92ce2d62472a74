"""The cache manager plugins receive (``self.cache_manager``).

Entries live in memory and, when the data is JSON-serialisable, in one file per key
under ``<cache_dir>/plugins/`` (written atomically; never among the bus files), so they
survive a restart and can be listed and cleared from outside the process. A memory entry is
checked against its file on every read: a file removed or rewritten by another process
is never shadowed by a stale copy in memory. All methods are thread-safe.

Keys are shared by all plugins (a key one plugin sets, another can read). A key that is
not a plain file name (a ``/``, ``..``, NUL, over 100 characters, ...) is stored under
a hash of itself, so no key reaches outside the folder. Each owner (the plugin whose
call stored the entry, else ``core``) may hold at most ``owner_limit_bytes`` on disk
(16 MiB by default): a new entry evicts that owner's oldest entries, and an entry
larger than the whole allowance is refused with a warning, the old value kept.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import re
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from shared.errors import AtomicWriteError
from shared.files.jsonfile import atomic_write_bytes, read_json
from shared.plugin_api.boundary import current_plugin
from shared.plugin_api.cache.quota import CORE_OWNER, QuotaIndex, Stored

logger = logging.getLogger(__name__)

DEFAULT_MAX_AGE = 300.0
DEFAULT_OWNER_LIMIT_BYTES = 16 * 1024 * 1024
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

    def __init__(
        self,
        cache_dir: Path,
        clock: Callable[[], float] = time.time,
        *,
        owner_limit_bytes: int = DEFAULT_OWNER_LIMIT_BYTES,
    ) -> None:
        self.directory = Path(cache_dir) / "plugins"
        self.owner_limit_bytes = owner_limit_bytes
        # The config manager plugins reach as ``cache_manager.config_manager``; the
        # plugin manager sets it.
        self.config_manager: Any = None
        self._clock = clock
        self._quota = QuotaIndex(self.directory)
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
        owner = current_plugin() or CORE_OWNER
        try:
            encoded: bytes | None = json.dumps(
                {"owner": owner, "key": key, "saved_at": now, "data": data},
                separators=(",", ":")).encode("utf-8")
        except (TypeError, ValueError) as err:
            logger.debug("cache %s kept in memory only: %s", key, err)
            encoded = None
        with self._lock:
            self._sets += 1
            if encoded is not None and not self._make_room(owner, path.name, len(encoded)):
                logger.warning("%s: cache key %r not stored: %d bytes is more than the %d "
                               "an owner may hold", owner, key[:80], len(encoded),
                               self.owner_limit_bytes)
                return  # refused: whatever was stored under the key stays
            mtime = None if encoded is None else self._write(owner, key, path, encoded)
            if mtime is None:
                with contextlib.suppress(OSError):
                    path.unlink()
                self._quota.forget(path.name)
            self._memory[key] = (now, data, mtime)

    def _write(self, owner: str, key: str, path: Path, encoded: bytes) -> int | None:
        """Write one entry's file; return its mtime, or None when it could not be written."""
        try:
            atomic_write_bytes(path, encoded)
            mtime = path.stat().st_mtime_ns
        except (AtomicWriteError, OSError) as err:
            logger.warning("%s: cache key %r kept in memory only: %s", owner, key[:80], err)
            return None
        self._quota.record(path.name, Stored(owner, len(encoded), mtime))
        return mtime

    def _make_room(self, owner: str, name: str, size: int) -> bool:
        """Evict ``owner``'s oldest files until ``size`` more bytes fit; False if never."""
        if size > self.owner_limit_bytes:
            return False
        used = self._used_besides(owner, name)
        if used + size > self.owner_limit_bytes:
            # Entries cleared from outside (the web's cache routes) free their room too.
            self._quota.drop_missing(owner)
            used = self._used_besides(owner, name)
        files = self._quota.files()
        evicted = 0
        for victim in self._quota.oldest_first(owner):
            if used + size <= self.owner_limit_bytes:
                break
            if victim == name:
                continue
            with contextlib.suppress(OSError):
                (self.directory / victim).unlink()
            used -= files[victim].size
            self._quota.forget(victim)
            evicted += 1
        if evicted:
            # Their memory copies go too: an evicted entry must not live on in memory.
            gone = {k for k, entry in self._memory.items()
                    if entry[2] is not None and not self._path(k).exists()}
            for key in gone:
                del self._memory[key]
            logger.info("%s: evicted %d oldest cache entries to stay within %d bytes",
                        owner, evicted, self.owner_limit_bytes)
        return True

    def _used_besides(self, owner: str, name: str) -> int:
        """Return the bytes ``owner`` holds, not counting the file ``name`` (replaced)."""
        previous = self._quota.files().get(name)
        used = self._quota.used(owner)
        return used - previous.size if previous is not None and previous.owner == owner else used

    def clear_cache(self, key: str | None = None) -> None:
        """Forget one key, or every key when ``key`` is None."""
        with self._lock:
            if key is not None:
                self._memory.pop(key, None)
                path = self._path(key)
                with contextlib.suppress(OSError):
                    path.unlink()
                self._quota.forget(path.name)
                return
            self._memory.clear()
            for path in self.directory.glob("*.json"):
                with contextlib.suppress(OSError):
                    path.unlink()
            self._quota.forget_all()

    def get_cached_data_with_strategy(self, key: str, data_type: str = "default") -> Any:
        """Return the cached value if fresh for its kind of data (see STRATEGY_MAX_AGE)."""
        return self.get(key, max_age=STRATEGY_MAX_AGE.get(data_type, DEFAULT_MAX_AGE))

    def get_background_cached_data(self, key: str, sport_key: str | None = None) -> Any:
        """Return data a background fetcher cached, fresh for the kind its key suggests."""
        data_type = data_type_for_key(key if sport_key is None else f"{sport_key}_{key}")
        return self.get_cached_data_with_strategy(key, data_type)

    def hit_counts(self) -> tuple[int, int]:
        """Return the hits and misses so far: what the metrics need, without the disk
        usage ``get_cache_metrics`` adds up."""
        with self._lock:
            return self._hits, self._misses

    def get_cache_metrics(self) -> dict[str, Any]:
        """Return hit and miss counts, ``cache_hit_rate`` (0.0-1.0), entry count and the
        bytes on disk of the calling plugin (``core`` outside a plugin call)."""
        owner = current_plugin() or CORE_OWNER
        with self._lock:
            lookups = self._hits + self._misses
            return {
                "owner": owner,
                "owner_bytes": self._quota.used(owner),
                "owner_limit_bytes": self.owner_limit_bytes,
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
        return self.directory / file_name_for_key(key)


def file_name_for_key(key: str) -> str:
    """Return the name of the file a key is stored in, inside ``<cache_dir>/plugins/``."""
    if not isinstance(key, str):
        raise TypeError(f"cache key must be a string, not {type(key).__name__}")
    # "key-" is where hashed names live: a plain key never lands there.
    if _PLAIN_KEY.fullmatch(key) and not key.startswith("key-"):
        return f"{key}.json"
    return f"key-{hashlib.sha256(key.encode('utf-8')).hexdigest()[:32]}.json"
