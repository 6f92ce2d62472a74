"""Wiring of the bridge process: paths, the bus lock, signals, the loop."""

from __future__ import annotations

import argparse
import logging
import signal
from types import FrameType

from mqtt_service.bridge import Bridge
from shared.bus.core import Bus
from shared.bus.daemon_lock import MQTT, lock_at_start
from shared.config.store import ConfigStore
from shared.logs.setup import setup_logging
from shared.paths import resolve_paths

logger = logging.getLogger(__name__)

EXIT_OK = 0


def run(args: argparse.Namespace) -> int:
    """Run the bridge until a stop signal; return the exit code."""
    setup_logging(args.log_level)
    paths = resolve_paths(config_dir=args.config_dir, cache_dir=args.cache_dir,
                          plugins_dir=args.plugins_dir)
    lock = lock_at_start(paths.cache_dir, MQTT, logger)
    if isinstance(lock, int):
        return lock
    bridge = Bridge(Bus(paths.cache_dir), ConfigStore(paths))

    def on_signal(signum: int, _frame: FrameType | None) -> None:
        logger.info("%s received: stopping", signal.Signals(signum).name)
        bridge.stop()

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    logger.info("ledpanel-mqtt started (bus %s)", paths.cache_dir)
    try:
        bridge.run()
    finally:
        lock.release()
    logger.info("ledpanel-mqtt stopped")
    return EXIT_OK
