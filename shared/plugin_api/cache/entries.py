"""The plugin cache seen from outside the display: list its entries, clear one or all.

``shared.plugin_api.cache.manager.CacheManager`` keeps one JSON file per key in
``<cache_dir>/plugins/``,
written atomically and starting ``{"owner":...,"key":...``. Only that folder is read
or touched here, never the bus files beside it, and in it only regular ``*.json``
files (not a writer's ``.<name>.tmp`` file, not a symlink, not a folder). Files are
only ever removed here, never rewritten, so a writer's atomic replace cannot be torn;
a cache manager checks an entry's file on every read, so an entry removed here is not
served from another process's memory either.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import stat
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from shared.errors import LedpanelError, NotFoundError, ValidationError
from shared.ids import is_plain_segment
from shared.plugin_api.cache.manager import file_name_for_key

PLUGINS_FOLDER = "plugins"
SUFFIX = ".json"
#: The most entries listed or cleared in one call (every loop here is bounded).
MAX_ENTRIES = 10_000
#: The longest key a clear request may name.
MAX_KEY_CHARS = 4096
_HEAD_BYTES = 8192
# where shared.plugin_api.cache.manager stores a key that is no plain file name
HASHED_PREFIX = "key-"
_OWNER = re.compile(rb'\{"owner":("(?:[^"\\]|\\.){0,200}"),')
_KEY = re.compile(rb'"key":("(?:[^"\\]|\\.)*")')


@dataclass(frozen=True)
class CacheEntry:
    """One cached value's file."""

    key: str | None  # None when the file does not record it (or it is very long)
    file: str
    size: int
    age_seconds: float
    owner: str | None
    hashed: bool  # stored under a hash of its key (a key that is no plain file name)

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


class PluginCache:
    """The files of the plugins' cache in one cache directory."""

    def __init__(self, cache_dir: Path) -> None:
        self.directory = Path(cache_dir) / PLUGINS_FOLDER

    def entries(self) -> tuple[list[CacheEntry], bool]:
        """Return the entries sorted by key and file, and whether the list was cut short."""
        names, cut = self._names()
        now = time.time()
        found = [entry for name in names if (entry := self._entry(name, now)) is not None]
        found.sort(key=lambda e: (e.key is None, e.key or "", e.file))
        return found, cut

    def clear_key(self, key: object) -> CacheEntry:
        """Remove the entry stored under ``key``; raise 404 when there is none."""
        if not isinstance(key, str) or not key or len(key) > MAX_KEY_CHARS:
            raise ValidationError(f"key must be text of 1 to {MAX_KEY_CHARS} characters",
                                  error_code="INVALID_FIELD", details={"field": "key"})
        return self._clear_file(file_name_for_key(key), key)

    def clear_file(self, name: object) -> CacheEntry:
        """Remove an entry by the file name the list gives; raise 404 when there is none."""
        if not (isinstance(name, str) and is_plain_segment(name) and name.endswith(SUFFIX)
                and len(name) <= 255):
            raise ValidationError(f"file {str(name)[:80]!r} is not the name of a cache file "
                                  "(one plain name ending in .json, as listed)",
                                  error_code="INVALID_PATH", details={"field": "file"})
        return self._clear_file(name, None)

    def clear_all(self) -> list[CacheEntry]:
        """Remove every entry; return what was removed."""
        names, _cut = self._names()
        now = time.time()
        removed = []
        for name in names:
            entry = self._entry(name, now)
            if entry is not None and self._unlink(name):
                removed.append(entry)
        return removed

    # -- internals -------------------------------------------------------------

    def _clear_file(self, name: str, key: str | None) -> CacheEntry:
        entry = self._entry(name, time.time()) if self._real_dir() else None
        if entry is None or (key is not None and entry.key not in (None, key)):
            shown = key if key is not None else name
            raise NotFoundError(f"no cache entry {shown[:80]!r}", error_code="CACHE_KEY_NOT_FOUND",
                                details={"field": "key" if key is not None else "file"})
        if not self._unlink(name):
            raise NotFoundError(f"no cache entry {(key or name)[:80]!r}",
                                error_code="CACHE_KEY_NOT_FOUND")
        return entry

    def _real_dir(self) -> bool:
        """Whether the folder is a real directory: a symlink there could lead to the bus."""
        try:
            return stat.S_ISDIR(os.lstat(self.directory).st_mode)
        except OSError:
            return False

    def _names(self) -> tuple[list[str], bool]:
        if not self._real_dir():
            return [], False
        names: list[str] = []
        try:
            with os.scandir(self.directory) as listing:
                for item in listing:
                    if item.name.startswith(".") or not item.name.endswith(SUFFIX):
                        continue
                    if len(names) >= MAX_ENTRIES:
                        return names, True
                    names.append(item.name)
        except OSError:
            return names, False
        return names, False

    def _entry(self, name: str, now: float) -> CacheEntry | None:
        """Read one file's size, age, owner and key; None unless it is a regular file."""
        path = self.directory / name
        try:
            fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOFOLLOW | os.O_CLOEXEC)
        except OSError:
            return None  # gone, a symlink (ELOOP) or unreadable
        try:
            info = os.fstat(fd)
            if not stat.S_ISREG(info.st_mode):
                return None
            head = os.read(fd, _HEAD_BYTES)
        except OSError:
            return None
        finally:
            os.close(fd)
        owner, key = _owner_and_key(head)
        return CacheEntry(key=key, file=name, size=info.st_size,
                          age_seconds=round(max(0.0, now - info.st_mtime), 3), owner=owner,
                          hashed=name.startswith(HASHED_PREFIX))

    def _unlink(self, name: str) -> bool:
        try:
            os.unlink(self.directory / name)
        except FileNotFoundError:
            return False  # a writer or another clear removed it first
        except OSError as err:
            raise LedpanelError(f"cannot remove cache file {name}: {err.strerror or err}",
                                error_code="WRITE_FAILED") from err
        return True


def _owner_and_key(head: bytes) -> tuple[str | None, str | None]:
    """Return the owner and key a cache file starts with (None for each not found whole)."""
    owner = _OWNER.match(head)
    key = _KEY.match(head, owner.end()) if owner else None
    return _text(owner.group(1) if owner else None), _text(key.group(1) if key else None)


def _text(encoded: bytes | None) -> str | None:
    if encoded is None:
        return None
    with contextlib.suppress(ValueError):
        value = json.loads(encoded)
        return value if isinstance(value, str) else None
    return None
