"""What the display daemon's heartbeat (bus key ``display_state``) says about it.

One rule, used by the web (``/system/status``, on-demand) and by the ``ledpanel status``
fallback that reads the bus directly. The record is written by another process and
may be torn by a hand edit: anything malformed reads as "not running", never raises.
"""

from __future__ import annotations

import math
from typing import Any

# A heartbeat older than this (seconds) means the display service is not running.
DEFAULT_STALE_AFTER = 5.0


def timestamp(value: Any) -> float | None:
    """Return a bus timestamp as a float, or None when it is not a finite number."""
    if isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value):
        return float(value)
    return None


def service_state(state: Any, now: float, stale_after: float = DEFAULT_STALE_AFTER) -> str:
    """Return ``running``, ``stopped`` or ``not_running`` for a ``display_state`` record.

    ``stopped``: the daemon said so on its way out. ``running``: its heartbeat
    (``updated_at``) is at most ``stale_after`` seconds older than ``now``. Anything
    else, a missing or malformed record included, is ``not_running``.
    """
    if not isinstance(state, dict) or not state:
        return "not_running"
    if state.get("service") == "stopped":
        return "stopped"
    beat = timestamp(state.get("updated_at"))
    if beat is None:
        return "not_running"
    return "running" if now - beat <= stale_after else "not_running"
