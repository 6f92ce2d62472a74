"""The on-demand request the controller keeps: its record, states, checks and snapshot.

Pure data and functions, no clock of their own (times are the controller's). The
controller (``controller.py``) decides when a request starts and ends; the bus side
(reading requests, writing ``display_on_demand_config``) is ``on_demand.py``.

States: ``idle`` (none, or the last one expired), ``active``, ``stopped`` (the last stop
request was applied), ``error`` (the last start request was refused; ``error`` says
why, and any previous on-demand has ended).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from display_service.control.rotation import positive

IDLE, ACTIVE, STOPPED, ERROR = "idle", "active", "stopped", "error"


@dataclass(frozen=True)
class OnDemand:
    """The active on-demand request."""

    plugin_id: str
    mode: str
    pinned: bool
    request_id: str | None
    started_at: float
    ends_at: float | None  # None: until stopped


def request_problem(plugin_id: str, mode: str | None, duration: float | None,
                    modes: Sequence[str]) -> str | None:
    """Return why a start request cannot be shown (``modes``: the plugin's), or None."""
    if not modes:
        return f"plugin {plugin_id!r} is not loaded"
    if mode and mode not in modes:
        return f"plugin {plugin_id!r} has no mode {mode!r} (modes: {', '.join(modes)})"
    if duration is not None and positive(duration) is None:
        return f"duration must be a positive number of seconds, not {duration!r}"
    return None


def snapshot(od: OnDemand | None, state: str, last_request_id: str | None,
             error: str | None) -> dict[str, Any]:
    """Return the on-demand block for the published state (times on the controller clock)."""
    return {
        "state": state,
        "plugin_id": od.plugin_id if od else None,
        "mode": od.mode if od else None,
        "request_id": od.request_id if od else last_request_id,
        "pinned": od.pinned if od else False,
        "started_at": od.started_at if od else None,
        "ends_at": od.ends_at if od else None,
        "error": error,
    }
