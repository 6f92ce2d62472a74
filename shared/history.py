"""Operation history: what changed, when, and how it went, kept across restarts.

The only code that touches the history files. They live in ``<cache_dir>/history/``,
beside the bus but no bus keys: nothing watches them and neither daemon reads the
other's. Each daemon appends only to its own file (``web.jsonl``: API calls;
``display.jsonl``: plugin lifecycle events; ``updater.jsonl``: core updates, by the
updater process), so two processes never write one file:

- One entry is one JSON line, written by one ``write`` on a descriptor opened with
  ``O_APPEND`` (no fsync: a crash of the daemon loses nothing, a power cut the last
  seconds). Lines stay under ``MAX_LINE`` (below PIPE_BUF): fields are cut to length.
- Bounded: before an append would take a file past ``MAX_BYTES`` it is renamed to
  ``<name>.1`` (replacing the older one), so a daemon keeps at most twice that.
- Readers merge every file newest first and skip what is not an entry: a line torn by
  a crash, garbage, a field of the wrong type. Nothing written here is ever a secret:
  callers pass names, codes and short reasons, never request bodies or config values.

An entry: ``id`` (nanoseconds since the epoch, increasing per writer; the paging
cursor), ``at`` (Unix time), ``source`` (``web``/``display``/``updater``), ``kind`` (``api``/
``plugin``/``store``: a finished store job; ``core_update``; ``notify``), ``what``,
``result`` (``success``/``error``), ``plugin_id`` (or null) and the fields of its kind
(``FIELDS``).
"""

from __future__ import annotations

import contextlib
import json
import logging
import math
import os
import stat
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from shared.files.tail import read_tail
from shared.ids import is_plain_segment

logger = logging.getLogger(__name__)

HISTORY_DIR = "history"
WEB, DISPLAY, UPDATER = "web", "display", "updater"
SOURCES = (WEB, DISPLAY, UPDATER)
API, PLUGIN, STORE, CORE_UPDATE = "api", "plugin", "store", "core_update"
NOTIFY = "notify"
KINDS = (API, PLUGIN, STORE, CORE_UPDATE, NOTIFY)
SUCCESS, ERROR = "success", "error"
MAX_BYTES = 512 * 1024
MAX_LINE = 2048
MAX_TEXT = 300

# Plugin lifecycle events (the display's) and how each went.
LIFECYCLE = {"loaded": SUCCESS, "unloaded": SUCCESS, "load_failed": ERROR,
             "rested": ERROR, "safe_mode_entered": ERROR, "safe_mode_released": SUCCESS}
# The fields an entry of each kind may carry beyond the common ones, with their type.
FIELDS: dict[str, dict[str, type | tuple[type, ...]]] = {
    API: {"method": str, "path": str, "status": int, "error_code": str, "client": str},
    PLUGIN: {"detail": str},
    # A finished store job: ``what`` is its kind (install, update, ...).
    STORE: {"job_id": str, "error_code": str, "version": str, "update_status": str,
            "detail": str},
    # A core update (the updater's own file): ``what`` is who started it, ``detail`` the
    # verdict's message.
    CORE_UPDATE: {"update_result": str, "from_commit": str, "to_commit": str, "detail": str},
    # A notification (the display's): ``what`` is what happened to it (``NOTIFY_EVENTS``),
    # ``origin`` where it came from (http, mqtt), ``detail`` its text or the reason.
    NOTIFY: {"notification_id": str, "origin": str, "detail": str},
}
# What happens to a notification, and how it went.
NOTIFY_EVENTS = {"queued": SUCCESS, "shown": SUCCESS, "dismissed": SUCCESS,
                 "expired": ERROR, "dropped": ERROR, "refused": ERROR}

MAX_ID = 2**63 - 1  # ids are nanosecond times: a signed 64-bit number
MAX_AT = 2**33  # seconds: beyond the year 2200, still a date every clock can show

PluginEvent = Callable[[str, str, str], None]  # (plugin_id, what, detail)


