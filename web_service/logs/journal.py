"""The daemons' logs from journald: ``journalctl -u <unit> -o json`` run as a subprocess.

One ``journalctl`` serves every daemon read from the journal (several ``-u``), so its
lines come in time order. Reading the newest lines is one run with a timeout;
following is one ``journalctl -f`` per stream, read without blocking and stopped when
the stream ends. Where a line sits is journald's cursor (``--after-cursor`` resumes).

The daemons log to stderr with the syslog priority in front of every line
(``shared.logs.setup``), which journald stores as ``PRIORITY``; the level is still read
from our own line format (``shared.logs.daemon_logs``), which names CRITICAL apart
from ERROR, and ``PRIORITY`` decides only for lines not in it (systemd's own about the
unit, what the matrix library prints); a line of the daemon's own that is not in our
format continues its record before (a traceback keeps the ERROR of its record).
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import select
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from shared.errors import LedpanelError
from shared.logs.daemon_logs import PRIORITY_LEVELS, UNITS, clip, parse_line

logger = logging.getLogger(__name__)

RUN_TIMEOUT = 10.0
MAX_OUTPUT = 32 * 1024 * 1024  # of one backlog run; more is cut (whole lines kept)
MAX_PENDING = 256 * 1024  # an unfinished line longer than this is dropped
READ_CHUNK = 64 * 1024
UNIT_OF = {unit: daemon for daemon, unit in UNITS.items()}
IDENTIFIER_OF = {unit.removesuffix(".service"): daemon for daemon, unit in UNITS.items()}


class LogsUnavailable(LedpanelError):
    """Neither a log file nor the journal can be read."""

    error_code = "LOGS_UNAVAILABLE"
    status = 503


def command(daemons: Iterable[str], *args: str) -> list[str]:
    """Return the ``journalctl`` command line for ``daemons``; raise when there is none."""
    path = shutil.which("journalctl")
    if path is None:
        raise LogsUnavailable("no log file of this daemon and no journalctl on this machine: "
                              "the logs cannot be read (run the daemons with scripts/dev to "
                              "get log files)")
    units = [arg for daemon in daemons for arg in ("-u", UNITS[daemon])]
    return [path, "--no-pager", "-q", "-a", "-o", "json", *units, *args]


def _environment() -> dict[str, str]:
    return {**os.environ, "SYSTEMD_PAGER": "", "SYSTEMD_COLORS": "0", "LC_ALL": "C"}


@dataclass
class JournalReader:
    """Turn ``journalctl -o json`` lines into entries; remembers each daemon's last level."""

    daemons: tuple[str, ...]
    last: dict[str, tuple[str, str, float | None]] = field(default_factory=dict)

    def entry(self, raw: bytes) -> tuple[dict[str, Any], str | None] | None:
        """Return (entry, cursor) for one output line, or None when it is none of ours."""
        try:
            data = json.loads(raw)
        except ValueError:
            return None
        if not isinstance(data, dict):
            return None
        daemon = self._daemon(data)
        if daemon is None:
            return None
        text = _message(data.get("MESSAGE"))
        at = _realtime(data.get("__REALTIME_TIMESTAMP"))
        own = IDENTIFIER_OF.get(str(data.get("SYSLOG_IDENTIFIER"))) == daemon
        parsed = parse_line(text)
        continued = False
        if parsed is not None:
            level, name, message = parsed.level, parsed.logger, parsed.message
            self.last[daemon] = (level, name, at)
        elif own and daemon in self.last:
            level, name, _ = self.last[daemon]
            message, continued = clip(text), True
        else:
            level = PRIORITY_LEVELS.get(_int(data.get("PRIORITY")), "INFO")
            name = str(data.get("SYSLOG_IDENTIFIER") or "journal")[:100]
            message = clip(text)
        cursor = data.get("__CURSOR")
        return ({"daemon": daemon, "at": at, "level": level, "logger": name,
                 "message": message, "continued": continued},
                cursor if isinstance(cursor, str) and len(cursor) <= 1000 else None)

    def _daemon(self, data: dict[str, Any]) -> str | None:
        for key in ("_SYSTEMD_UNIT", "UNIT"):
            daemon = UNIT_OF.get(str(data.get(key)))
            if daemon in self.daemons:
                return daemon
        daemon = IDENTIFIER_OF.get(str(data.get("SYSLOG_IDENTIFIER")))
        return daemon if daemon in self.daemons else None


def _message(value: Any) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, list) and all(isinstance(b, int) and 0 <= b < 256 for b in value):
        return bytes(value).decode("utf-8", "replace")  # journald's form of non-UTF-8
    return ""  # null: a field journalctl did not show


