"""Notice the bus folder deleted or made anew, and bring a running daemon back onto it.

A watch follows the folder it was started on: once that folder is deleted, requests
written into a new one with the same name reach nobody, and the daemon's lock file is
gone with it, so the daemon looks stopped while it runs. ``BusDirGuard`` checks every
``CHECK_EVERY`` seconds (two ``stat`` calls, nothing written): when the folder is gone
it makes it again with the mode and group it had; when the folder or the lock file
there is not the one it knew, it takes the lock again and calls ``on_remade`` (re-watch,
re-publish). ``on_check``, if given, runs after every check (the display retries writes
that failed). A thread it starts runs only the checks; ``check()`` is one of them.
"""

from __future__ import annotations

import contextlib
import logging
import os
import threading
from collections.abc import Callable
from pathlib import Path

from shared.bus.daemon_lock import AlreadyRunning, DaemonLock
from shared.errors import CacheDirError
from shared.paths import ensure_writable_dir

logger = logging.getLogger("shared.bus.core")

CHECK_EVERY = 2.0  # seconds; how long a remade folder may go unnoticed


class BusDirGuard:
    """Check the bus folder and the lock in it; recover when either was remade."""

    def __init__(self, directory: Path, lock: DaemonLock | None,
                 on_remade: Callable[[], None], interval: float = CHECK_EVERY,
                 on_check: Callable[[], object] | None = None) -> None:
        self.directory = Path(directory)
        self.lock = lock
        self.on_remade = on_remade
        self.on_check = on_check
        self.interval = interval
        self._stopped = threading.Event()
        self._thread: threading.Thread | None = None
        self._failing = False
        info = os.stat(self.directory)
        self._identity = (info.st_dev, info.st_ino)
        self._mode, self._gid = info.st_mode & 0o7777, info.st_gid

    def start(self) -> BusDirGuard:
        """Check in a background thread until ``stop``; return self."""
        self._thread = threading.Thread(target=self._run, name="bus-dir-guard", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        """End the checks (waits for one in progress)."""
        self._stopped.set()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def _run(self) -> None:
        while not self._stopped.wait(self.interval):
            try:
                self.check()
                if self.on_check is not None:
                    self.on_check()
            except Exception:  # the guard must outlive any one failed recovery
                logger.exception("bus: checking the folder %s failed", self.directory)

    def check(self) -> bool:
        """Check once; return True when the folder was remade and recovery ran."""
        identity = self._current() or self._remake()
        if identity is None:
            return False
        if identity == self._identity and (self.lock is None or self.lock.intact()):
            return False
        logger.warning("bus: the folder %s was deleted or replaced; using the new one",
                       self.directory)
        self._identity = identity
        if self.lock is not None:
            try:
                self.lock.retake()
            except (AlreadyRunning, CacheDirError) as err:
                logger.error("bus: cannot lock the new folder: %s", err.message)
        self.on_remade()
        return True

    def _current(self) -> tuple[int, int] | None:
        try:
            info = os.stat(self.directory)
        except OSError:
            return None
        return (info.st_dev, info.st_ino)

    def _remake(self) -> tuple[int, int] | None:
        """Make the missing folder again as it was; return its identity, None if not made."""
        try:
            ensure_writable_dir(self.directory)
        except CacheDirError as err:
            if not self._failing:
                logger.error("bus: the folder is gone and cannot be made again: %s",
                             err.message)
            self._failing = True
            return None
        self._failing = False
        # As systemd made it: the other daemon (same group) must write here too.
        with contextlib.suppress(OSError):
            os.chown(self.directory, -1, self._gid)
        with contextlib.suppress(OSError):
            os.chmod(self.directory, self._mode)
        logger.warning("bus: the folder %s was gone; made it again", self.directory)
        return self._current()
