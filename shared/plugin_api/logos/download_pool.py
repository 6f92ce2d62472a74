"""Downloads a caller waits for only briefly: a small pool of daemon threads.

Plugins download team logos from ``display()``, on the render thread, where a call that
runs past the hang watch's limit (8 s) sends the plugin to safe mode. Timeouts alone
cannot bound a download: the host name's lookup has none, and connecting waits the full
timeout once per address the name resolves to. So the network part runs here, and the
caller waits at most its budget; a job not done by then carries on, and what it writes is
there for the next call.

- At most ``MAX_WORKERS`` daemon threads, started on first use.
- One job per key at a time (the file it writes): a second ask joins the running job.
- At most ``MAX_PENDING`` jobs waiting or running; an ask beyond that is answered at once
  as not done.
- A job that raises counts as failed (logged with its traceback); the thread goes on.
"""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Callable
from dataclasses import dataclass, field

from shared.plugin_api import boundary

logger = logging.getLogger(__name__)

MAX_WORKERS = 2
MAX_PENDING = 16

Job = Callable[[], bool]


@dataclass
class _Task:
    key: str
    job: Job
    done: threading.Event = field(default_factory=threading.Event)
    result: bool = False


class DownloadPool:
    """Run download jobs on a few daemon threads; let callers wait a bounded time."""

    def __init__(self, workers: int = MAX_WORKERS, max_pending: int = MAX_PENDING) -> None:
        self.workers = max(1, int(workers))
        self.max_pending = max(1, int(max_pending))
        self._lock = threading.Lock()
        self._tasks: dict[str, _Task] = {}  # key -> its task, while waiting or running
        self._queue: queue.Queue[_Task] = queue.Queue()
        self._threads: list[threading.Thread] = []

    def run(self, key: str, job: Job, budget: float) -> bool | None:
        """Run ``job`` for ``key`` (or join the one running) and wait up to ``budget`` seconds.

        Return the job's answer, or None when it is not done in time (it carries on) or
        could not be queued.
        """
        with self._lock:
            task = self._tasks.get(key)
            if task is None:
                if len(self._tasks) >= self.max_pending:
                    logger.warning("download of %s not started: %d downloads already "
                                   "waiting or running", key, len(self._tasks))
                    return None
                task = self._tasks[key] = _Task(key, job)
                self._queue.put(task)
                self._start_threads()
        if not task.done.wait(max(0.0, budget)):
            return None
        return task.result

    def busy(self) -> int:
        """Return how many jobs are waiting or running."""
        with self._lock:
            return len(self._tasks)

    def _start_threads(self) -> None:
        """Start the pool's threads up to its size (caller holds the lock)."""
        while len(self._threads) < self.workers:
            thread = threading.Thread(target=self._work, daemon=True,
                                      name=f"download-{len(self._threads) + 1}")
            self._threads.append(thread)
            thread.start()

    def _work(self) -> None:
        # Started from whichever plugin's display() asked first; the pool is not its.
        setattr(threading.current_thread(), boundary.STARTED_BY, None)
        while True:  # a daemon thread: it lasts as long as the process
            task = self._queue.get()
            try:
                task.result = bool(task.job())
            except Exception:  # a worker must outlive any surprise, or the pool shrinks
                logger.exception("download of %s failed unexpectedly", task.key)
                task.result = False
            finally:
                with self._lock:
                    del self._tasks[task.key]
                task.done.set()


_pool = DownloadPool()


def run(key: str, job: Job, budget: float) -> bool | None:
    """Run ``job`` on the process's download pool; see ``DownloadPool.run``."""
    return _pool.run(key, job, budget)
