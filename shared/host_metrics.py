"""Host figures for the status page, read from /proc and /sys where readable.

Read fresh on every call (the status asks for them on every request), through plain
file descriptors: a pathlib and text-file round trip costs several times the read.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

THERMAL_ZONE = Path("/sys/class/thermal/thermal_zone0/temp")
UPTIME = "/proc/uptime"
MEMINFO = "/proc/meminfo"
_MAX_READ = 64 * 1024  # far more than any of these files holds


def host_metrics() -> dict[str, Any]:
    """Return uptime, load, memory and CPU temperature; unreadable figures are None."""
    return {
        "uptime_seconds": _uptime(),
        "load": _load(),
        "memory": _memory(),
        "cpu_temperature_c": _temperature(),
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
        lines = _read(MEMINFO).decode("ascii", "replace").splitlines()
    except OSError:
        return None
    info: dict[str, int] = {}
    for line in lines:
        name, _, rest = line.partition(":")
        if name in ("MemTotal", "MemAvailable"):
            info[name] = int(rest.split()[0]) * 1024
    if "MemTotal" not in info:
        return None
    total, available = info["MemTotal"], info.get("MemAvailable", 0)
    return {"total_bytes": total, "available_bytes": available,
            "used_percent": round(100 * (total - available) / total, 1)}


def _temperature() -> float | None:
    try:
        return round(int(_read(str(THERMAL_ZONE)).strip()) / 1000, 1)
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
