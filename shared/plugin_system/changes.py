"""The ``plugins_changed`` request: a plugin folder was installed, updated or uninstalled.

The web queues one after it has moved a plugin folder into or out of the plugins
directory; the display follows it without a restart. Both sides read the request
through ``parse_change``, so a request the web would refuse is refused by the display
too (anyone who can write the bus folder can queue one).

The display publishes what it did in ``display_state.plugins_applied``, by request id:
``{request_id: {"plugin_id", "change", "result", "detail", "applied_at"}}`` for the last
``APPLIED_KEPT`` requests. ``result`` is one of ``RESULTS``.
"""

from __future__ import annotations

from typing import Any

from shared.ids import is_plain_segment

INSTALLED, UPDATED, UNINSTALLED = "installed", "updated", "uninstalled"
CHANGES = (INSTALLED, UPDATED, UNINSTALLED)

# What the display did: loaded (new), reloaded (new code running), unloaded, not_loaded
# (on disk but disabled, in safe mode or failing: ``detail`` says which), waiting (its
# update() runs: applied when it returns, then published again), failed (unexpected).
LOADED, RELOADED, UNLOADED, NOT_LOADED, WAITING, FAILED = (
    "loaded", "reloaded", "unloaded", "not_loaded", "waiting", "failed")
RESULTS = (LOADED, RELOADED, UNLOADED, NOT_LOADED, WAITING, FAILED)

APPLIED_KEPT = 8


def parse_change(request: Any) -> tuple[str, str] | str:
    """Return ``(plugin_id, change)`` of a request, or why it is refused (one line)."""
    if not isinstance(request, dict):
        return "not a JSON object"
    plugin_id, change = request.get("plugin_id"), request.get("change")
    if not is_plain_segment(plugin_id) or not isinstance(plugin_id, str):
        return f"plugin_id {str(plugin_id)[:80]!r} is not a plain name"
    if change not in CHANGES:
        return f"change {str(change)[:40]!r} is not one of {', '.join(CHANGES)}"
    return plugin_id, str(change)
