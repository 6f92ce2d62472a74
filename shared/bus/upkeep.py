"""Upkeep of the bus folder: files it did not write, and what killed writers left.

``reports`` remembers the bus files that read as absent because of what they are (a
FIFO, a folder, a symlink, too large, not JSON) and logs each once per file and kind,
then at most every ``REPORT_EVERY`` seconds, so a hostile file cannot flood the journal
from a status page polled every second. ``clean_up`` handles one leftover of a killed
process (``shared.bus.core.Bus.remove_stale_temp_files`` walks the folder).
"""

from __future__ import annotations

import contextlib
import logging
import os
import re
import stat
import threading
import time
from pathlib import Path

from shared.files.jsontext import JsonLimitError
from shared.files.regular_file import kind_of

logger = logging.getLogger("shared.bus.core")

QUEUE_SEP = "@"  # <key>@<time_ns>-<request_id>.json: one queued command
CLAIM_PREFIX = "claimed-"  # claimed-<pid>-<thread>-<queued name>: a command being taken
# A bad file is logged when first seen, then again at most this often (seconds).
REPORT_EVERY = 300.0
# A temp file this old (seconds) belongs to a writer that died: a write takes
# milliseconds, and both daemons share the folder, so age is the only safe test.
STALE_TEMP_AFTER = 60.0


def clean_up(path: Path, directory: Path, cutoff: float) -> int:
    """Delete a dead writer's temp file or re-queue a dead consumer's claim; return 1 if so."""
    name = path.name
    is_temp = name.startswith(".") and name.endswith(".tmp")
    is_claim = name.startswith(CLAIM_PREFIX) and path.parent != directory
    if not (is_temp or is_claim):
        return 0
    try:
        info = os.lstat(path)
        if not stat.S_ISREG(info.st_mode):
            return 0
        if is_temp:
            if info.st_mtime >= cutoff:
                return 0
            os.unlink(path)
            return 1
        pid, _thread, queued = name[len(CLAIM_PREFIX):].split("-", 2)
        if not re.fullmatch(r"[0-9]{1,10}", pid) or _alive(int(pid)) \
                or QUEUE_SEP not in queued or "/" in queued:
            return 0
        os.rename(path, directory / queued)
        return 1
    except (OSError, ValueError):  # gone already, not ours to touch, or a name not ours
        return 0


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # another user's process: alive
        return True
    return True


def describe(err: BaseException, path: Path | None = None) -> str:
    """Say in a few words why a bus file was not read."""
    if isinstance(err, OSError) and path is not None:
        with contextlib.suppress(OSError):
            if not stat.S_ISREG(mode := os.lstat(path).st_mode):
                return f"{kind_of(mode)}, not a regular file"
    if isinstance(err, OSError):
        return err.strerror or str(err)
    if isinstance(err, RecursionError):
        return "nested too deeply to read"
    if isinstance(err, JsonLimitError):  # valid JSON, outside what the bus accepts
        return f"holds a value out of range: {err}"
    return f"not valid JSON: {err}"


class _Reports:
    """Bus files that read as absent because of what they are: logged, rate-limited."""

    LIMIT = 256  # files remembered; a folder full of junk must not grow this for ever

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._active: dict[Path, str] = {}
        self._logged: dict[Path, tuple[str, float]] = {}

    def report(self, path: Path, problem: str) -> None:
        now = time.monotonic()
        with self._lock:
            self._active[path] = problem
            last = self._logged.get(path)
            due = last is None or last[0] != problem or now - last[1] >= REPORT_EVERY
            if due:
                self._logged[path] = (problem, now)
            for table in (self._active, self._logged):
                while len(table) > self.LIMIT:
                    del table[next(iter(table))]
        if due:
            logger.warning("bus: ignoring %s: %s", path, problem)

    def clear(self, path: Path) -> None:
        if path in self._active:
            with self._lock:
                self._active.pop(path, None)

    def current(self, directory: Path) -> dict[str, str]:
        with self._lock:
            return {str(p.relative_to(directory)): problem for p, problem in self._active.items()
                    if p.parent == directory or p.parent.parent == directory}


reports = _Reports()
