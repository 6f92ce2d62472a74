"""Keep the display on its bus folder: tidy it at start, follow it when it is made anew.

The display owns the bus folder (``CacheDirectory=`` of its unit). At start it removes
what killed writers left there (``Bus.remove_stale_temp_files``). While it runs,
``BusDirGuard`` notices the folder deleted and made again; then the display watches the
new folder, holds its lock there again, writes every record it had published (state,
hardware, on-demand, plugin errors) and looks at every watched key once, so a request
written into the new folder before the new watch began is not missed. A record whose
write failed (a folder stood in its place) is written again at each check until it
can be.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import Any

from display_service.loop.inbox import Inbox
from shared.bus.core import Bus, BusWatcher
from shared.bus.daemon_lock import DaemonLock
from shared.bus.dir_guard import BusDirGuard
from shared.errors import AtomicWriteError

logger = logging.getLogger("ledpanel-display")


def tidy(bus: Bus) -> None:
    """Remove temp files of killed writers and re-queue commands a killed run claimed."""
    bus.remove_stale_temp_files()


def publish(bus: Bus, key: str, data: dict[str, Any]) -> None:
    """Publish ``key`` now, or log why not: the guard writes it again at its next check."""
    try:
        bus.publish(key, data)
    except AtomicWriteError as err:
        logger.error("bus: cannot write %s yet (tried again every few seconds): %s", key, err)


def follow(bus: Bus, lock: DaemonLock, watcher: BusWatcher, inbox: Inbox,
           keys: Iterable[str]) -> BusDirGuard:
    """Start checking the bus folder; recover onto a new one when it was remade."""
    watched = tuple(keys)

    def remade() -> None:
        written = bus.republish()  # first: restarting the watch takes a while
        watcher.restart()
        for key in watched:
            inbox.notify(key)
        logger.info("bus: watching the new folder again; wrote %s again",
                    ", ".join(sorted(written)) or "nothing")

    return BusDirGuard(bus.directory, lock, remade,
                       on_check=lambda: bus.republish(failed_only=True)).start()
