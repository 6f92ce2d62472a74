"""The render loop: the one thread that touches the matrix and calls ``display()``.

Frames are paced against deadlines on a monotonic clock (cadence: ``frames.py``).
Between frames the loop waits on ``wake`` with the time to its nearest deadline (next
frame, end of the shown entry, due update, schedule boundary, live poll, preview),
so watcher threads (which only set flags and call ``wake.set()``) get their change
applied at once, in this order: config reload, config changes held back for a plugin
whose update() was running (``lifecycle.py``; an update returning wakes the loop),
plugin folders installed, updated or uninstalled (``plugin_changes.py``), on-demand
requests, notification requests, display control requests (next, power by hand),
preview viewer, schedules (``schedules.py``), live priority (``live.py``), sync
messages and heartbeats (``sync/link.py``), expiries, the notifications (what shows:
``notify/layer.py``), then the frame.

What is drawn, by priority: a notification (``display_service.notify``), on-demand,
then on a follower panel its part of the leader's wall or the leader's entry
(``display_service/sync/``), then live content, then the full-screen mode when one is
set and active (``full_screen.py``), then the rotation (``controller.py``).
While the power schedule says off, the panel is blank unless an on-demand request is
active: an explicit request shows even at night; turned off by hand
(``control/display_control.py``), it is blank whatever is active. Updates keep running
while off, so the panel shows fresh data when it comes back on.

The first frame is drawn once each plugin's first ``update()`` is scheduled, without
waiting for it: a plugin with no data yet returns False (skipped) or draws a placeholder.
Only the plugin shown first is loaded before the loop starts; the other enabled plugins
wait in the plugin manager's queue (``loading``) and are loaded after each frame,
``LOAD_PER_TURN`` at a time, joining the rotation as they load (``docs/DESIGN.md``,
"The display's start").
"""

from __future__ import annotations

import gc
import itertools
import logging
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from display_service.config_source import CONFIG_FILE, DEBOUNCE, CallableReader, ConfigReader
from display_service.control.controller import ACTIVE, Controller
from display_service.control.display_control import ControlHandler
from display_service.control.on_demand import OnDemandHandler
from display_service.loop import layer_reasons
from display_service.loop.bus_requests import REQUESTS
from display_service.loop.compose import NOTIFICATION, OFF, Compositor
from display_service.loop.frames import FramePainter
from display_service.loop.full_screen import FullScreenMode
from display_service.loop.hardware_record import with_brightness
from display_service.loop.inbox import Inbox
from display_service.loop.metrics import LoopMetrics, MetricsPublisher
from display_service.loop.schedules import PanelSchedule
from display_service.loop.status import display_state, shown
from display_service.matrix.select import configured_brightness
from display_service.notify.layer import NotificationLayer
from display_service.plugins.changes import PluginChanges
from display_service.plugins.display_manager import DisplayManager
from display_service.plugins.errors import PluginErrors
from display_service.plugins.host import PluginHost, rotation, update_interval
from display_service.plugins.inboxes import PLUGIN_INBOXES
from display_service.plugins.lifecycle import PluginHooks
from display_service.plugins.live import LiveWatch
from display_service.plugins.safe_mode import SafeMode
from display_service.plugins.updates import DEFAULT_BUDGET, UpdateScheduler
from display_service.state import LOOP_FPS_WINDOW, BusWriter, FpsMeter, StatePublisher
from display_service.sync.link import SyncLink
from display_service.sync.wall import WallView
from shared.bus.core import (
    CONFIG_CHANGED,
    DISPLAY_CONTROL,
    DISPLAY_ON_DEMAND_CONFIG,
    DISPLAY_ON_DEMAND_REQUEST,
    DISPLAY_POWER,
    DISPLAY_STATE,
    HARDWARE_STATUS,
    METRICS_VIEWER,
    NOTIFICATIONS,
    NOTIFY_REQUEST,
    PLUGIN_ERRORS,
    PLUGIN_ERRORS_CLEAR,
    PLUGIN_SAFE_MODE_RELEASE,
    PLUGINS_CHANGED,
    PREVIEW_FRAME,
    Bus,
)

