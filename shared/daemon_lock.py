"""One daemon per role on a bus directory, and who that daemon is.

Each daemon holds ``<bus>/<role>.lock`` with an exclusive ``flock`` for its whole life
and writes its pid inside. The kernel drops the lock when the process ends, however it
ends (SIGKILL and power loss included), so "is the display running?" is answered by the
lock, never by a heartbeat file: nothing has to be written while the panel is idle.

``lock_holder`` asks without taking the lock for longer than one system call: it tries
a shared lock and lets go at once. A daemon starting at that very moment could find
the lock busy, so ``DaemonLock.acquire`` retries for a short while before it decides
that another copy really runs.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import time
from pathlib import Path

from shared.errors import CacheDirError, LedpanelError

DISPLAY, WEB = "display", "web"
ROLES = (DISPLAY, WEB)
LOCK_MODE = 0o664  # the other daemon (another user, same group) reads the pid
# A probe holds the lock for microseconds; this is how long a start waits one out.
PATIENCE = 0.25
UNKNOWN_PID = 0


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
            fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, LOCK_MODE)
        except OSError as err:
            raise CacheDirError(f"cannot open the lock file {path}: {err.strerror or err}") from err
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

    def release(self) -> None:
        """Let go of the lock (the process ending does the same)."""
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1


def lock_holder(directory: Path, role: str) -> int | None:
    """Return the pid of the running daemon of ``role`` (0 if unreadable), None if none runs."""
    try:
        fd = os.open(lock_path(directory, role), os.O_RDONLY | os.O_CLOEXEC)
    except OSError:  # no lock file: it never ran here; unreadable: we cannot tell
        return None
    try:
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
    return int(text) if text.isdigit() and 0 < int(text) < 2**31 else UNKNOWN_PID
