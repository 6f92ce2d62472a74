"""Wire the display daemon: paths, config, backend, plugins, the bus and the render loop.

Exit codes: 0 after SIGTERM/SIGINT, 2 when the cache (bus) directory is unusable, 3
when another display daemon already runs on that bus directory (its lock). An
unreadable config.json does not stop the daemon: it runs on the newest backup that
parses (or the template) and reports ``config_problem`` in ``display_state``. Every
thread the daemon starts (updates, the bus writer, the watchers) is a daemon thread,
so a plugin ``update()`` that never returns does not hold up the exit.

Start-up order matters for "no change is ever lost": the lock first (a second copy
stops here), then the watchers (bus keys and the config files, into the loop's inbox),
and only then the config is read. A save or a request made at any moment after that is
waiting in the inbox when the loop starts; one made before is in what was read.
"""

from __future__ import annotations

import argparse
import logging
import signal
from types import FrameType
from typing import Any

from display_service import bus_folder, privileges
from display_service.config_source import ConfigSource
from display_service.loop.inbox import Inbox
from display_service.plugins import image_guard
from display_service.plugins import output as plugin_output
from display_service.plugins.call_trail import Leftover
from display_service.plugins.containment import Containment
from display_service.plugins.hang_watch import DEFAULT_HANG_SECONDS
from display_service.plugins.inboxes import PLUGIN_INBOXES
from display_service.plugins.safe_mode import SafeMode
from shared.bus.core import (
    CONFIG_CHANGED,
    DISPLAY_CONTROL,
    DISPLAY_ON_DEMAND_CONFIG,
    DISPLAY_ON_DEMAND_REQUEST,
    FONTS_CHANGED,
    HARDWARE_STATUS,
    METRICS_VIEWER,
    NOTIFY_REQUEST,
    PLUGIN_ERRORS_CLEAR,
    PLUGIN_SAFE_MODE_RELEASE,
    PLUGINS_CHANGED,
    PREVIEW_VIEWER,
    Bus,
    BusWatcher,
)
from shared.bus.daemon_lock import DISPLAY, lock_at_start
from shared.logs.setup import setup_logging
from shared.paths import Paths, export_dirs, resolve_paths
from shared.plugin_system.discovery import plugins_dir_for
from shared.version import CORE_VERSION

logger = logging.getLogger("ledpanel-display")

EXIT_OK = 0
WATCHED_KEYS = (DISPLAY_ON_DEMAND_REQUEST, DISPLAY_CONTROL, CONFIG_CHANGED, PREVIEW_VIEWER,
                PLUGIN_SAFE_MODE_RELEASE, PLUGIN_ERRORS_CLEAR, FONTS_CHANGED, PLUGINS_CHANGED,
                NOTIFY_REQUEST, METRICS_VIEWER, *PLUGIN_INBOXES)


class Stopper:
    """SIGTERM/SIGINT handling from the first moment: stop the loop, or stop it at birth."""

    def __init__(self) -> None:
        self.requested = False
        self.loop: Any = None

    def install(self) -> None:
        signal.signal(signal.SIGTERM, self._on_signal)
        signal.signal(signal.SIGINT, self._on_signal)

    def attach(self, loop: Any) -> None:
        self.loop = loop
        if self.requested:
            loop.stop()

    def _on_signal(self, signum: int, _frame: FrameType | None) -> None:
        logger.info("%s received: stopping", signal.Signals(signum).name)
        self.requested = True
        if self.loop is not None:
            self.loop.stop()


def run(args: argparse.Namespace, *, started_at: float | None = None) -> int:
    """Run the daemon until a stop signal; return the process exit code."""
    setup_logging(args.log_level)
    stopper = Stopper()
    stopper.install()
    paths = resolve_paths(
        config_dir=args.config_dir, cache_dir=args.cache_dir, plugins_dir=args.plugins_dir
    )
    # Plugins' prints go to the log (the log handler keeps the real stderr); no plugin
    # may make an image big enough to take the machine's memory.
    output = plugin_output.install([paths.plugins_dir(), paths.dev_plugins_dir])
    image_guard.install()
    lock = lock_at_start(paths.cache_dir, DISPLAY, logger)
    if isinstance(lock, int):
        return lock

    from shared.config.store import ConfigStore

    bus, inbox = Bus(paths.cache_dir, keep_published=True), Inbox()
    bus_folder.tidy(bus)
    source = ConfigSource(ConfigStore(paths))
    watchers = [bus.watch(WATCHED_KEYS, inbox.notify), source.watch(inbox.notify)]
    guard = bus_folder.follow(bus, lock, watchers[0], inbox, WATCHED_KEYS)
    containment = Containment(paths, getattr(args, "hang_seconds", None)
                              or DEFAULT_HANG_SECONDS, owner=output.owner)
    try:
        config, problem = read_config(source)
        export_dirs(paths, plugins_dir_for(paths, config))  # kept as started, like the loop
        loop = build_loop(args, paths, bus, config, source, inbox, started_at,
                          containment.leftover)
        loop.config_problem = problem
        containment.attach(loop)
        stopper.attach(loop)
        loop.run()
    finally:
        guard.stop()  # first: it would lock the folder again
        containment.close()
        stop_watchers(watchers)
        lock.release()  # after the last state write: a successor sees "stopped"
    logger.info("ledpanel-display stopped")
    return EXIT_OK


def read_config(source: ConfigSource) -> tuple[dict[str, Any], str | None]:
    """Read the config to start on; log what the start did to it."""
    existed = source.paths.config_file.exists()
    config, problem, added = source.load_initial()
    if problem:
        logger.error("config: %s", problem)
    elif not existed:
        logger.info("config: created %s from the template", source.paths.config_file)
    elif added:
        logger.info("config: added %d missing keys from the template: %s", len(added),
                    ", ".join(added[:10]) + (" ..." if len(added) > 10 else ""))
    return config, problem