logger = logging.getLogger(__name__)

LOAD_PER_TURN = 2  # plugins queued at start loaded per turn of the loop, between frames

layer_reasons.install()  # what each layer says of itself, and of "next"

class RenderLoop:
    """Rotation, live priority, on-demand, schedules, config reload and frames, one thread."""

    def __init__(
        self,
        *,
        display: DisplayManager,
        plugins: PluginHost,
        bus: Bus,
        config: dict[str, Any],
        load_config: Callable[[], dict[str, Any]] | None = None,
        reader: ConfigReader | None = None,
        inbox: Inbox | None = None,
        clock: Callable[[], float] = time.monotonic,
        wall: Callable[[], float] = time.time,
        update_budget: float = DEFAULT_BUDGET,
        started_at: float | None = None,
        full_screen: FullScreenMode | None = None,
        safe_mode: SafeMode | None = None,
        hardware: dict[str, Any] | None = None,
        assets_dir: Path | None = None,
    ) -> None:
        self.display = display
        # The ``hardware_status`` record published at start; its brightness follows.
        self.hardware = hardware
        self.backend = display.backend
        self.plugins, self.bus = plugins, bus
        self.safe_mode, self.config = safe_mode, config
        self.reader = reader or CallableReader(load_config or (lambda: config))
        self.clock, self.inbox = clock, inbox or Inbox()
        self.wake = self.inbox.wake
        self._file_due: float | None = None  # a config file changed: read it then
        self.errors = PluginErrors(clock=clock)  # the breaker's rests are on the loop's clock
        display.on_plugin_error = self.errors.record
        self._update_counter, self._updates_done = itertools.count(1), 0
        self.updates = UpdateScheduler(self.errors, clock, update_budget,
                                       on_done=self._update_returned)
        self.hooks = PluginHooks(plugins, self.updates)
        self.plugin_changes = PluginChanges(bus, self.hooks, safe_mode, wall)
        self.writer = BusWriter(bus)
        self.publisher = StatePublisher(bus, self.writer, clock)
        self.controller = Controller([], clock())
        self.on_demand = OnDemandHandler(self.controller, self.writer, self.publisher, wall)
        self.panel = PanelSchedule(wall)
        self.live = LiveWatch(self.errors)
        self.config_seq: Any = None
        self.started_at = started_at or time.time()
        # Why the running config is not config.json (unreadable at start or reload).
        self.config_problem: str | None = None
        self.fps = FpsMeter(clock(), LOOP_FPS_WINDOW)
        self.notifier = NotificationLayer(display, self.controller, self.writer, (clock, wall),
                                          assets_dir)
        self.painter = FramePainter(display, plugins, self.errors, self.updates, self.fps,
                                    self.started_at, clock)
        self.frames = Compositor(controller=self.controller, panel=self.panel,
                                 painter=self.painter, display=display, full_screen=full_screen,
                                 on_switch=self._switched, notifications=self.notifier)
        self.control = ControlHandler(self.controller, self.panel, self.writer, self.publisher,
                                      self.layer, wall)
        self._stopping, self._errors_version, self._modes_checked = False, -1, 0
        self.beat = time.monotonic()  # the hang watch's sign of life
        self.sync = self._sync_link(display, wall)  # after the compositor: its wall layer
        self.metrics = self._metrics(wall)

    def _metrics(self, wall: Callable[[], float]) -> MetricsPublisher:
        """The loop's figures (frames, per-plugin times) and their ``display_metrics``
        record, written only while someone reads the metrics."""
        figures = LoopMetrics()
        self.painter.metrics = figures
        self.updates.on_timed = figures.update
        return MetricsPublisher(self.bus, self.writer, figures, wall,
                                lambda: getattr(self.plugins, "cache_manager", None))

    def _sync_link(self, display: DisplayManager, wall: Callable[[], float]) -> SyncLink:
        """Several panels as one (``display_service/sync/``): the link and the wall layer."""
        link = SyncLink(self.controller, self.inbox, wall, backend=display.backend,
                        view=WallView(display))
        self.frames.wall = link.view
        return link

    # -- called from other threads: flags only -------------------------------

    def notify(self, key: str) -> None:
        """Watcher callback: note what changed and wake the loop."""
        self.inbox.notify(key)

    def stop(self) -> None:
        """Ask the loop to finish after the current frame."""
        self._stopping = True
        self.wake.set()

    def _update_returned(self) -> None:
        self._updates_done = next(self._update_counter)  # next() on a count is atomic
        self.wake.set()

    # -- the loop ------------------------------------------------------------

    def run(self) -> None:
        """Render until ``stop()``; then unload plugins, blank the panel, say stopped."""
        self.display.bind_render_thread()
        try:
            self._startup(self.clock())
            # Everything loaded so far lives as long as the daemon: keep it out of the
            # collector's full passes, which would otherwise walk it again and again.
            # The daemon's start runs with the collector off (``__main__``): on again.
            gc.freeze()
            gc.enable()
            while not self._stopping:
                self.wake.clear()
                self.beat = time.monotonic()  # the hang watch's sign of life
                now = self.clock()
                self._apply_pending(now)
                self.publisher.maybe_publish(now, self.state)
                self.updates.poll(now, hold=self.hooks.held)
                self._run_deferred()
                if self.frames.needs_frame(now):
                    self.frames.render(now)
                now = self.clock()
                self._publish(now)
                self._load_queued(now)  # after the frame is shown and told
                self._wait(now)
        finally:
            self._shutdown()

    def _startup(self, now: float) -> None:
        self.config_seq = (self.bus.read(CONFIG_CHANGED) or {}).get("seq")
        self.publisher.refresh_viewer()
        self._rebuild(now)
        self._configure(now)
        # Left by a run that was killed; requests queued since then come after it.
        self.on_demand.resume(self.bus.read(DISPLAY_ON_DEMAND_CONFIG), now)
        self.notifier.restore(self.bus.read(NOTIFICATIONS), now)
        self.control.restore(self.bus.read(DISPLAY_POWER))  # the panel on or off by hand
        self.inbox.notify(DISPLAY_ON_DEMAND_REQUEST)  # one queued before the watch began
        self.inbox.notify(NOTIFY_REQUEST)
        self.inbox.notify(DISPLAY_CONTROL)
        self.inbox.notify(PLUGIN_SAFE_MODE_RELEASE)
        self.inbox.notify(PLUGIN_ERRORS_CLEAR)
        self.inbox.notify(PLUGINS_CHANGED)
        self.inbox.notify(METRICS_VIEWER)
        for key in PLUGIN_INBOXES:
            self.inbox.notify(key)
        self.writer.put(PLUGIN_ERRORS, {})

    def _apply_pending(self, now: float) -> None:
        """Apply what changed since the last pass, in the order of the module docstring."""
        self._follow_config(now)
        if changed := self.hooks.settle():
            self.plugins_changed(changed, now)
        self._follow_plugin_folders(now)
        for key, handler in REQUESTS:
            if self._take(key):
                handler(self, now)
        for key, plugin_id in PLUGIN_INBOXES.items():
            if self._take(key):
                self.updates.request(plugin_id, now)
        self._follow_modes(now)
        self._follow_schedule(now)
        self._follow_live(now)
        if self.sync.apply(now):
            self.publisher.mark_dirty()
        if self.sync.new_frame:  # a part of the leader's wall: drawn at once
            self.sync.new_frame = False
            self.frames.due = now
        for event in self.controller.tick(now):
            self.publisher.mark_dirty()
            if event == "expired":
                self.on_demand.expired(now)
        # A critical notification may wake a panel the schedule keeps off, never one
        # turned off by hand.
        if self.notifier.step(now, self.frames.base_key(now), self.panel.power_on,
                              may_wake=self.panel.manual is not False):
            self.publisher.mark_dirty()

    def _follow_config(self, now: float) -> None:
        """Reload the config after a save, or after a quiet spell once the file changed."""
        if self._take(CONFIG_FILE):  # an editor writes in steps: read after a quiet spell
            self._file_due = now + DEBOUNCE
        if self._take(CONFIG_CHANGED):
            self._reload_config(now, "saved")
        elif self._file_due is not None and now >= self._file_due:
            self._file_due = None
            self._reload_config(now, "file changed")

    def _switched(self) -> None:
        """What the panel shows changed (the compositor, before drawing it)."""
        self.publisher.mark_dirty()
        self.sync.switched(self.frames.base_key(self.clock()))  # what is under a notification

    def _follow_schedule(self, now: float) -> None:
        if self.panel.due(now) and self.panel.evaluate(now):
            logger.info("schedule: panel %s", self.panel.describe())
            self._apply_display_settings()
            self.publisher.mark_dirty()
            self.control.sync()  # the schedule's boundary ends a panel turned on by hand

    def _follow_live(self, now: float) -> None:
        if self.live.due(now, self._updates_done):
            shown = {p: i for p, i in self.plugins.instances.items() if p not in self.hooks.leaving}
            self._set_live(self.live.poll(now, shown, self._updates_done), now)

    def _run_deferred(self) -> None:
        """Run plugins' deferred work; a frame presented from another thread waits while off
        or while a notification shows."""
        pushed = self.display.frames_pushed
        self.display.process_deferred_updates()
        layer = self.layer()
        if layer == NOTIFICATION:
            if self.display.frames_pushed != pushed:
                self.frames.due = self.clock()  # deferred work drew over it: paint it again
        elif layer != OFF:
            self.display.flush_pending()
        elif self.display.frames_pushed != pushed:
            self.display.blank()  # deferred work drew while the panel is off

    def _take(self, key: str) -> bool:
        return self.inbox.take(key)

    def _set_live(self, live: dict[str, list[str]], now: float) -> None:
        for event in self.controller.set_live(live, now):
            self.publisher.mark_dirty()
            if event == "live_ended":
                logger.info("live content over; rotation resumes")
            else:
                logger.info("live content: %s", ", ".join(sorted(self.controller.live_modes)))

    def layer(self) -> str:
        """Return what the panel shows: notification, on_demand, live, full_screen, rotation
        or off."""
        return self.frames.layer()

    def _publish(self, now: float) -> None:
        layer, plugin_id, mode, fps = shown(self, now)
        self.publisher.observe((layer, plugin_id, mode), fps)
        self.publisher.maybe_publish(now, self.state)
        if self.errors.version != self._errors_version:
            self._errors_version = self.errors.version
            self.writer.put(PLUGIN_ERRORS, self.errors.snapshot())
        self.publisher.preview(now, self.display.frames_pushed, lambda: self.display.image)
        self.metrics.maybe_publish(now, fps)

    def _load_queued(self, now: float) -> None:
        """Load the next few plugins queued at start, after the frame; they join the rotation
        (``docs/DESIGN.md``, "The display's start")."""
        if not self.plugins.loading:
            return
        self.plugins_changed(self.plugins.load_next(LOAD_PER_TURN), now)
        if not self.plugins.loading:
            gc.freeze()  # as after the start: the plugins live as long as the daemon
            logger.info("all plugins tried: %d loaded, %d failed", len(self.plugins.instances),
                        len(self.plugins.load_errors))

    def _wait(self, now: float) -> None:
        deadlines = [self.frames.due]
        if self.plugins.loading:
            deadlines.append(now)  # more plugins to load: no waiting
        more = (self.publisher.next_due(), self.controller.next_deadline(),
                self.updates.next_due(), self.panel.next_due(), self.live.next_due(),
                self._file_due, self.notifier.next_due(), self.sync.next_due(),
                self.metrics.next_due())
        deadlines += [d for d in more if d is not None]
        timeout = min(deadlines) - now
        if timeout > 0:
            self.wake.wait(timeout)

    # -- config --------------------------------------------------------------

    def _reload_config(self, now: float, cause: str) -> None:
        seq = (self.bus.read(CONFIG_CHANGED) or {}).get("seq")
        if self.reader.unchanged():  # the save's own file event, or an edit undone
            self.config_seq, self.config_problem = seq, None
            self.publisher.mark_dirty()
            return
        config, problem = self.reader.read(self.config)
        if config is None:
            if problem != self.config_problem:
                logger.error("config: %s", problem)
            self.config_problem = problem
            self.publisher.mark_dirty()
            return
        self.config_problem = None
        if self.safe_mode is not None:  # an updated plugin leaves safe mode
            self._set_blocked(self.safe_mode.release_updated())
        changed = self.hooks.apply_config(config, seq)
        self.config, self.config_seq = config, seq
        self.plugins_changed(changed, now)
        self._configure(now)
        logger.info(
            "config reloaded (%s): %d plugins, changed: %s; held until update() returns: %s",
            f"seq {seq}" if cause == "saved" else cause, len(self.plugins.instances),
            ", ".join(changed) or "none", ", ".join(sorted(self.hooks.held)) or "none",
        )

    def _configure(self, now: float) -> None:
        """Apply the config's schedules, brightness and full-screen mode."""
        self.panel.configure(self.config)
        self.panel.evaluate(now)
        self.notifier.configure(self.config)
        self._apply_display_settings()
        self.live.reset()
        if self.frames.full_screen is not None:
            self.frames.full_screen.configure(self.config)
        if self.sync.configure(self.config, now):
            self.publisher.mark_dirty()
            self.sync.switched(self.frames.base_key(now))  # a new leader says what it shows

    def plugins_changed(self, changed: list[str], now: float) -> None:
        self._rebuild(now)
        for plugin_id in changed:
            self.errors.fresh_start(plugin_id)  # a fix the user made is tried at once
            self.updates.request(plugin_id, now)
        self.live.reset()
        self.publisher.mark_dirty()

    def _follow_plugin_folders(self, now: float) -> None:
        """Apply queued ``plugins_changed`` requests and those waiting for an update()."""
        took = self._take(PLUGINS_CHANGED)
        if took or self.plugin_changes.waiting:
            changed = self.plugin_changes.retry() + (self.plugin_changes.take() if took else [])
            if changed or took:
                self.plugins_changed(changed, now)

    def _follow_modes(self, now: float) -> None:
        """After an update() returned, rebuild the rotation when a plugin's modes (or its
        durations) changed there: a custom app pushed or expired, a scripted app installed.
        ``_modes_checked`` is the update count when the rotation last met the modes.
        """
        done = self._updates_done
        if done == self._modes_checked:
            return
        self._modes_checked = done
        entries = rotation(self.plugins, self.config, self.errors, exclude=self.hooks.leaving)
        if entries != self.controller.entries:
            self._rebuild(now)
            self.publisher.mark_dirty()

    def _set_blocked(self, released: list[str]) -> bool:
        if released and self.safe_mode is not None:
            self.plugins.blocked = self.safe_mode.blocked()
        return bool(released)

    def unblock(self, released: list[str], now: float) -> None:
        """Load plugins just released from safe mode."""
        if self._set_blocked(released):
            self.plugins_changed(self.hooks.apply_config(self.config), now)
            self.publisher.mark_dirty()

    def _rebuild(self, now: float) -> None:
        instances = dict(self.plugins.instances)
        entries = rotation(self.plugins, self.config, self.errors, exclude=self.hooks.leaving)
        for event in self.controller.rebuild(entries, now):
            if event == "expired":
                self.on_demand.expired(now)
        intervals = {p: update_interval(self.plugins, p) or 0.0 for p in instances}
        self.updates.sync(instances, intervals, now)
        self.painter.forget(instances)

    def _apply_display_settings(self) -> None:
        brightness = self.panel.brightness(configured_brightness(self.config))
        if (applied := self.display.apply_config({**self.config, "brightness": brightness})):
            logger.info("brightness %d (%s)", applied, self.panel.describe())
            self._publish_brightness(applied)

    def _publish_brightness(self, brightness: int) -> None:
        """Show the brightness now in force in ``hardware_status``."""
        if (record := with_brightness(self.hardware, brightness)) is not None:
            self.hardware = record
            self.writer.put(HARDWARE_STATUS, record)

    # -- state ---------------------------------------------------------------

    def state(self, service: str = "running") -> dict[str, Any]:
        """Return the ``display_state`` record as of now (``status.py``)."""
        return display_state(self, service)

    def _shutdown(self) -> None:
        self.sync.close(final=True)  # a leader says offline first: its followers go on alone
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
