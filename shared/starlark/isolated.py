"""AppRenderer: apps rendered in a worker process with a memory cap and a hard stop.

The interpreter checks its time budget between steps, but one step can be long (a
string of two billion characters) and an app can ask for more memory than the board
has. So apps run in ``shared.starlark.worker``, a child process whose data memory is
capped: over the cap the worker ends and the render fails with a message saying so;
past the budget plus a grace it is killed. Either way the next render starts a fresh
worker, and the caller (the display, the ``ledpanel apps render`` command) carries on.
One worker serves one caller's renders one at a time; it keeps each app's cache.
"""

from __future__ import annotations

import collections
import json
import logging
import os
import select
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from typing import IO, Any

from PIL import Image

from shared.starlark.runtime import AppError, NothingToShow

logger = logging.getLogger(__name__)

DEFAULT_MEMORY_MB = 256
GRACE_SECONDS = 2.0  # beyond the app's budget: imports on a fresh worker, drawing frames
MAX_ANSWER_BYTES = 64 * 1024 * 1024


@dataclass(frozen=True)
class RenderedFrames:
    """What a render gave: RGB frames of the asked size, the delay between them, and
    whether the app asks to be shown until its animation played through once."""

    images: list[Image.Image]
    delay_ms: int
    show_full_animation: bool = False


class AppRenderer:
    """Render apps in a capped worker process (see the module docstring)."""

    def __init__(self, memory_mb: int = DEFAULT_MEMORY_MB) -> None:
        self.memory_mb = memory_mb
        self._worker: subprocess.Popen[bytes] | None = None
        self._lock = threading.Lock()
        self._last_words: collections.deque[str] = collections.deque(maxlen=3)
        self._follower: threading.Thread | None = None

    def render(self, app: str, config: dict[str, str], *, width: int = 64, height: int = 32,
               seconds: float = 1.0) -> RenderedFrames:
        """Render the app at ``app`` (a .star file or folder); AppError names a failure,
        NothingToShow (one of them) says the app skips its turn (main returned ``[]``)."""
        request = {"app": os.path.abspath(app), "config": config, "width": width,
                   "height": height, "seconds": seconds}
        head, data = self._ask(request, seconds)
        return _frames(head, data, width, height)

    def schema(self, app: str, *, seconds: float = 1.0) -> dict[str, Any] | None:
        """The app's settings schema (pixlet's JSON shape), None when it has none."""
        head, _ = self._ask({"kind": "schema", "app": os.path.abspath(app),
                             "seconds": seconds}, seconds)
        schema = head.get("schema")
        return schema if isinstance(schema, dict) else None

    def _ask(self, request: dict[str, Any], seconds: float) -> tuple[dict[str, Any], bytes]:
        """Send one request to the worker; its answer's head and data, or AppError."""
        with self._lock:
            worker = self._running()
            deadline = time.monotonic() + seconds + GRACE_SECONDS
            try:
                assert worker.stdin is not None and worker.stdout is not None
                worker.stdin.write(json.dumps(request).encode() + b"\n")
                worker.stdin.flush()
                head = json.loads(_read_line(worker.stdout, deadline))
                data = _read_exact(worker.stdout, int(head.get("size", 0)), deadline)
            except (OSError, ValueError, TimeoutError) as err:
                raise AppError(self._stopped(worker, err, seconds)) from None
        if not head.get("ok"):
            kind = NothingToShow if head.get("nothing") is True else AppError
            raise kind(str(head.get("error") or "the app failed"))
        return head, data

    def close(self) -> None:
        """Stop the worker (a later render starts a new one)."""
        with self._lock:
            if self._worker is not None:
                self._worker.kill()
                self._worker.wait()
                self._worker = None

    def _running(self) -> subprocess.Popen[bytes]:
        if self._worker is None or self._worker.poll() is not None:
            self._last_words.clear()
            env = {**os.environ, "RUST_BACKTRACE": "0"}
            self._worker = subprocess.Popen(
                [sys.executable, "-m", "shared.starlark.worker", str(self.memory_mb)],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                env=env, start_new_session=True)
            self._follower = threading.Thread(target=self._follow, args=(self._worker.stderr,),
                                              name="app-worker-log", daemon=True)
            self._follower.start()
        return self._worker

    def _follow(self, stream: IO[bytes]) -> None:
        """Pass the worker's log lines on (debug) and keep its last words for errors."""
        for raw in stream:
            line = raw.decode("utf-8", "replace").rstrip()
            if line:
                self._last_words.append(line[:200])
                logger.debug("app worker: %s", line)

    def _stopped(self, worker: subprocess.Popen[bytes], err: Exception, seconds: float) -> str:
        timed_out = isinstance(err, TimeoutError)
        worker.kill()
        worker.wait()
        if self._follower is not None:
            self._follower.join(timeout=2)  # its last words, read to the end of the pipe
        self._worker = None
        if timed_out:
            return f"app took longer than {seconds:g} s to render (stopped)"
        said = next((w for w in reversed(self._last_words) if "memory allocation" in w), "")
        if said or worker.returncode in (-6, 134):  # the allocator gave up: SIGABRT
            return (f"the app used more than the {self.memory_mb} MB of memory allowed"
                    + (f" ({said})" if said else ""))
        return f"the app's renderer stopped (exit status {worker.returncode})"


def _frames(head: dict[str, Any], data: bytes, width: int, height: int) -> RenderedFrames:
    size = width * height * 3
    count = int(head["frames"])
    if count < 1 or len(data) != count * size:
        raise AppError("the app's renderer answered with broken frames")
    images = [Image.frombytes("RGB", (width, height), data[i * size:(i + 1) * size])
              for i in range(count)]
    return RenderedFrames(images, int(head["delay_ms"]),
                          head.get("show_full_animation") is True)


def _wait_readable(stream: IO[bytes], deadline: float) -> None:
    left = deadline - time.monotonic()
    if left <= 0 or not select.select([stream], [], [], left)[0]:
        raise TimeoutError


def _read_line(stream: IO[bytes], deadline: float) -> bytes:
    line = bytearray()
    fd = stream.fileno()
    while not line.endswith(b"\n"):
        _wait_readable(stream, deadline)
        chunk = os.read(fd, 1)
        if not chunk:
            raise OSError("the worker ended")
        line += chunk
        if len(line) > 64 * 1024:
            raise ValueError("answer line too long")
    return bytes(line)


def _read_exact(stream: IO[bytes], size: int, deadline: float) -> bytes:
    if not 0 <= size <= MAX_ANSWER_BYTES:
        raise ValueError("answer too large")
    data = bytearray()
    fd = stream.fileno()
    while len(data) < size:
        _wait_readable(stream, deadline)
        chunk = os.read(fd, min(1 << 20, size - len(data)))
        if not chunk:
            raise OSError("the worker ended")
        data += chunk
    return bytes(data)
