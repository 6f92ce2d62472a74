"""The call trail: the plugin calls running right now, kept where a dead process leaves it.

A plugin can end the display process in ways no ``except`` sees: ``os._exit()`` from a
thread of its own, a crash in a C extension, the kernel's kill at the unit's memory
limit, the watchdog's kill of a call that never returns. At the next start the trail
names the plugins that were in a call at that moment, so they can be put in safe mode
instead of taking the daemon down again at every restart.

The trail is one small file mapped into memory: every ``enter``/``leave`` rewrites the
mapped page, which the kernel keeps when the process dies however it dies (no write or
fsync per call; a power cut or a reboot loses it, which is harmless). It lives in the
runtime folder (``shared.paths``: ``/run/ledpanel`` under systemd, a tmpfs), never in
the bus folder: there, on a Pi's SD card, the kernel would write the dirty page back
every 30 s for as long as the display runs. Its name carries a digest of the bus folder,
so two instances on one machine (tests, a second panel) never read each other's. A clean stop empties it. ``convict`` adds the verdict when the daemon itself
finds the culprit (a hung call), so the next start blames that plugin alone.
"""

from __future__ import annotations

import hashlib
import json
import logging
import mmap
import os
import stat
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from shared.files.jsontext import parse_bounded
from shared.paths import Paths

logger = logging.getLogger(__name__)

TRAIL_FILE = "display_calls"
SIZE = 4096
MAX_ID = 255  # a plugin id is a folder name: never longer than this


def trail_path(paths: Paths) -> Path:
    """Return where the display of ``paths`` keeps its trail (read back after a crash)."""
    digest = hashlib.sha256(os.fsencode(paths.cache_dir)).hexdigest()[:16]
    return paths.runtime_dir / f"{TRAIL_FILE}-{digest}"


@dataclass(frozen=True)
class Call:
    """One plugin call in flight."""

    plugin_id: str
    where: str
    thread: int  # threading.get_ident() of the calling thread
    started: float  # time.monotonic()


@dataclass(frozen=True)
class Leftover:
    """What a trail said when the daemon started: the previous process's last moment."""

    pid: int | None
    calls: list[tuple[str, str]]  # (plugin_id, where), the calls in flight
    verdict: dict[str, str] | None  # {plugin_id, where, reason} when the daemon named one


def read_leftover(path: Path) -> Leftover | None:
    """Return what the previous process left in the trail, or None when it left nothing.

    A trail that is not a small regular file or does not hold what ``CallTrail`` writes
    is logged and treated as empty: a damaged trail must not block the start.
    """
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return None
    except OSError as err:
        logger.warning("call trail %s unreadable (%s); ignored", path, err)
        return None
    if not stat.S_ISREG(st.st_mode) or st.st_size > SIZE:
        logger.warning("call trail %s is not a %d-byte file; ignored", path, SIZE)
        return None
    try:
        data = parse_bounded(path.read_bytes().rstrip(b" \0\n").decode("utf-8") or "null")
        calls = [(str(c[0])[:MAX_ID], str(c[1])[:32]) for c in data.get("calls", [])]
        verdict = data.get("verdict")
        if verdict is not None:
            verdict = {k: str(verdict[k])[:300] for k in ("plugin_id", "where", "reason")}
        pid = data.get("pid")
    except (ValueError, TypeError, KeyError, AttributeError, IndexError):
        logger.warning("call trail %s does not hold a trail; ignored", path)
        return None
    if not calls and verdict is None:
        return None
    return Leftover(pid if isinstance(pid, int) else None, calls, verdict)


class CallTrail:
    """The live trail of this process; a ``boundary.CallTracker``."""

    def __init__(self, path: Path) -> None:
        self.path = path
        # O_NOFOLLOW: a symlink planted under this name must not make us write elsewhere.
        try:
            fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o644)
        except OSError:
            path.unlink(missing_ok=True)  # a symlink or worse in its place
            fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_EXCL, 0o644)
        try:
            os.ftruncate(fd, SIZE)
            self._map = mmap.mmap(fd, SIZE)
        finally:
            os.close(fd)
        self._lock = threading.Lock()
        self._calls: dict[int, Call] = {}
        self._tokens = iter(range(1, 1 << 62))
        self._verdict_json = b"null"
        self._pid = os.getpid()
        self._segments: dict[tuple[str, str], bytes] = {}
        self._write()

    def enter(self, plugin_id: str, where: str) -> object:
        """Note a call starting on this thread; return its token."""
        call = Call(plugin_id, where, threading.get_ident(), time.monotonic())
        with self._lock:
            token = next(self._tokens)
            self._calls[token] = call
            self._write()
        return token

    def leave(self, token: object) -> None:
        """Note a call ending."""
        with self._lock:
            if self._calls.pop(token, None) is not None:  # type: ignore[call-overload]
                self._write()

    def running_on(self, thread: int) -> Call | None:
        """Return the innermost call running on ``thread``, if any."""
        with self._lock:
            found = [c for c in self._calls.values() if c.thread == thread]
        return found[-1] if found else None

    def convict(self, plugin_id: str, where: str, reason: str) -> None:
        """Record that this plugin's call is why the process is about to end."""
        with self._lock:
            self._verdict_json = json.dumps(
                {"plugin_id": plugin_id, "where": where, "reason": reason}).encode()
            self._write()

    def close(self) -> None:
        """A clean stop: empty the trail, so the next start blames nobody."""
        with self._lock:
            self._calls.clear()
            self._verdict_json = b"null"
            self._write()
            self._map.close()

    def _write(self) -> None:
        # Hand-built JSON from segments encoded once per (plugin, hook): this runs twice
        # per plugin call, and a general encoder would cost more than the call itself.
        calls = b",".join(self._segment(c.plugin_id, c.where) for c in self._calls.values())
        verdict = self._verdict_json
        data = b'{"pid":%d,"calls":[%s],"verdict":%s}' % (self._pid, calls, verdict)
        if len(data) > SIZE:  # dozens of calls at once: keep the verdict, drop the calls
            data = b'{"pid":%d,"calls":[],"verdict":%s}' % (self._pid, verdict)
        if not self._map.closed:
            self._map[:] = data.ljust(SIZE, b" ")

    def _segment(self, plugin_id: str, where: str) -> bytes:
        key = (plugin_id, where)
        segment = self._segments.get(key)
        if segment is None:
            segment = json.dumps([plugin_id[:MAX_ID], where]).encode()
            if len(self._segments) < 4096:
                self._segments[key] = segment
        return segment
