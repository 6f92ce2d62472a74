"""How many bytes each owner (a plugin, or the core) holds in the cache folder.

Every cache file starts with ``{"owner":...`` so its owner is read from its first bytes
without parsing the data. The index is built by one scan of the folder the first time
it is needed and then kept up to date by the cache manager, which holds its lock
around every call here.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

# The owner of entries stored outside any plugin call (the core, tests, tools).
CORE_OWNER = "core"
_OWNER_PREFIX = re.compile(rb'\{"owner":("(?:[^"\\]|\\.){0,200}")')
_HEAD_BYTES = 512


@dataclass
class Stored:
    """One cache file: who wrote it, how big it is, when."""

    owner: str
    size: int
    mtime_ns: int


class QuotaIndex:
    """Sizes of the cache files in one folder, by file name and by owner."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self._files: dict[str, Stored] | None = None

    def files(self) -> dict[str, Stored]:
        """Return the index, scanning the folder the first time."""
        if self._files is None:
            self._files = {}
            try:
                paths = list(self.directory.glob("*.json"))
            except OSError:
                paths = []
            for path in paths:
                stored = read_stored(path)
                if stored is not None:
                    self._files[path.name] = stored
        return self._files

    def used(self, owner: str) -> int:
        """Return the bytes ``owner`` holds."""
        return sum(s.size for s in self.files().values() if s.owner == owner)

    def oldest_first(self, owner: str) -> list[str]:
        """Return the file names ``owner`` holds, oldest first."""
        mine = [(s.mtime_ns, name) for name, s in self.files().items() if s.owner == owner]
        return [name for _mtime, name in sorted(mine)]

    def record(self, name: str, stored: Stored) -> None:
        self.files()[name] = stored

    def forget(self, name: str) -> None:
        self.files().pop(name, None)

    def forget_all(self) -> None:
        self._files = {}

    def drop_missing(self, owner: str) -> None:
        """Forget ``owner``'s files that are gone (another process cleared them)."""
        for name in [n for n, s in self.files().items() if s.owner == owner]:
            if not (self.directory / name).exists():
                self.forget(name)


def read_stored(path: Path) -> Stored | None:
    """Return the owner, size and time of one cache file; None when it is gone."""
    try:
        stat = path.stat()
        with open(path, "rb") as handle:
            head = handle.read(_HEAD_BYTES)
    except OSError:
        return None
    owner = CORE_OWNER
    match = _OWNER_PREFIX.match(head)
    if match:
        try:
            value = json.loads(match.group(1))
        except ValueError:
            value = None
        if isinstance(value, str) and value:
            owner = value
    return Stored(owner, stat.st_size, stat.st_mtime_ns)