def build_loop(args: argparse.Namespace, paths: Paths, bus: Bus, config: dict[str, Any],
               source: ConfigSource, inbox: Inbox, started_at: float | None,
               leftover: Leftover | None = None) -> Any:
    """Open the panel, load the plugins and return the render loop over them."""
    from display_service.loop.full_screen import LazyMode
    from display_service.loop.render_loop import RenderLoop
    from display_service.matrix.orientation import wrap_backend
    from display_service.matrix.select import open_backend
    from display_service.plugins.display_manager import DisplayManager
    from display_service.sync.wall import wrap_wall
    from shared.fonts import FontManager
    from shared.fonts.uploads import font_dirs
    from shared.history import DISPLAY as DISPLAY_SOURCE
    from shared.history import HistoryWriter, history_dir
    from shared.plugin_api.cache.manager import CacheManager
    from shared.plugin_system import manifest_memo
    from shared.plugin_system.manager import PluginManager
    from shared.plugin_system.manifest import SCHEMA_FILE as MANIFEST_SCHEMA_FILE

    # Rules first, then the library; any refusal falls back to the headless canvas.
    backend, hardware = open_backend(
        config, force_headless=args.headless, emulator=getattr(args, "emulator", False),
        workdir=paths.cache_dir / "emulator",
    )
    # Plugins draw on the panel halved (display.double_sided), then turned (orientation).
    surface = wrap_backend(backend, config, hardware)
    # A sync leader with a wall draws as wide as the wall; its panel shows its part.
    surface = wrap_wall(surface, config)
    # The panel is open: no plugin (imported from here on) runs as root.
    hardware["privileges"] = privileges.drop_root()
    bus_folder.publish(bus, HARDWARE_STATUS, hardware)  # rewritten on every start
    display = DisplayManager(surface, font_manager=FontManager(font_dirs(paths)))
    plugins = PluginManager(
        paths, config, display_manager=display, cache_manager=CacheManager(paths.cache_dir),
        font_manager=display.font_manager,
    )
    # Plugin lifecycle events go to the operation history: one small append each, on
    # the thread the event happens on (they are rare: loads, unloads, rests).
    history = HistoryWriter(history_dir(paths.cache_dir), DISPLAY_SOURCE)
    plugins.on_event = history.plugin_event
    safe_mode = SafeMode(bus, lambda plugin_id: plugins.get_plugin_directory(plugin_id),
                         on_event=history.plugin_event)
    safe_mode.release_updated()
    safe_mode.after_death(leftover)
    plugins.blocked = safe_mode.blocked()
    manifest_memo.use(paths.cache_dir, MANIFEST_SCHEMA_FILE)
    # Only the plugin shown first loads now; the rest between frames (DESIGN.md, start).
    plugins.queue_enabled(first=resumed_plugin(bus))
    plugins.load_first()
    manifest_memo.save()
    loop = RenderLoop(
        display=display, plugins=plugins, bus=bus, config=config, reader=source, inbox=inbox,
        started_at=started_at,
        full_screen=LazyMode(vegas_enabled, lambda current: vegas_mode(loop, current)),
        safe_mode=safe_mode, hardware=hardware, assets_dir=paths.assets_dir,
    )
    loop.errors.on_event = history.plugin_event
    loop.notifier.on_event = history.notification_event
    log_start(backend, hardware, plugins, paths)
    return loop


def resumed_plugin(bus: Bus) -> str | None:
    """Return the plugin of the on-demand a killed display left, to load it first."""
    record = bus.read(DISPLAY_ON_DEMAND_CONFIG)
    plugin_id = record.get("plugin_id") if isinstance(record, dict) else None
    return plugin_id if isinstance(plugin_id, str) else None


def vegas_enabled(config: dict[str, Any]) -> bool:
    """Return whether a config turns the Vegas ticker on."""
    section = config.get("vegas_scroll")
    return isinstance(section, dict) and section.get("enabled") is True


def vegas_mode(loop: Any, config: dict[str, Any]) -> Any:
    """Build the Vegas ticker over the loop's display and plugins (imported on first use)."""
    from display_service.vegas import VegasMode

    return VegasMode(
        loop.display, lambda: loop.plugins.instances, config,
        # Plugin failures while collecting ticker content go to the loop's error record.
        on_error=lambda *failure: loop.errors.record(*failure),
        # Overrun, slow or rested plugins are left out of the ticker as out of the rotation.
        skip=lambda plugin_id: (loop.updates.is_overrun(plugin_id)
                                or loop.painter.skipped(plugin_id)
                                or loop.errors.resting(plugin_id)),
    )


def log_start(backend: Any, hardware: dict[str, Any], plugins: Any, paths: Paths) -> None:
    """Say in one line what started, then one line per hardware problem."""
    from shared.bus.display_status import describe_hardware

    logger.info(
        "ledpanel-display %s started: %s, %d plugins loaded%s%s, bus %s",
        CORE_VERSION, describe_hardware(hardware), len(plugins.instances),
        f", {len(plugins.loading)} loading next" if plugins.loading else "",
        f", {len(plugins.load_errors)} failed" if plugins.load_errors else "", paths.cache_dir,
    )
    privileges.log(hardware["privileges"])
    if hardware.get("error"):
        logger.warning("hardware: %s fallback: %s%s", hardware["cause"], hardware["error"],
                       f"; hint: {hardware['hint']}" if hardware.get("hint") else "")
    for warning in hardware.get("warnings") or []:
        logger.warning("hardware: %s: %s", warning["setting"], warning["message"])


def stop_watchers(watchers: list[BusWatcher]) -> None:
    for watcher in watchers:
        watcher.stop()