def history_dir(cache_dir: Path) -> Path:
    """Return the history folder of the instance whose cache (bus) folder is ``cache_dir``."""
    return cache_dir / HISTORY_DIR


def _text(value: Any, limit: int = MAX_TEXT) -> str:
    text = str(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


class HistoryWriter:
    """Append entries to one daemon's history file; never raises (a failure is logged)."""

    def __init__(self, directory: Path, source: str, *, max_bytes: int = MAX_BYTES,
                 clock: Callable[[], int] = time.time_ns) -> None:
        if source not in SOURCES:
            raise ValueError(f"unknown history source {source!r}")
        self.directory = directory
        self.source = source
        self.path = directory / f"{source}.jsonl"
        self.max_bytes = max_bytes
        self._clock = clock
        self._lock = threading.Lock()
        self._last_id = 0
        self._failing: str | None = None

    def record(self, kind: str, what: str, result: str, *, plugin_id: str | None = None,
               **fields: Any) -> dict[str, Any] | None:
        """Append one entry; return it, or None when it could not be written."""
        entry: dict[str, Any] = {"kind": kind, "what": _text(what, 100), "result": result,
                                 "plugin_id": plugin_id if is_plain_segment(plugin_id)
                                 and len(str(plugin_id)) <= 100 else None}
        allowed = FIELDS.get(kind, {})
        for name, value in fields.items():
            if name in allowed and value is not None:
                entry[name] = value if isinstance(value, int) else _text(value)
        with self._lock:
            now = self._clock()
            self._last_id = max(now, self._last_id + 1)
            entry = {"id": self._last_id, "at": round(self._last_id / 1e9, 3),
                     "source": self.source, **entry}
            line = (json.dumps(entry, ensure_ascii=True) + "\n").encode("ascii")
            if len(line) > MAX_LINE:  # only very many fields could: keep the common ones
                entry = {k: entry[k] for k in ("id", "at", "source", "kind", "what",
                                               "result", "plugin_id")}
                line = (json.dumps(entry, ensure_ascii=True) + "\n").encode("ascii")
            try:
                self._append(line)
            except OSError as err:
                self._failed(err)
                return None
        if self._failing is not None:
            logger.info("history: writing %s again", self.path)
            self._failing = None
        return entry

    def plugin_event(self, plugin_id: str, what: str, detail: str = "") -> None:
        """Record a plugin lifecycle event (``LIFECYCLE``); the ``PluginEvent`` callback."""
        self.record(PLUGIN, what, LIFECYCLE.get(what, SUCCESS), plugin_id=plugin_id,
                    detail=detail or None)

    def notification_event(self, notification_id: str, what: str, origin: str,
                           detail: str = "") -> None:
        """Record what happened to a notification (``NOTIFY_EVENTS``)."""
        self.record(NOTIFY, what, NOTIFY_EVENTS.get(what, SUCCESS),
                    notification_id=notification_id, origin=origin, detail=detail or None)

    def _append(self, line: bytes) -> None:
        self.directory.mkdir(parents=True, exist_ok=True)
        fd = self._open()
        try:
            size = os.fstat(fd).st_size
            if size and size + len(line) > self.max_bytes:
                os.close(fd)
                fd = -1
                os.replace(self.path, self.path.with_name(self.path.name + ".1"))
                fd = self._open()
            os.write(fd, line)
        finally:
            if fd >= 0:
                os.close(fd)

    def _open(self) -> int:
        # No symlink followed and no FIFO waited on: the folder is shared with the other
        # daemon's user, and the display runs as root.
        flags = (os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK
                 | os.O_CLOEXEC)
        fd = os.open(self.path, flags, 0o664)
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            os.close(fd)
            raise OSError(f"{self.path} is not a regular file")
        return fd

    def _failed(self, err: OSError) -> None:
        reason = f"{type(err).__name__}: {err}"
        if reason != self._failing:  # once per distinct problem, not once per entry
            logger.warning("history: cannot write %s: %s", self.path, reason)
        self._failing = reason


@dataclass
class HistoryReader:
    """Read the merged history of every daemon, newest first; parsed files are memoised."""

    directory: Path
    max_bytes: int = MAX_BYTES
    _parsed: dict[Path, tuple[tuple[int, int, int], list[dict[str, Any]]]] = field(
        default_factory=dict, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def entries(self, *, limit: int, before: int | None = None, kind: str | None = None,
                plugin_id: str | None = None) -> tuple[list[dict[str, Any]], bool]:
        """Return up to ``limit`` entries older than ``before`` matching the filters, newest
        first, and whether older ones match too."""
        found = [e for e in self._all()
                 if (before is None or e["id"] < before)
                 and (kind is None or e["kind"] == kind)
                 and (plugin_id is None or e["plugin_id"] == plugin_id)]
        found.sort(key=lambda e: (e["id"], e["source"]), reverse=True)
        return found[:limit], len(found) > limit

    def _all(self) -> list[dict[str, Any]]:
        merged: list[dict[str, Any]] = []
        for path in self.files():
            merged.extend(self._read(path))
        return merged

    def files(self) -> list[Path]:
        """Return the history files, current and rotated, of every source."""
        return [self.directory / f"{source}.jsonl{suffix}"
                for source in SOURCES for suffix in (".1", "")]

    def _read(self, path: Path) -> list[dict[str, Any]]:
        try:
            info = path.lstat()
        except OSError:
            return []
        key = (info.st_ino, info.st_size, info.st_mtime_ns)
        with self._lock:
            cached = self._parsed.get(path)
            if cached is not None and cached[0] == key:
                return cached[1]
        try:
            tail = read_tail(path, self.max_bytes * 2)
        except OSError as err:
            logger.warning("history: cannot read %s: %s", path, err)
            return []
        entries = list(parse_lines(tail.lines))
        with self._lock:
            self._parsed[path] = (key, entries)
        return entries


def parse_lines(lines: Iterable[bytes]) -> Iterable[dict[str, Any]]:
    """Yield the well-formed entries among ``lines``; skip the rest."""
    for raw in lines:
        try:
            data = json.loads(raw)
        except ValueError:  # torn, garbage, not UTF-8
            continue
        entry = valid_entry(data)
        if entry is not None:
            yield entry


def valid_entry(data: Any) -> dict[str, Any] | None:
    """Return an entry with only known, well-typed fields, or None when it is no entry."""
    if not isinstance(data, dict):
        return None
    entry_id, at, kind = data.get("id"), data.get("at"), data.get("kind")
    if (not _number_in(entry_id, 1, MAX_ID, int) or not _number_in(at, 0, MAX_AT, int | float)
            or data.get("source") not in SOURCES or kind not in KINDS
            or not isinstance(data.get("what"), str)
            or data.get("result") not in (SUCCESS, ERROR)):
        return None
    plugin_id = data.get("plugin_id")
    entry = {"id": entry_id, "at": at, "source": data["source"], "kind": kind,
             "what": _text(data["what"], 100), "result": data["result"],
             "plugin_id": plugin_id if is_plain_segment(plugin_id) else None}
    for name, kind_type in FIELDS[kind].items():
        value = data.get(name)
        if isinstance(value, str) and isinstance(value, kind_type):
            entry[name] = _text(value)
        elif _number_in(value, 0, MAX_AT, kind_type):
            entry[name] = value
    return entry


def _number_in(value: Any, low: int, high: int, kinds: type | tuple[type, ...] | Any) -> bool:
    """True for a finite number of ``kinds`` (never a bool) from ``low`` to ``high``:
    NaN, infinities and huge numbers from a hand-edited line are no entry's numbers."""
    return (isinstance(value, kinds) and isinstance(value, int | float)
            and not isinstance(value, bool) and low <= value <= high
            and math.isfinite(value))  # range first: a huge int cannot become a float


def clear(directory: Path) -> int:
    """Remove every history file (current and rotated) and return how many were removed."""
    removed = 0
    for path in HistoryReader(directory).files():
        with contextlib.suppress(FileNotFoundError):
            path.unlink()
            removed += 1
    return removed
