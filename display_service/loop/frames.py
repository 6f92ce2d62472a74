"""One plugin frame on the render thread: the guarded ``display()`` call and its cadence.

Frame cadence is declared by the plugin: static content (the default) is redrawn once
a second (``STATIC_INTERVAL``); a plugin with the class or instance attribute
``needs_high_fps = True`` (or ``enable_scrolling = True``, which tickers written for the
existing system set to the same end), or one that called
``display_manager.set_scrolling_state(True)`` during its current slot, is redrawn every
``1 / refresh_hz`` seconds (``display.hardware.limit_refresh_rate_hz``, default 100).
The scrolling state is cleared whenever a new slot starts. A frame identical to the one
on the panel is not pushed again (the display manager compares them).

**Slow ``display()`` calls.** Every call is timed. Its budget is ``STATIC_BUDGET``
(0.5 s) for static content, and for fast content (as declared before the call) ten
frame intervals, at least ``FAST_BUDGET_FLOOR`` (0.2 s) and at most the static budget:
slow enough to be a real problem (a 100 Hz scroller taking 0.2 s shows 5 frames a
second, and every interrupt waits for the call), lenient enough that one hiccup of a
busy machine does not count. A call over its budget is recorded in ``plugin_errors``
(where ``display``, "display() took X s (budget Y s)"). After ``SKIP_AFTER`` (3) such
calls in a row the plugin is skipped for ``SKIP_FOR`` (30 s) in every layer, as if it
had no content, so the rotation moves on; the next skip of the same plugin lasts twice
as long, up to ``SKIP_CAP``. After a skip, one more slow call skips it again; a call
within budget clears the streak and the doubling.

Limitation: the render thread cannot interrupt a ``display()`` call, so one that never
returns stops the panel (and the loop) for good; the skip protects against slow calls,
not hung ones. ``update()`` is where plugins wait for the network.

The dynamic-duration hooks (``reset_cycle_state``, ``is_cycle_complete``) are called
here too, guarded like ``display()``: one that raises is recorded, and the slot then
runs to its cap.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from display_service.control.rotation import Entry
from display_service.loop.metrics import LoopMetrics
from display_service.plugins.display_manager import DisplayManager
from display_service.plugins.errors import PluginErrors
from display_service.plugins.host import PluginHost, call_display
from display_service.plugins.updates import UpdateScheduler
from display_service.state import FpsMeter
from shared.plugin_api.boundary import CONTAINED, plugin_call

logger = logging.getLogger(__name__)

STATIC_INTERVAL = 1.0
STATIC_BUDGET = 0.5
FAST_BUDGET_FRAMES = 10
FAST_BUDGET_FLOOR = 0.2
SKIP_AFTER = 3
SKIP_FOR = 30.0
SKIP_CAP = 480.0


@dataclass
class _Slowness:
    """One plugin's recent slow ``display()`` calls."""

    plugin: Any  # the instance this is about: a reloaded plugin starts afresh
    streak: int = 0
    skip_for: float = SKIP_FOR
    skip_until: float = float("-inf")


