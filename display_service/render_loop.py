"""The render loop: the one thread that touches the matrix and calls ``display()``.

Frames are paced against deadlines on a monotonic clock. Static content (the default)
is redrawn once a second; a plugin with ``needs_high_fps`` or that says it is scrolling
gets ``1 / refresh_hz``. Between frames the loop waits on ``wake`` with the time to its
next deadline, so watcher threads (which only set flags and call ``wake.set()``) get
their change applied at once, in this order: config reload, config changes held back
for a plugin whose update() was running (``lifecycle.py``; an update returning wakes
the loop), on-demand requests, preview viewer, expiries, then the frame.

The first frame is drawn once each plugin's first ``update()`` is scheduled, without
waiting for it: a plugin with no data yet returns False (skipped) or draws a placeholder.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Callable
from typing import Any

from display_service.controller import ACTIVE, Controller, Entry
from display_service.display_manager import DisplayManager
from display_service.host import PluginHost, call_display, rotation, update_interval
from display_service.lifecycle import PluginHooks
from display_service.on_demand import OnDemandHandler
from display_service.plugin_errors import PluginErrors
from display_service.state import BusWriter, FpsMeter, StatePublisher
from display_service.updates import DEFAULT_BUDGET, UpdateScheduler
from shared.bus import (
    CONFIG_CHANGED,
    DISPLAY_ON_DEMAND_CONFIG,
    DISPLAY_ON_DEMAND_REQUEST,
    DISPLAY_STATE,
    PLUGIN_ERRORS,
    PREVIEW_FRAME,
    PREVIEW_VIEWER,
    Bus,
)

logger = logging.getLogger(__name__)

STATIC_INTERVAL = 1.0


class RenderLoop:
    """Rotation, on-demand, config reload and frames, all on one thread."""

    def __init__(
        self,
        *,
        display: DisplayManager,
        plugins: PluginHost,
        bus: Bus,
        config: dict[str, Any],
        load_config: Callable[[], dict[str, Any]],
        clock: Callable[[], float] = time.monotonic,
        update_budget: float = DEFAULT_BUDGET,
        started_at: float | None = None,
    ) -> None:
        self.display = display
        self.backend = display.backend
        self.plugins = plugins
        self.bus = bus
        self.config = config
        self.load_config = load_config
        self.clock = clock
        self.wake = threading.Event()
        self.errors = PluginErrors()
        self.updates = UpdateScheduler(self.errors, clock, update_budget, on_done=self.wake.set)
        self.hooks = PluginHooks(plugins, self.updates)
        self.writer = BusWriter(bus)
        self.publisher = StatePublisher(bus, self.writer, clock)
        self.controller = Controller([], clock())
        self.on_demand = OnDemandHandler(self.controller, self.writer, self.publisher)
        self.config_seq: Any = None
        self.started_at = started_at or time.time()
        self.first_frame_ms: float | None = None
        self._changed: set[str] = set()
        self._stopping = False
        self._frame_due = 0.0
        self._last_key: tuple[str, str, str | None] | None = None
        self._blank = False
        self._errors_version = -1
        self._fps = FpsMeter(clock())

    # -- called from other threads: flags only -------------------------------

    def notify(self, key: str) -> None:
        """Bus watcher callback: note what changed and wake the loop."""
        self._changed.add(key)  # set.add is atomic; the render thread takes it from here
        self.wake.set()

    def stop(self) -> None:
        """Ask the loop to finish after the current frame."""
        self._stopping = True
        self.wake.set()

    # -- the loop ------------------------------------------------------------

    def run(self) -> None:
        """Render until ``stop()``; then unload plugins, blank the panel, say stopped."""
        self.display.bind_render_thread()
        try:
            self._startup(self.clock())
            while not self._stopping:
                self.wake.clear()
                now = self.clock()
                self._apply_pending(now)
                self.publisher.maybe_publish(now, self.state)
                self.updates.poll(now, hold=self.hooks.held)
                self.display.process_deferred_updates()
                self.display.flush_pending()
                if now >= self._frame_due or self._current_key(now) != self._last_key:
                    self._render(now)
                now = self.clock()
                self._publish(now)
                self._wait(now)
        finally:
            self._shutdown()

    def _startup(self, now: float) -> None:
        self.config_seq = (self.bus.read(CONFIG_CHANGED) or {}).get("seq")
        self.publisher.refresh_viewer()
        self._rebuild(now)
        self._apply_display_settings()
        self._changed.add(DISPLAY_ON_DEMAND_REQUEST)  # one written while we were starting
        self.writer.put(PLUGIN_ERRORS, {})

    def _apply_pending(self, now: float) -> None:
        if self._take(CONFIG_CHANGED):
            self._reload_config(now)
        if changed := self.hooks.settle():
            self._plugins_changed(changed, now)
        if self._take(DISPLAY_ON_DEMAND_REQUEST):
            for request in self.bus.take_all(DISPLAY_ON_DEMAND_REQUEST):
                self.on_demand.handle(request, now)
        if self._take(PREVIEW_VIEWER):
            self.publisher.refresh_viewer()
        for event in self.controller.tick(now):
            self.publisher.mark_dirty()
            if event == "expired":
                self.on_demand.expired(now)

    def _take(self, key: str) -> bool:
        present = key in self._changed
        if present:  # discard only what was seen, or a change arriving now could be lost
            self._changed.discard(key)
        return present

    def _current_key(self, now: float) -> tuple[str, str, str | None] | None:
        entry = self.controller.current(now)
        if entry is None:
            return None
        od = self.controller.on_demand
        return (entry.plugin_id, entry.mode, od.request_id if od else None)

    def _render(self, now: float) -> None:
        entry = self.controller.current(now)
        key = self._current_key(now)
        if entry is None:
            if not self._blank:
                self.display.blank()
                self._blank = True
                self._last_key = None
            self._frame_due = now + STATIC_INTERVAL
            return
        self._blank = False
        force = key != self._last_key
        if force:
            self._last_key = key
            self.display.set_scrolling_state(False)
            self.publisher.mark_dirty()
        if self._draw(entry, force):
            self.controller.had_content()
            interval = self._interval(self.plugins.instances.get(entry.plugin_id))
            late = not (self._frame_due <= now < self._frame_due + interval)
            self._frame_due = (now if late or force else self._frame_due) + interval
        else:
            self._frame_due = now + self.controller.no_content(now)

    def _draw(self, entry: Entry, force: bool) -> bool:
        plugin = self.plugins.instances.get(entry.plugin_id)
        if plugin is None or self.updates.is_overrun(entry.plugin_id):
            return False
        self._fps.count += 1
        try:
            result = call_display(plugin, entry.mode, force)
        except Exception as err:  # isolation boundary: one plugin's display
            self.errors.record(entry.plugin_id, "display", err)
            return False
        if result is not False and self.first_frame_ms is None:
            self.first_frame_ms = round((time.time() - self.started_at) * 1000, 1)
            logger.info("first frame %.0f ms after start", self.first_frame_ms)
        return result is not False

    def _interval(self, plugin: Any) -> float:
        fast = getattr(plugin, "needs_high_fps", False) is True
        if fast or self.display.is_currently_scrolling():
            return 1.0 / self.display.refresh_hz
        return STATIC_INTERVAL

    def _publish(self, now: float) -> None:
        self.publisher.maybe_publish(now, self.state)
        if self.errors.version != self._errors_version:
            self._errors_version = self.errors.version
            self.writer.put(PLUGIN_ERRORS, self.errors.snapshot())
        self.publisher.preview(now, self.display.frames_pushed, lambda: self.display.image)

    def _wait(self, now: float) -> None:
        deadlines = [self._frame_due, self.publisher.next_due()]
        more = (self.controller.next_deadline(), self.updates.next_due())
        deadlines += [d for d in more if d is not None]
        timeout = min(deadlines) - now
        if timeout > 0:
            self.wake.wait(timeout)

    # -- config --------------------------------------------------------------

    def _reload_config(self, now: float) -> None:
        seq = (self.bus.read(CONFIG_CHANGED) or {}).get("seq")
        try:
            config = self.load_config()
        except Exception as err:  # keep running on the last good config
            logger.error("config reload (seq %s) failed, keeping the running config: %s", seq, err)
            return
        changed = self.hooks.apply_config(config, seq)
        self.config, self.config_seq = config, seq
        self._plugins_changed(changed, now)
        self._apply_display_settings()
        logger.info(
            "config reloaded (seq %s): %d plugins, changed: %s; held until update() returns: %s",
            seq, len(self.plugins.instances), ", ".join(changed) or "none",
            ", ".join(sorted(self.hooks.held)) or "none",
        )

    def _plugins_changed(self, changed: list[str], now: float) -> None:
        self._rebuild(now)
        for plugin_id in changed:
            self.updates.request(plugin_id, now)
        self.publisher.mark_dirty()

    def _rebuild(self, now: float) -> None:
        instances = dict(self.plugins.instances)
        for event in self.controller.rebuild(rotation(self.plugins, self.config, self.errors), now):
            if event == "expired":
                self.on_demand.expired(now)
        intervals = {p: update_interval(self.plugins, p) or 0.0 for p in instances}
        self.updates.sync(instances, intervals, now)

    def _apply_display_settings(self) -> None:
        if (brightness := self.display.apply_config(self.config)) is not None:
            logger.info("brightness %d", brightness)

    # -- state ---------------------------------------------------------------

    def state(self, service: str = "running") -> dict[str, Any]:
        """Return the ``display_state`` record as of now."""
        now = self.clock()
        entry = self.controller.current(now) if service == "running" else None
        on_demand = self.controller.snapshot_on_demand()
        for key in ("started_at", "ends_at"):
            on_demand[key] = self.publisher.to_wall(on_demand[key], now)
        return {
            "service": service,
            "pid": os.getpid(),
            "started_at": self.started_at,
            "updated_at": time.time(),
            "plugin_id": entry.plugin_id if entry else None,
            "mode": entry.mode if entry else None,
            "on_demand": on_demand,
            "brightness": self.backend.brightness,
            "fps": self._fps.rate(now),
            "config_seq": self.config_seq,
            "last_request_id": self.controller.last_request_id,
            "requests": self.on_demand.outcomes(),
            "loaded_plugins": sorted(self.plugins.instances),
            "load_errors": dict(getattr(self.plugins, "load_errors", {}) or {}),
            "backend": self.backend.name,
            "width": self.display.width,
            "height": self.display.height,
            "frames_pushed": self.display.frames_pushed,
            "first_frame_ms": self.first_frame_ms,
        }

    def _shutdown(self) -> None:
        self.hooks.shutdown()
        try:
            self.backend.clear()
            self.backend.close()
        except Exception:  # the panel is going away either way
            logger.exception("closing the %s backend failed", self.backend.name)
        if self.controller.state == ACTIVE:
            self.controller.stop_on_demand(self.controller.last_request_id, self.clock())
        self.writer.remove(DISPLAY_ON_DEMAND_CONFIG)
        self.writer.remove(PREVIEW_FRAME)
        self.writer.put(DISPLAY_STATE, self.state("stopped"))
        self.writer.close()