def _realtime(value: Any) -> float | None:
    number = _int(value)
    return number / 1e6 if number > 0 else None


def _int(value: Any) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        return -1


def newest(daemons: tuple[str, ...], count: int) -> list[tuple[dict[str, Any], str | None]]:
    """Return the newest ``count`` journal lines of ``daemons``, oldest first, with cursors."""
    argv = command(daemons, "-n", str(count))
    with tempfile.TemporaryFile() as errors:
        try:
            process = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=errors,
                                       stdin=subprocess.DEVNULL, env=_environment())
        except OSError as err:
            raise LogsUnavailable(f"journalctl cannot be run: {err.strerror or err}") from err
        try:
            output, cut = _read_bounded(process)
            if not cut:
                process.wait(timeout=RUN_TIMEOUT)  # its output ended: it is exiting
        except subprocess.TimeoutExpired:
            raise LogsUnavailable(f"journalctl did not exit within {RUN_TIMEOUT:g} s") from None
        finally:
            if process.poll() is None:
                process.kill()
            process.wait()
        errors.seek(0)
        said = errors.read(4096).decode("utf-8", "replace").strip().splitlines()
    if process.returncode != 0 and not cut:
        raise LogsUnavailable(f"journalctl failed (exit status {process.returncode})"
                              + (f": {said[0][:200]}" if said else ""))
    reader = JournalReader(daemons)
    found = (reader.entry(raw) for raw in output.splitlines())
    return [item for item in found if item is not None]


def _read_bounded(process: subprocess.Popen[bytes]) -> tuple[bytes, bool]:
    """Read ``process``'s output until it ends, up to MAX_OUTPUT bytes (whole lines kept)
    and RUN_TIMEOUT seconds; return it and whether it was cut at MAX_OUTPUT."""
    assert process.stdout is not None
    deadline = time.monotonic() + RUN_TIMEOUT
    chunks: list[bytes] = []
    size = 0
    while size < MAX_OUTPUT:  # bounded: every pass reads at least one byte or returns
        left = deadline - time.monotonic()
        if left <= 0 or not select.select([process.stdout], [], [], left)[0]:
            raise LogsUnavailable(f"journalctl did not answer within {RUN_TIMEOUT:g} s")
        chunk = os.read(process.stdout.fileno(), min(1 << 16, MAX_OUTPUT - size))
        if not chunk:
            return b"".join(chunks), False
        chunks.append(chunk)
        size += len(chunk)
    output = b"".join(chunks)
    return output[:output.rfind(b"\n") + 1], True


class JournalFollower:
    """``journalctl -f`` for ``daemons`` from after ``cursor`` (or from now)."""

    def __init__(self, daemons: tuple[str, ...], cursor: str | None) -> None:
        extra = [f"--after-cursor={cursor}"] if cursor else ["-n", "0"]
        self.reader = JournalReader(daemons)
        self.cursor = cursor
        self._pending = b""
        try:
            self.process: subprocess.Popen[bytes] = subprocess.Popen(
                command(daemons, "-f", *extra), stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL, env=_environment())
        except OSError as err:
            raise LogsUnavailable(f"journalctl cannot be run: {err.strerror or err}") from err
        assert self.process.stdout is not None
        self._fd = self.process.stdout.fileno()
        os.set_blocking(self._fd, False)

    @property
    def fileno(self) -> int:
        """The descriptor to wait on for new lines."""
        return self._fd

    def alive(self) -> bool:
        """Return False once journalctl has ended (its output read to the end)."""
        return self.process.poll() is None or bool(self._pending)

    def read(self, timeout: float = 0.0) -> list[tuple[dict[str, Any], str | None]]:
        """Return the lines that arrived (waiting up to ``timeout`` seconds for the first)."""
        if timeout > 0:
            with contextlib.suppress(OSError, ValueError):
                select.select([self._fd], [], [], timeout)
        try:
            chunk = os.read(self._fd, READ_CHUNK)
        except BlockingIOError:
            return []
        except OSError:
            chunk = b""
        data = self._pending + chunk
        cut = data.rfind(b"\n") + 1
        self._pending = data[cut:] if len(data) - cut <= MAX_PENDING else b""
        found = []
        for raw in data[:cut].splitlines():
            item = self.reader.entry(raw)
            if item is not None:
                found.append(item)
                self.cursor = item[1] or self.cursor
        return found

    def close(self) -> None:
        """Stop journalctl and reap it."""
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(2)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(2)
        if self.process.stdout is not None:
            self.process.stdout.close()
