"""Follow plugin folders installed, updated or uninstalled through the web, without a restart.

The web queues a ``plugins_changed`` request after each folder move (one file per
request, so two changes in quick succession are both seen); the render thread takes
them here, oldest first. Each request is checked with
``shared.plugin_system.changes.parse_change``: a bad one is logged and dropped.

For each change the plugin manager unloads the plugin if loaded, forgets its modules
and loads it again from the folder as it is now, when the folder is there and the
plugin is enabled (``PluginManager.apply_change``). An installed or updated plugin
leaves safe mode first (its files were replaced: the point of an update); the render
loop then gives every changed plugin a fresh start (breaker closed, update due now).
A plugin whose ``update()`` is running waits (``waiting``) and is retried on every turn
of the loop until its update returns, like a held-back config change.

What was done is published in ``display_state.plugins_applied`` by request id.
"""

from __future__ import annotations

import logging
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from display_service.plugins.lifecycle import PluginHooks
from display_service.plugins.safe_mode import SafeMode
from shared.bus.core import PLUGINS_CHANGED, Bus
from shared.plugin_system.changes import (
    APPLIED_KEPT,
    FAILED,
    UNINSTALLED,
    WAITING,
    parse_change,
)

logger = logging.getLogger(__name__)

MAX_PER_TURN = 64  # requests acted on per turn; more is a flood, not a store


class PluginChanges:
    """The queued ``plugins_changed`` requests, applied on the render thread."""

    def __init__(self, bus: Bus, hooks: PluginHooks, safe_mode: SafeMode | None,
                 wall: Callable[[], float] = time.time) -> None:
        self.bus = bus
        self.hooks = hooks
        self.safe_mode = safe_mode
        self.wall = wall
        # Plugins whose update() ran when their change came: id -> (change, request ids).
        self.waiting: dict[str, tuple[str, list[str | None]]] = {}
        self._applied: OrderedDict[str, dict[str, Any]] = OrderedDict()

    def applied(self) -> dict[str, dict[str, Any]]:
        """Return the outcomes of the last requests, by request id (for ``display_state``)."""
        return {request_id: dict(outcome) for request_id, outcome in self._applied.items()}

    def take(self) -> list[str]:
        """Apply the queued requests, oldest first; return the ids of plugins changed."""
        requests = self.bus.take_all(PLUGINS_CHANGED)
        if len(requests) > MAX_PER_TURN:
            logger.warning("plugins_changed: %d requests at once; the %d oldest dropped",
                           len(requests), len(requests) - MAX_PER_TURN)
            requests = requests[-MAX_PER_TURN:]
        changed: list[str] = []
        for request in requests:
            request_id = _request_id(request)
            parsed = parse_change(request)
            if isinstance(parsed, str):
                logger.warning("plugins_changed request %s ignored: %s", request_id, parsed)
                continue
            plugin_id, change = parsed
            earlier = self.waiting.pop(plugin_id, (change, []))[1]
            if self._apply(plugin_id, change, [*earlier, request_id]):
                changed.append(plugin_id)
        return changed

    def retry(self) -> list[str]:
        """Apply the changes that waited for an update() to return; return those applied."""
        changed = []
        for plugin_id, (change, request_ids) in list(self.waiting.items()):
            if self.hooks.updates.busy(plugin_id):
                continue
            del self.waiting[plugin_id]
            if self._apply(plugin_id, change, request_ids):
                changed.append(plugin_id)
        return changed

    def _apply(self, plugin_id: str, change: str, request_ids: list[str | None]) -> bool:
        """Apply one change; record and log it; return False while it waits."""
        if change != UNINSTALLED:
            self._release(plugin_id)
        result, detail = self.hooks.apply_change(plugin_id, change)
        if result == WAITING:
            self.waiting[plugin_id] = (change, request_ids)
        for request_id in request_ids:
            self._record(request_id, plugin_id, change, result, detail)
        # A load that failed was logged with its reason by the plugin manager already.
        log = logger.warning if result == FAILED else logger.info
        log("%s: %s: %s (%s; request %s)", plugin_id, change, result, detail,
            request_ids[-1])
        return result != WAITING

    def _release(self, plugin_id: str) -> None:
        """Take a plugin whose files were replaced out of safe mode."""
        safe_mode = self.safe_mode
        if safe_mode is not None and safe_mode.release(plugin_id, "its files were replaced"):
            self.hooks.plugins.blocked = safe_mode.blocked()

    def _record(self, request_id: str | None, plugin_id: str, change: str, result: str,
                detail: str) -> None:
        if request_id is None:
            return
        self._applied.pop(request_id, None)
        self._applied[request_id] = {"plugin_id": plugin_id, "change": change,
                                     "result": result, "detail": detail,
                                     "applied_at": self.wall()}
        while len(self._applied) > APPLIED_KEPT:
            self._applied.popitem(last=False)


def _request_id(request: Any) -> str | None:
    """Return a request's id as short text, or None when it has none."""
    value = request.get("request_id") if isinstance(request, dict) else None
    return value[:64] if isinstance(value, str) and value else None
