"""Display control requests: the next rotation entry now, the panel on or off by hand.

The web (``POST /api/v3/display/next``, ``/display/power``) and the MQTT bridge put
them on the bus here, as queued ``display_control`` requests; the display applies them
(``display_service.control.display_control``) and answers each one under
``requests.<request_id>`` in ``display_state``: ``{"action", "state": "done" | "error",
"error", "plugin_id", "mode", "power"}``. ``answer`` waits for that outcome.
"""

from __future__ import annotations

from typing import Any

from shared.bus.core import DISPLAY_CONTROL, DISPLAY_STATE, Bus
from shared.bus.display_status import RUNNING, STARTING, read_display, service_state

NEXT, POWER = "next", "power"
DONE, ERROR = "done", "error"
MAX_SOURCE = 32


def _source(source: str) -> str:
    if not isinstance(source, str) or not source or len(source) > MAX_SOURCE:
        raise ValueError(f"source must be a short name such as 'http' or 'mqtt', not {source!r}")
    return source


def request_next(bus: Bus, source: str) -> str:
    """Ask the display to end the shown entry now and show the next; return the request id."""
    return bus.request(DISPLAY_CONTROL, {"action": NEXT, "source": _source(source)})


def request_power(bus: Bus, on: bool, source: str) -> str:
    """Ask the display to turn the panel on or off by hand; return the request id."""
    if not isinstance(on, bool):
        raise ValueError(f"on must be true or false, not {on!r}")
    return bus.request(DISPLAY_CONTROL, {"action": POWER, "on": on, "source": _source(source)})


def outcome(state: Any, request_id: str) -> dict[str, Any] | None:
    """Return the display's outcome for ``request_id`` in a ``display_state`` record."""
    requests = state.get("requests") if isinstance(state, dict) else None
    found = requests.get(request_id) if isinstance(requests, dict) else None
    return found if isinstance(found, dict) else None


def answer(bus: Bus, request_id: str,
           timeout: float) -> tuple[dict[str, Any] | None, dict[str, Any] | None]:
    """Wait for the display's outcome of ``request_id``; return it and the state carrying it.

    Both are None when no display runs (the request waits in the queue for the next
    start, where a stale one is refused) or it did not answer within ``timeout``.
    """
    if service_state(*read_display(bus)) not in (RUNNING, STARTING):
        return None, None
    state = bus.wait_for(DISPLAY_STATE, lambda value: outcome(value, request_id) is not None,
                         timeout=timeout)
    found = outcome(state, request_id)
    return (found, state) if found is not None else (None, None)
