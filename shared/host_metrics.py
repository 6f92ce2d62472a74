"""Host figures for the status page, read from /proc and /sys where readable."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

THERMAL_ZONE = Path("/sys/class/thermal/thermal_zone0/temp")


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
        return float(Path("/proc/uptime").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return None


def _load() -> list[float] | None:
    try:
        return [round(value, 2) for value in os.getloadavg()]
    except OSError:
        return None


def _memory() -> dict[str, float] | None:
    try:
        lines = Path("/proc/meminfo").read_text().splitlines()
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
        return round(int(THERMAL_ZONE.read_text().strip()) / 1000, 1)
    except (OSError, ValueError):
        return None
