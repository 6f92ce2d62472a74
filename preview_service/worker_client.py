"""The server's side of the worker process: one request at a time, with a deadline.

The worker is started on first use. An answer not back within ``deadline`` seconds
means a hung plugin: the worker is killed and the request answered ``timeout``; a
worker whose output ends (a plugin ended the process) is answered ``worker_exited``.
Either way the next request starts a fresh worker, so the server keeps answering.
The worker is also killed by the kernel when the server dies (``PR_SET_PDEATHSIG``),
so a hung plugin never outlives it.
"""

from __future__ import annotations

import contextlib
import ctypes
import json
import os
import queue
import subprocess
import sys
import threading
from typing import IO, Any, NoReturn

WORKER = [sys.executable, "-m", "preview_service.worker"]


class WorkerFailed(Exception):
    """The worker gave no answer: ``reason`` is ``timeout`` or ``worker_exited``."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class WorkerClient:
    """Sends render requests to one worker process, replacing it when it fails."""

    def __init__(self, deadline: float = 10.0) -> None:
        self.deadline = deadline
        self._lock = threading.Lock()
        self._process: subprocess.Popen[str] | None = None
        self._lines: queue.Queue[str | None] = queue.Queue()
        self.restarts = 0

    def _start(self) -> subprocess.Popen[str]:
        env = dict(os.environ, PYTHONUNBUFFERED="1")
        process = subprocess.Popen(WORKER, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                   text=True, encoding="utf-8", env=env,
                                   preexec_fn=_die_with_server if sys.platform == "linux"
                                   else None)
        self._lines = queue.Queue()
        assert process.stdout is not None
        threading.Thread(target=_pump, args=(process.stdout, self._lines),
                         daemon=True).start()
        return process

    def request(self, payload: dict[str, Any]) -> dict[str, Any]:
        """Send one request; return the answer or raise WorkerFailed."""
        with self._lock:
            if self._process is None or self._process.poll() is not None:
                self._process = self._start()
            process = self._process
            assert process.stdin is not None
            try:
                process.stdin.write(json.dumps(payload) + "\n")
                process.stdin.flush()
                line = self._lines.get(timeout=self.deadline)
            except queue.Empty:
                self._drop("timeout")
            except OSError:
                self._drop("worker_exited")
            if line is None:
                self._drop("worker_exited")
            answer: dict[str, Any] = json.loads(line)
            return answer

    def _drop(self, reason: str) -> NoReturn:
        """Kill the worker (the next request starts another) and fail with ``reason``."""
        if self._process is not None:
            self._process.kill()
            self._process.wait()
        self._process = None
        self.restarts += 1
        raise WorkerFailed(reason)

    def close(self) -> None:
        """Stop the worker, if one runs (without waiting for a request in flight)."""
        process = self._process
        if process is not None:
            process.kill()
            process.wait()


def _die_with_server() -> None:
    pr_set_pdeathsig, sigkill = 1, 9
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(pr_set_pdeathsig, sigkill)


def _pump(stream: IO[str], lines: queue.Queue[str | None]) -> None:
    for line in stream:
        lines.put(line)
    lines.put(None)
