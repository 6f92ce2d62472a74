"""One daemon per role on a bus directory, and who that daemon is.

Each daemon holds ``<bus>/<role>.lock`` with an exclusive ``flock`` for its whole life
and writes its pid inside. The kernel drops the lock when the process ends, however it
ends (SIGKILL and power loss included), so "is the display running?" is answered by the
lock, never by a heartbeat file: nothing has to be written while the panel is idle.

``lock_holder`` asks without taking the lock for longer than one system call: it tries
a shared lock and lets go at once. A daemon starting at that very moment could find
the lock busy, so ``DaemonLock.acquire`` retries for a short while before it decides
that another copy really runs.

The lock file sits in a folder others can write: it is opened without following a
symlink (a root daemon would otherwise truncate whatever the link names) and without
blocking (a FIFO in its place), and only a regular file counts. If the bus folder is
deleted and made again, the lock file goes with it: ``intact`` notices and ``retake``
locks a new one, so the running daemon is seen as running again.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import logging
import os
import re
import stat
import time
from pathlib import Path

from shared.errors import CacheDirError, LedpanelError
from shared.paths import ensure_writable_dir

DISPLAY, WEB = "display", "web"
MQTT = "mqtt"  # the MQTT bridge, mqtt_service
ROLES = (DISPLAY, WEB, MQTT)
LOCK_MODE = 0o664  # the other daemon (another user, same group) reads the pid
# A probe holds the lock for microseconds; this is how long a start waits one out.
PATIENCE = 0.25
UNKNOWN_PID = 0
# Never follow a link, never block on a FIFO, never leak into a child process.
_OPEN_FLAGS = os.O_CLOEXEC | os.O_NOFOLLOW | os.O_NONBLOCK


class AlreadyRunning(LedpanelError):
    """Another daemon of the same role holds the bus directory's lock."""

    error_code = "ALREADY_RUNNING"
    status = 409

    def __init__(self, role: str, pid: int, path: Path) -> None:
        who = f"pid {pid}" if pid != UNKNOWN_PID else "unknown pid"
        super().__init__(f"another ledpanel-{role} ({who}) is already running on {path.parent}; "
                         f"stop it first", details={"pid": pid, "lock": str(path)})
        self.pid = pid


def lock_path(directory: Path, role: str) -> Path:
    """Return the lock file of ``role`` in a bus directory."""
    if role not in ROLES:
        raise ValueError(f"unknown daemon role {role!r}")
    return Path(directory) / f"{role}.lock"


class DaemonLock:
    """The held lock of one running daemon; released when the process ends."""

    def __init__(self, fd: int, path: Path) -> None:
        self.fd = fd
        self.path = path

    @classmethod
    def acquire(cls, directory: Path, role: str, *, patience: float = PATIENCE) -> DaemonLock:
        """Take the role's lock and record our pid, or raise AlreadyRunning naming the holder."""
        path = lock_path(directory, role)
        try:
            fd = os.open(path, os.O_RDWR | os.O_CREAT | _OPEN_FLAGS, LOCK_MODE)
        except OSError as err:
            problem = "it is a symlink; remove it" if err.errno == errno.ELOOP else err.strerror
            raise CacheDirError(f"cannot open the lock file {path}: {problem or err}") from err
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            os.close(fd)
            raise CacheDirError(f"the lock file {path} is not a regular file; remove it")
        deadline = time.monotonic() + patience
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    pid = _read_pid(fd)
                    os.close(fd)
                    raise AlreadyRunning(role, pid, path) from None
                time.sleep(0.005)
        with contextlib.suppress(OSError):  # the lock itself is what counts
            os.ftruncate(fd, 0)
            os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        return cls(fd, path)

    def intact(self) -> bool:
        """Return whether our lock file is still the one at its path (the folder not remade)."""
        try:
            held, there = os.fstat(self.fd), os.lstat(self.path)
        except OSError:
            return False
        return (held.st_dev, held.st_ino) == (there.st_dev, there.st_ino)

    def retake(self) -> None:
        """Lock the file now at our path and record our pid; then let the old one go.

        Raises AlreadyRunning if another daemon of the role locked it meanwhile (it
        started on the new folder and believes it is alone), CacheDirError if it cannot
        be opened; the old lock is kept then.
        """
        role = self.path.stem
        fresh = DaemonLock.acquire(self.path.parent, role, patience=0)
        old, self.fd = self.fd, fresh.fd
        if old >= 0:
            os.close(old)

    def release(self) -> None:
        """Let go of the lock (the process ending does the same)."""
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1


def lock_holder(directory: Path, role: str) -> int | None:
    """Return the pid of the running daemon of ``role`` (0 if unreadable), None if none runs."""
    try:
        fd = os.open(lock_path(directory, role), os.O_RDONLY | _OPEN_FLAGS)
    except OSError:  # no lock file: it never ran here; unreadable or a link: we cannot tell
        return None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):  # a FIFO or folder holds no lock of ours
            return None
        try:
            fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except BlockingIOError:
            return _read_pid(fd)
        fcntl.flock(fd, fcntl.LOCK_UN)
        return None
    finally:
        os.close(fd)


def _read_pid(fd: int) -> int:
    try:
        text = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
    except OSError:
        return UNKNOWN_PID
    if not re.fullmatch(r"[0-9]{1,10}", text):
        return UNKNOWN_PID
    return int(text) if 0 < int(text) < 2**31 else UNKNOWN_PID


EXIT_CACHE_DIR, EXIT_ALREADY_RUNNING = 2, 3  # the daemons' exit statuses when no lock


def lock_at_start(directory: Path, role: str, log: logging.Logger) -> DaemonLock | int:
    """A daemon's start: make the bus folder and take ``role``'s lock; else log why in
    one line and return the exit status (``EXIT_CACHE_DIR``: the folder or its lock file
    cannot be used; ``EXIT_ALREADY_RUNNING``: another copy holds the lock)."""
    try:
        ensure_writable_dir(directory)
        return DaemonLock.acquire(directory, role)
    except CacheDirError as err:
        log.error("cannot start: %s (set --cache-dir or LEDPANEL_CACHE_DIR)", err.message)
        return EXIT_CACHE_DIR
    except AlreadyRunning as err:
        log.error("cannot start: %s", err.message)
        return EXIT_ALREADY_RUNNING
