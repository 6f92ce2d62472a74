"""Wire the display daemon: paths, config, backend, plugins, the bus and the render loop.

Exit codes: 0 after SIGTERM/SIGINT, 2 when the cache (bus) directory is unusable. An
unreadable config.json does not stop the daemon: it runs on the newest backup that
parses (or the template) and reports ``config_problem`` in ``display_state``. Every
thread the daemon starts (updates, the bus writer, the bus watcher) is a daemon thread,
so a plugin ``update()`` that never returns does not hold up the exit.
"""

from __future__ import annotations

import argparse
import logging
import os
import signal
import sys
from types import FrameType
from typing import Any

from shared.bus import (
    CONFIG_CHANGED,
    DISPLAY_ON_DEMAND_REQUEST,
    HARDWARE_STATUS,
    PREVIEW_VIEWER,
    Bus,
)
from shared.errors import CacheDirError, LedpanelError
from shared.jsonfile import read_json_file
from shared.paths import Paths, ensure_writable_dir, resolve_paths
from shared.version import CORE_VERSION

logger = logging.getLogger("ledpanel-display")

EXIT_OK, EXIT_CACHE_DIR = 0, 2


def setup_logging(level: str) -> None:
    """Log one line per event; no timestamps when journald adds its own."""
    fmt = "%(levelname)s %(name)s: %(message)s"
    if not os.environ.get("JOURNAL_STREAM"):
        fmt = "%(asctime)s " + fmt
    logging.basicConfig(level=level, format=fmt, stream=sys.stderr)


def fallback_config(paths: Paths) -> tuple[dict[str, Any], str]:
    """Return the newest backup that parses (else the template) and what it was."""
    from shared.config.backups import list_backups
    from shared.config.template import load_template

    for backup in reversed(list_backups(paths)):
        try:
            data = read_json_file(backup, "config backup")
        except LedpanelError:
            continue
        if isinstance(data, dict):
            return data, f"backup {backup.name}"
    return load_template(), "the template defaults"


def run(args: argparse.Namespace, *, started_at: float | None = None) -> int:
    """Run the daemon until a stop signal; return the process exit code."""
    setup_logging(args.log_level)
    paths = resolve_paths(
        config_dir=args.config_dir, cache_dir=args.cache_dir, plugins_dir=args.plugins_dir
    )
    try:
        ensure_writable_dir(paths.cache_dir)
    except CacheDirError as err:
        logger.error("cannot start: %s (set --cache-dir or LEDPANEL_CACHE_DIR)", err.message)
        return EXIT_CACHE_DIR

    from shared.config.store import ConfigStore

    store = ConfigStore(paths)
    existed = paths.config_file.exists()
    config_problem: str | None = None
    try:
        added = store.ensure()
        config = store.load()
    except LedpanelError as err:
        # A hand-edited config.json with a typo must not leave the panel dark (systemd
        # would restart us into the same error until it gives up): run on the newest
        # backup that parses, leave the file alone, and say so everywhere.
        config, source = fallback_config(paths)
        config_problem = f"{err.message}; running on {source} until config.json is fixed"
        logger.error("config: %s", config_problem)
        added = []
    if not existed:
        logger.info("config: created %s from the template", paths.config_file)
    elif added:
        logger.info("config: added %d missing keys from the template: %s", len(added),
                    ", ".join(added[:10]) + (" ..." if len(added) > 10 else ""))

    from display_service.display_manager import DisplayManager
    from display_service.matrix.select import open_backend
    from display_service.orientation import wrap_backend
    from display_service.render_loop import RenderLoop
    from display_service.vegas import VegasMode
    from shared.cache import CacheManager
    from shared.plugin_system.manager import PluginManager

    bus = Bus(paths.cache_dir)
    # Rules first, then the library; any refusal falls back to the headless canvas.
    backend, hardware = open_backend(
        config, force_headless=args.headless, emulator=getattr(args, "emulator", False),
        workdir=paths.cache_dir / "emulator",
    )
    # Plugins draw on the panel halved (display.double_sided), then turned (orientation).
    surface = wrap_backend(backend, config, hardware)
    bus.publish(HARDWARE_STATUS, hardware)  # rewritten on every start
    display = DisplayManager(surface)
    plugins = PluginManager(
        paths, config, display_manager=display, cache_manager=CacheManager(paths.cache_dir),
        font_manager=display.font_manager,
    )
    plugins.load_enabled()
    loop = RenderLoop(
        display=display, plugins=plugins, bus=bus, config=config, load_config=store.load,
        started_at=started_at,
        # Plugin failures while collecting ticker content go to the loop's error record.
        full_screen=VegasMode(
            display, lambda: plugins.instances, config,
            on_error=lambda *failure: loop.errors.record(*failure),
            # Overrun or slow plugins are left out of the ticker like out of the rotation.
            skip=lambda plugin_id: (loop.updates.is_overrun(plugin_id)
                                    or loop.painter.skipped(plugin_id)),
        ),
    )
    loop.config_problem = config_problem
    logger.info(
        "ledpanel-display %s started: backend %s (%s), %dx%d, %d plugins loaded%s, bus %s",
        CORE_VERSION, backend.name, hardware.get("cause") or "hardware",
        backend.width, backend.height, len(plugins.instances),
        f", {len(plugins.load_errors)} failed" if plugins.load_errors else "", paths.cache_dir,
    )
    if hardware.get("error"):
        logger.warning("hardware: %s fallback: %s%s", hardware["cause"], hardware["error"],
                       f"; hint: {hardware['hint']}" if hardware.get("hint") else "")
    for warning in hardware.get("warnings") or []:
        logger.warning("hardware: %s: %s", warning["setting"], warning["message"])

    def on_signal(signum: int, _frame: FrameType | None) -> None:
        logger.info("%s received: stopping", signal.Signals(signum).name)
        loop.stop()

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    watcher = bus.watch([DISPLAY_ON_DEMAND_REQUEST, CONFIG_CHANGED, PREVIEW_VIEWER], loop.notify)
    try:
        loop.run()
    finally:
        watcher.stop()
    logger.info("ledpanel-display stopped")
    return EXIT_OK

