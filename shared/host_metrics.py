"""Host figures for the status page, read from /proc and /sys where readable.

Read fresh on every call (the status asks for them on every request), through plain
file descriptors: a pathlib and text-file round trip costs several times the read.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

THERMAL_ZONE = Path("/sys/class/thermal/thermal_zone0/temp")
# A file read in its place (tests: a fake thermal zone; boards with another zone).
THERMAL_ENV = "LEDPANEL_THERMAL_FILE"
UPTIME = "/proc/uptime"
MEMINFO = "/proc/meminfo"
_MAX_READ = 64 * 1024  # far more than any of these files holds
_MEM_TOTAL = re.compile(rb"^MemTotal:\s+(\d+)", re.MULTILINE)
_MEM_AVAILABLE = re.compile(rb"^MemAvailable:\s+(\d+)", re.MULTILINE)


def host_metrics() -> dict[str, Any]:
    """Return uptime, load, memory and CPU temperature; unreadable figures are None."""
    return {
        "uptime_seconds": _uptime(),
        "load": _load(),
        "memory": _memory(),
        "cpu_temperature_c": cpu_temperature(),
    }


def _uptime() -> float | None:
    try:
        return float(_read(UPTIME).split()[0])
    except (OSError, ValueError, IndexError):
        return None


def _load() -> list[float] | None:
    try:
        return [round(value, 2) for value in os.getloadavg()]
    except OSError:
        return None


def _memory() -> dict[str, float] | None:
    try:
        data = _read(MEMINFO)
    except OSError:
        return None
    # Two fields near the top of some fifty lines: found, not split and scanned line by line.
    total, available = _MEM_TOTAL.search(data), _MEM_AVAILABLE.search(data)
    if total is None or int(total.group(1)) == 0:
        return None
    total_bytes = int(total.group(1)) * 1024
    available_bytes = int(available.group(1)) * 1024 if available is not None else 0
    return {"total_bytes": total_bytes, "available_bytes": available_bytes,
            "used_percent": round(100 * (total_bytes - available_bytes) / total_bytes, 1)}


def cpu_temperature() -> float | None:
    """Return the CPU temperature in degrees Celsius, None where there is no thermal zone."""
    try:
        return round(int(_read(os.environ.get(THERMAL_ENV) or str(THERMAL_ZONE)).strip())
                     / 1000, 1)
    except (OSError, ValueError):
        return None


def _read(path: str) -> bytes:
    """Return a small /proc or /sys file's bytes."""
    fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
    try:
        data = b""
        while len(data) < _MAX_READ:
            chunk = os.read(fd, _MAX_READ)
            data += chunk
            # A short read is the end of these files: the kernel hands them over whole.
            if len(chunk) < _MAX_READ:
                break
        return data
    finally:
        os.close(fd)
