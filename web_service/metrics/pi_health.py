"""Temperature and throttling on a Raspberry Pi; None where the board has neither.

The temperature is the thermal zone ``shared.host_metrics`` reads (``LEDPANEL_THERMAL_FILE``
in its place). Throttling is ``vcgencmd get_throttled`` (``throttled=0x50005``), run with
a time limit only where the command exists, its answer kept ``KEEP_FOR`` seconds so a
scrape every few seconds does not start a process each time.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import threading
import time
from typing import Any

from shared.host_metrics import cpu_temperature

COMMAND = ("vcgencmd", "get_throttled")
TIMEOUT = 2.0
KEEP_FOR = 10.0
_ANSWER = re.compile(r"^throttled=0x([0-9a-fA-F]{1,8})\s*$")
# The bits vcgencmd documents: now (low half) and since boot (high half).
FLAGS = {"under_voltage": 0, "frequency_capped": 1, "throttled": 2, "soft_temp_limit": 3}
SINCE_BOOT = 16

_lock = threading.Lock()
_kept: tuple[float, dict[str, Any] | None] | None = None


def pi_health() -> dict[str, Any]:
    """Return ``{cpu_temperature_c, throttling}`` (each None where unknown)."""
    return {"cpu_temperature_c": cpu_temperature(), "throttling": throttling()}


def throttling() -> dict[str, Any] | None:
    """Return the throttling flags now and since boot, None without ``vcgencmd``."""
    global _kept
    with _lock:
        now = time.monotonic()
        if _kept is not None and now - _kept[0] < KEEP_FOR:
            return _kept[1]
        _kept = (now, _read_throttled())
        return _kept[1]


def forget() -> None:
    """Drop the kept answer (tests; a fresh scrape asks again)."""
    global _kept
    with _lock:
        _kept = None


def _read_throttled() -> dict[str, Any] | None:
    program = shutil.which(COMMAND[0])
    if program is None:
        return None
    try:
        done = subprocess.run([program, *COMMAND[1:]], capture_output=True, text=True,
                              timeout=TIMEOUT, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    match = _ANSWER.match(done.stdout.strip()) if done.returncode == 0 else None
    if match is None:
        return None
    value = int(match.group(1), 16)
    return {"raw": value,
            "now": {name: bool(value >> bit & 1) for name, bit in FLAGS.items()},
            "since_boot": {name: bool(value >> (bit + SINCE_BOOT) & 1)
                           for name, bit in FLAGS.items()}}
