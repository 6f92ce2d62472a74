"""Bus reads for a reader that asks many times a second: parse a file only when it changed.

Every read still goes to disk: one ``lstat`` tells whether the file is the one parsed
last time (``shared.files.file_key``), so no reader is ever served a value older than
the file. Only a regular file that parsed and has settled is remembered; anything else
(a FIFO, junk, just written) is read through ``Bus.read`` every time, which also
keeps ``Bus.problems()`` current. The values are shared by every caller: read
them, never change them.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Any

from shared.bus.core import Bus
from shared.bus.upkeep import reports
from shared.files.file_key import FileKey, file_key, settled


class CachedReads:
    """Read bus keys of one bus, re-parsing a file only when its identity changed."""

    def __init__(self, bus: Bus) -> None:
        self.bus = bus
        self._parsed: dict[str, tuple[FileKey, dict[str, Any]]] = {}
        self._paths: dict[str, Path] = {}

    def read(self, key: str) -> dict[str, Any] | None:
        """Return the current value of ``key`` (shared: never change it), None if absent."""
        path = self._paths.get(key)
        if path is None:
            path = self._paths[key] = self.bus.path(key)  # validates the key once
        try:
            info = os.lstat(path)
        except FileNotFoundError:  # what Bus.read says of an absent file, without a path walk
            self._parsed.pop(key, None)
            reports.clear(path)
            return None
        except OSError:
            info = None
        if info is None or not stat.S_ISREG(info.st_mode):
            self._parsed.pop(key, None)
            return self.bus.read(key)  # absent or not a file: Bus.read says so
        identity = file_key(info)
        cached = self._parsed.get(key)
        if cached is not None and cached[0] == identity:
            return cached[1]
        value = self.bus.read(key)
        # Keyed on the stat taken before the read: a file replaced in between only
        # misses next time, it is never mistaken for the one parsed.
        if value is not None and settled(info):
            self._parsed[key] = (identity, value)  # one assignment: threads see old or new
        else:
            self._parsed.pop(key, None)
        return value
