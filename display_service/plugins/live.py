"""Live priority: which plugins have live content now.

A plugin is a candidate when its config has ``live_priority: true`` and its
``has_live_priority()`` returns True. Candidates are asked ``has_live_content()`` on the
render thread: after any plugin's ``update()`` returns (the loop counts finished
updates), and every ``LIVE_POLL_INTERVAL`` seconds in between, so live content is
noticed at the loop's next wake after the update that found it, and within a few
seconds otherwise. With no candidate loaded nothing is polled and the loop does not
wake for it. The hooks must return at once (the plugin decides in ``update()``); one
that raises is recorded in ``plugin_errors`` and counts as "not live".
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from display_service.plugins.errors import PluginErrors
from shared.plugin_api.boundary import CONTAINED, plugin_call

LIVE_POLL_INTERVAL = 5.0


class LiveWatch:
    """Ask the live-priority plugins whether they are live, at a modest cadence."""

    def __init__(self, errors: PluginErrors) -> None:
        self.errors = errors
        self._next: float | None = float("-inf")
        self._updates_seen: int | None = None

    def due(self, now: float, updates_done: int) -> bool:
        """Return whether to poll now: the interval passed or an update has returned."""
        if self._next is None:
            return updates_done != self._updates_seen
        return now >= self._next or updates_done != self._updates_seen

    def next_due(self) -> float | None:
        """Return when the next timed poll is due; None while no plugin is a candidate."""
        return self._next

    def reset(self) -> None:
        """Poll at the next chance (after a config reload)."""
        self._next = float("-inf")

    def poll(self, now: float, plugins: Mapping[str, Any], updates_done: int
             ) -> dict[str, list[str]]:
        """Return the live plugins: plugin id -> its live modes (empty: all its modes)."""
        self._updates_seen = updates_done
        live: dict[str, list[str]] = {}
        candidates = 0
        for plugin_id, plugin in plugins.items():
            try:
                if not self._candidate(plugin):
                    continue
                candidates += 1
                with plugin_call(plugin_id, "has_live_content"):
                    if plugin.has_live_content() is True:
                        live[plugin_id] = self._modes(plugin)
            except CONTAINED as err:  # isolation boundary: one plugin's live hooks
                self.errors.record(plugin_id, "has_live_content", err)
        self._next = now + LIVE_POLL_INTERVAL if candidates else None
        return live

    @staticmethod
    def _candidate(plugin: Any) -> bool:
        config = getattr(plugin, "config", None)
        if not isinstance(config, dict) or config.get("live_priority") is not True:
            return False
        hook = getattr(plugin, "has_live_priority", None)
        return callable(hook) and hook() is True and callable(
            getattr(plugin, "has_live_content", None))

    @staticmethod
    def _modes(plugin: Any) -> list[str]:
        hook = getattr(plugin, "get_live_modes", None)
        modes = hook() if callable(hook) else None
        return [m for m in modes if isinstance(m, str)] if isinstance(modes, list | tuple) else []
