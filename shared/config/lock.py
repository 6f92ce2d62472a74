"""The config lock: one writer at a time, across processes and across threads.

``fcntl.flock`` excludes other processes, but it belongs to an open file description,
so two threads of one process would each open the file and block each other forever.
Each lock file therefore gets one in-process guard (``_FairRLock`` plus a depth count):
the first acquisition in a thread takes the flock, nested ones only count. The guard
serves waiting threads in the order they came: a plain ``RLock`` lets the thread that
just released take it again at once, so one thread saving in a loop could keep the
others waiting until they gave up (``CONFIG_LOCKED``) on a slow disk.
"""

from __future__ import annotations

import collections
import errno
import fcntl
import os
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from shared.errors import ConfigError
from shared.paths import Paths


class _FairRLock:
    """A reentrant lock whose waiters get it first come, first served."""

    def __init__(self) -> None:
        self._cond = threading.Condition(threading.Lock())
        self._owner: int | None = None
        self._count = 0
        self._queue: collections.deque[object] = collections.deque()

    def acquire(self, timeout: float) -> bool:
        me = threading.get_ident()
        with self._cond:
            if self._owner == me:
                self._count += 1
                return True
            ticket = object()
            self._queue.append(ticket)
            ready = self._cond.wait_for(
                lambda: self._owner is None and self._queue[0] is ticket, timeout)
            if not ready:
                self._queue.remove(ticket)
                self._cond.notify_all()  # the next in line may be first now
                return False
            self._queue.popleft()
            self._owner, self._count = me, 1
            return True

    def release(self) -> None:
        with self._cond:
            if self._owner != threading.get_ident():
                raise RuntimeError("release of a lock this thread does not hold")
            self._count -= 1
            if self._count == 0:
                self._owner = None
                self._cond.notify_all()


class _FileLock:
    """An flock on one path, reentrant within a thread and exclusive between threads."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._guard = _FairRLock()
        self._depth = 0
        self._fd: int | None = None

    def acquire(self, timeout: float) -> None:
        deadline = time.monotonic() + max(timeout, 0.0)
        if not self._guard.acquire(timeout=max(timeout, 0.0)):
            raise self._timeout_error(timeout)
        if self._depth:
            self._depth += 1
            return
        try:
            self._fd = self._take_flock(deadline, timeout)
        except BaseException:
            self._guard.release()
            raise
        self._depth = 1

    def release(self) -> None:
        self._depth -= 1
        if self._depth == 0 and self._fd is not None:
            fd, self._fd = self._fd, None
            try:
                fcntl.flock(fd, fcntl.LOCK_UN)
            finally:
                os.close(fd)
        self._guard.release()

    def _take_flock(self, deadline: float, timeout: float) -> int:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            # Read-only is enough for flock and works when another user created the file.
            fd = os.open(self.path, os.O_RDONLY | os.O_CREAT, 0o664)
        except OSError as err:
            raise ConfigError(f"cannot open lock file {self.path}: {err.strerror or err}") from err
        pause = 0.002
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                return fd
            except OSError as err:
                if err.errno not in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                    os.close(fd)
                    raise ConfigError(f"cannot lock {self.path}: {err.strerror or err}") from err
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                os.close(fd)
                raise self._timeout_error(timeout)
            time.sleep(min(pause, remaining))
            pause = min(pause * 2, 0.05)

    def _timeout_error(self, timeout: float) -> ConfigError:
        return ConfigError(
            f"the configuration is locked by another writer ({self.path}); "
            f"gave up after {timeout:g} s",
            error_code="CONFIG_LOCKED",
            status=503,
        )


_locks: dict[Path, _FileLock] = {}
_registry_guard = threading.Lock()


def _reset_after_fork() -> None:
    # A forked child inherits no threads and no flock ownership worth keeping.
    global _registry_guard
    _registry_guard = threading.Lock()
    _locks.clear()


os.register_at_fork(after_in_child=_reset_after_fork)


def _lock_for(path: Path) -> _FileLock:
    key = Path(os.path.abspath(path))
    with _registry_guard:
        lock = _locks.get(key)
        if lock is None:
            lock = _locks[key] = _FileLock(key)
        return lock


@contextmanager
def config_lock(paths: Paths, timeout: float = 10.0) -> Iterator[None]:
    """Hold the config lock for the block; raise ConfigError after ``timeout`` seconds."""
    lock = _lock_for(paths.lock_file)
    lock.acquire(timeout)
    try:
        yield
    finally:
        lock.release()
