"""AppCache and cache.star: an app's own strings kept between renders, with a TTL.

Bounded: at most ``max_entries`` keys and ``max_bytes`` of keys and values; the
oldest entries go first when a new one would not fit.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable

from shared.starlark.runtime.modules.base import ModuleSource

TEXT = '''
def _set(key, value, ttl_seconds = 60):
    return _py_set(key, value, ttl_seconds)

cache = struct(get = _py_get, set = _set)
'''
MAX_TTL = 3600 * 24


class AppCache:
    """One app's cache, shared by its renders; safe to use from several threads."""

    def __init__(self, max_entries: int = 256, max_bytes: int = 1024 * 1024,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.max_entries = max_entries
        self.max_bytes = max_bytes
        self._clock = clock
        self._items: OrderedDict[str, tuple[str, float]] = OrderedDict()
        self._size = 0
        self._lock = threading.Lock()

    def get(self, key: str) -> str | None:
        """The value stored under ``key``, or None when absent or expired."""
        with self._lock:
            item = self._items.get(key)
            if item is None:
                return None
            if item[1] <= self._clock():
                self._drop(key)
                return None
            return item[0]

    def set(self, key: str, value: str, ttl_seconds: float = 60) -> None:
        """Keep ``value`` under ``key`` for ``ttl_seconds`` (at most a day)."""
        if not isinstance(key, str) or not isinstance(value, str):
            raise ValueError("cache.set: key and value must be strings")
        cost = len(key.encode()) + len(value.encode())
        if cost > self.max_bytes:
            raise ValueError(f"cache.set: value of {cost} bytes is over the cache's "
                             f"{self.max_bytes}")
        expires = self._clock() + max(0.0, min(float(ttl_seconds), MAX_TTL))
        with self._lock:
            if key in self._items:
                self._drop(key)
            while self._items and (len(self._items) >= self.max_entries
                                   or self._size + cost > self.max_bytes):
                self._drop(next(iter(self._items)))
            self._items[key] = (value, expires)
            self._size += cost

    def _drop(self, key: str) -> None:
        value, _ = self._items.pop(key)
        self._size -= len(key.encode()) + len(value.encode())

    def __len__(self) -> int:
        return len(self._items)


def module(store: AppCache) -> ModuleSource:
    """cache.star over ``store``."""
    return ModuleSource(TEXT, {"_py_get": store.get, "_py_set": store.set})
