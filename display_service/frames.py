"""One plugin frame on the render thread: the guarded ``display()`` call and its cadence.

Frame cadence is declared by the plugin: static content (the default) is redrawn once
a second (``STATIC_INTERVAL``); a plugin with the class or instance attribute
``needs_high_fps = True``, or one that called
``display_manager.set_scrolling_state(True)`` during its current slot, is redrawn every
``1 / refresh_hz`` seconds (``display.hardware.limit_refresh_rate_hz``, default 100).
The scrolling state is cleared whenever a new slot starts. A frame identical to the one
on the panel is not pushed again (the display manager compares them).

The dynamic-duration hooks (``reset_cycle_state``, ``is_cycle_complete``) are called
here too, guarded like ``display()``: one that raises is recorded, and the slot then
runs to its cap.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from display_service.display_manager import DisplayManager
from display_service.host import PluginHost, call_display
from display_service.plugin_errors import PluginErrors
from display_service.rotation import Entry
from display_service.state import FpsMeter
from display_service.updates import UpdateScheduler

logger = logging.getLogger(__name__)

STATIC_INTERVAL = 1.0


class FramePainter:
    """Draw the shown entry's plugin and say when its next frame is due."""

    def __init__(self, display: DisplayManager, plugins: PluginHost, errors: PluginErrors,
                 updates: UpdateScheduler, fps: FpsMeter, started_at: float) -> None:
        self.display = display
        self.plugins = plugins
        self.errors = errors
        self.updates = updates
        self.fps = fps
        self.started_at = started_at
        self.first_frame_ms: float | None = None

    def draw(self, entry: Entry, force: bool) -> bool:
        """Call the plugin's ``display()``; return True when it showed something."""
        plugin = self.plugins.instances.get(entry.plugin_id)
        if plugin is None or self.updates.is_overrun(entry.plugin_id):
            return False
        self.fps.count += 1
        try:
            result = call_display(plugin, entry.mode, force)
        except Exception as err:  # isolation boundary: one plugin's display
            self.errors.record(entry.plugin_id, "display", err)
            return False
        if result is not False and self.first_frame_ms is None:
            self.first_frame_ms = round((time.time() - self.started_at) * 1000, 1)
            logger.info("first frame %.0f ms after start", self.first_frame_ms)
        return result is not False

    def interval(self, entry: Entry) -> float:
        """Return the seconds until the entry's next frame."""
        plugin = self.plugins.instances.get(entry.plugin_id)
        fast = getattr(plugin, "needs_high_fps", False) is True
        if fast or self.display.is_currently_scrolling():
            # While scrolling, each frame is held frame_hold refreshes: that hold is part
            # of the scroll speed (scroll_config), so it must pace the calls too.
            return self.display.frame_interval
        return STATIC_INTERVAL

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
            return hook()
        except Exception as err:  # isolation boundary: one plugin's hook
            self.errors.record(entry.plugin_id, name, err)
            return None