class FramePainter:
    """Draw the shown entry's plugin and say when its next frame is due."""

    def __init__(self, display: DisplayManager, plugins: PluginHost, errors: PluginErrors,
                 updates: UpdateScheduler, fps: FpsMeter, started_at: float,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.display = display
        self.plugins = plugins
        self.errors = errors
        self.updates = updates
        self.fps = fps
        self.started_at = started_at
        self.clock = clock
        self.first_frame_ms: float | None = None
        self._slow: dict[str, _Slowness] = {}
        self.metrics: LoopMetrics | None = None  # the loop's figures, fed every call

    def draw(self, entry: Entry, force: bool) -> bool:
        """Call the plugin's ``display()``; return True when it showed something."""
        plugin_id = entry.plugin_id
        plugin = self.plugins.instances.get(plugin_id)
        if plugin is None or self.updates.is_overrun(plugin_id) or self.skipped(plugin_id):
            return False
        if self.errors.resting(plugin_id):  # circuit breaker open: skipped like no content
            return False
        budget = self.budget(plugin)
        self.fps.count += 1
        started = self.clock()
        try:
            with plugin_call(plugin_id, "display"):
                result = call_display(plugin, entry.mode, force)
            self.errors.succeeded(plugin_id, "display")
        except CONTAINED as err:  # isolation boundary: one plugin's display
            self.errors.record(plugin_id, "display", err)
            result = False
        took = self.clock() - started
        self._timed(plugin_id, plugin, took, budget)
        if self.metrics is not None:
            self.metrics.frame(plugin_id, took, self.interval(entry))
        if result is not False and self.first_frame_ms is None:
            self.first_frame_ms = round((time.time() - self.started_at) * 1000, 1)
            logger.info("first frame %.0f ms after start", self.first_frame_ms)
        return result is not False

    def interval(self, entry: Entry) -> float:
        """Return the seconds until the entry's next frame."""
        plugin = self.plugins.instances.get(entry.plugin_id)
        if self._fast(plugin):
            # While scrolling, each frame is held frame_hold refreshes: that hold is part
            # of the scroll speed (scroll_config), so it must pace the calls too.
            return self.display.frame_interval
        return STATIC_INTERVAL

    def budget(self, plugin: Any) -> float:
        """Return how long one ``display()`` call of the plugin may take."""
        if not self._fast(plugin):
            return STATIC_BUDGET
        fast = FAST_BUDGET_FRAMES * self.display.frame_interval
        return min(STATIC_BUDGET, max(FAST_BUDGET_FLOOR, fast))

    def _fast(self, plugin: Any) -> bool:
        fast = any(getattr(plugin, name, False) is True
                   for name in ("needs_high_fps", "enable_scrolling"))
        return fast or self.display.is_currently_scrolling()

    # -- slow calls ----------------------------------------------------------

    def skipped(self, plugin_id: str) -> bool:
        """Return True while a plugin is skipped for slow ``display()`` calls."""
        slow = self._slow.get(plugin_id)
        return slow is not None and self.clock() < slow.skip_until

    def _timed(self, plugin_id: str, plugin: Any, took: float, budget: float) -> None:
        slow = self._slow.get(plugin_id)
        if slow is not None and slow.plugin is not plugin:
            slow = None  # reloaded: the new instance starts with a clean slate
        if took <= budget:
            if slow is not None:
                del self._slow[plugin_id]
            return
        if slow is None:
            slow = self._slow[plugin_id] = _Slowness(plugin)
        slow.streak += 1
        message = f"display() took {took:.2f} s (budget {budget:g} s)"
        if slow.streak >= SKIP_AFTER:
            slow.skip_until = self.clock() + slow.skip_for
            message += f"; {slow.streak} in a row: skipped for {slow.skip_for:g} s"
            slow.streak = SKIP_AFTER - 1  # on probation: one more slow call skips it again
            slow.skip_for = min(SKIP_CAP, slow.skip_for * 2)
        self.errors.record_message(plugin_id, "display", message)

    def forget(self, loaded: dict[str, Any]) -> None:
        """Drop what is known about plugins no longer loaded (or reloaded)."""
        for plugin_id in [p for p, s in self._slow.items() if loaded.get(p) is not s.plugin]:
            del self._slow[plugin_id]

    # -- dynamic duration ----------------------------------------------------

    def reset_cycle(self, entry: Entry) -> None:
        """A dynamic-duration slot starts: the plugin begins a new cycle."""
        self._hook(entry, "reset_cycle_state")

    def cycle_complete(self, entry: Entry) -> bool:
        """Return True when the plugin says its cycle is complete."""
        return self._hook(entry, "is_cycle_complete") is True

    def _hook(self, entry: Entry, name: str) -> Any:
        hook = getattr(self.plugins.instances.get(entry.plugin_id), name, None)
        if not callable(hook):
            return None
        try:
            with plugin_call(entry.plugin_id, name):
                return hook()
        except CONTAINED as err:  # isolation boundary: one plugin's hook
            self.errors.record(entry.plugin_id, name, err)
            return None
