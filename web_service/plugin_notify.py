"""Tell the running display that a plugin folder was installed, updated or uninstalled.

The plugin store calls ``notify_plugins_changed`` after each folder move; the display
loads, reloads or unloads the plugin without a restart and publishes the outcome in
``display_state.plugins_applied`` under the returned request id (``applied_outcome``).
The request is queued (one bus file per request), so none is lost to the next one, and
one made while the display is stopped is applied when it starts.
"""

from __future__ import annotations

from typing import Any

from shared.bus import core as keys
from shared.bus.core import Bus
from shared.errors import ValidationError
from shared.plugin_system.changes import CHANGES, parse_change


def _bus(target: Any) -> Bus:
    """Return the bus of a ``Bus``, ``WebServices`` or ``DisplayLink``."""
    found = target if isinstance(target, Bus) else getattr(target, "bus", None)
    if not isinstance(found, Bus):
        raise TypeError(f"no bus in {type(target).__name__}")
    return found


def notify_plugins_changed(bus_or_services: Any, plugin_id: str, change: str) -> str:
    """Queue a ``plugins_changed`` request for the display; return its request id.

    ``bus_or_services``: a ``shared.bus.core.Bus``, the app's ``WebServices`` or its
    ``DisplayLink``. ``plugin_id``: the plugin's folder name (one plain segment).
    ``change``: ``"installed"``, ``"updated"`` or ``"uninstalled"``; call it after the
    folder is in place (or gone), never before. Raises ``ValidationError`` (400,
    ``INVALID_PLUGIN_CHANGE``) for a bad id or change and ``AtomicWriteError`` when the
    bus folder cannot be written. Does not wait for the display.
    """
    parsed = parse_change({"plugin_id": plugin_id, "change": change})
    if isinstance(parsed, str):
        raise ValidationError(f"plugins_changed: {parsed}", error_code="INVALID_PLUGIN_CHANGE",
                              details={"changes": list(CHANGES)})
    return _bus(bus_or_services).request(keys.PLUGINS_CHANGED,
                                         {"plugin_id": parsed[0], "change": parsed[1]})


def applied_outcome(bus_or_services: Any, request_id: str) -> dict[str, Any] | None:
    """Return the display's outcome for a request (``result``, ``detail``...), or None yet.

    ``result`` is ``loaded``, ``reloaded``, ``unloaded``, ``not_loaded``, ``waiting``
    (published again once applied) or ``failed``.
    """
    state = _bus(bus_or_services).read(keys.DISPLAY_STATE) or {}
    applied = state.get("plugins_applied")
    outcome = applied.get(request_id) if isinstance(applied, dict) else None
    return dict(outcome) if isinstance(outcome, dict) else None
