"""Memory and CPU time of one process, from ``/proc/<pid>`` (Linux), None where unreadable.

The pid comes from the daemon's lock (``shared.bus.daemon_lock``), not from a bus record,
so a hand-written record cannot point the figures at another process.
"""

from __future__ import annotations

import os
from typing import Any

_MAX_READ = 16 * 1024
try:
    _TICKS = os.sysconf("SC_CLK_TCK")
except (ValueError, OSError, AttributeError):  # not Linux: no /proc either
    _TICKS = 100


def process_figures(pid: int | None) -> dict[str, Any] | None:
    """Return ``{pid, rss_bytes, cpu_seconds}`` of ``pid``, None when it cannot be read."""
    if pid is None or pid <= 0:
        return None
    return {"pid": pid, "rss_bytes": _rss(pid), "cpu_seconds": _cpu_seconds(pid)}


def _rss(pid: int) -> int | None:
    try:
        text = _read(f"/proc/{pid}/status")
    except OSError:
        return None
    for line in text.splitlines():
        if line.startswith("VmRSS:"):
            parts = line.split()
            if len(parts) >= 2 and parts[1].isdigit():
                return int(parts[1]) * 1024
    return None


def _cpu_seconds(pid: int) -> float | None:
    try:
        text = _read(f"/proc/{pid}/stat")
    except OSError:
        return None
    # The command name is in parentheses and may hold spaces: the fields follow the last.
    fields = text.rpartition(")")[2].split()
    try:
        user, system = int(fields[11]), int(fields[12])  # utime, stime (fields 14, 15)
    except (IndexError, ValueError):
        return None
    return round((user + system) / _TICKS, 2)


def _read(path: str) -> str:
    """Return a small /proc file's text."""
    fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
    try:
        return os.read(fd, _MAX_READ).decode("utf-8", "replace")
    finally:
        os.close(fd)
