"""Handing background-fetch results to plugins' callbacks, off the fetch workers.

A callback is plugin code: it may raise, be slow or never return. The fetch workers put
each result here and go on with the next fetch; one daemon thread calls the callbacks in
order, each inside ``boundary.plugin_call(plugin_id, "background_callback")`` under the
id of the plugin that gave it (its log lines, the call trail).

- A callback that raises is logged with its traceback, plugin id first. It is not
  counted in the plugin's error record: the boundary offers no way to report there.
- A callback still running ``CALLBACK_LIMIT`` seconds after it started is given up on
  when the next result arrives: one warning names the plugin, and a fresh thread takes
  over the waiting results (Python cannot stop the stuck one; it ends if the callback
  ever returns). After ``MAX_ABANDONED`` threads given up on, callbacks are no longer
  called; results stay in the cache and in ``get_result``.
- At most ``MAX_WAITING`` results wait; one beyond that is not handed to its callbacks
  (a warning; the data is in the cache).
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from shared.plugin_api import boundary

logger = logging.getLogger("shared.plugin_api.background.data")

CALLBACK_LIMIT = 30.0
MAX_ABANDONED = 3
MAX_WAITING = 64

Callback = Callable[[Any], Any]
Callbacks = list[tuple[Callback, "str | None"]]  # each with the plugin that gave it


@dataclass
class _Runner:
    """One delivering thread, its queue and what it is calling right now."""

    queue: queue.Queue[tuple[Any, Callbacks] | None] = field(
        default_factory=lambda: queue.Queue(MAX_WAITING))
    busy_since: float | None = None
    busy_with: str | None = None  # the plugin whose callback runs
    retired: bool = False


class CallbackDelivery:
    """Call results' callbacks on one daemon thread, replaced when a callback is stuck."""

    def __init__(self) -> None:
        self.abandoned = 0
        self._lock = threading.Lock()
        self._runner: _Runner | None = None
        self._closed = False

    def deliver(self, result: Any, callbacks: Callbacks) -> None:
        """Queue ``result`` for its callbacks; return at once."""
        with self._lock:
            if self._closed:
                return
            runner = self._current()
            if runner is None:
                logger.warning("background fetch %s: callbacks not called: %d callback "
                               "threads are stuck already", result.request_id, self.abandoned)
                return
            try:
                runner.queue.put_nowait((result, callbacks))
            except queue.Full:
                logger.warning("background fetch %s: callbacks not called: %d results are "
                               "waiting for theirs", result.request_id, MAX_WAITING)

    def close(self, timeout: float = 0.0) -> None:
        """Stop the thread once the waiting results are delivered; wait up to ``timeout``."""
        with self._lock:
            self._closed = True
            runner, self._runner = self._runner, None
        if runner is None:
            return
        try:
            runner.queue.put(None, timeout=max(0.0, timeout))
        except queue.Full:
            runner.retired = True

    def _current(self) -> _Runner | None:
        """Return the live runner, starting one or replacing a stuck one (lock held)."""
        runner = self._runner
        if runner is not None and runner.busy_since is not None and (
                time.monotonic() - runner.busy_since > CALLBACK_LIMIT):
            self.abandoned += 1
            logger.warning("%s: background fetch callback still running after %g s; "
                           "given up on (%d of %d)", runner.busy_with or "core", CALLBACK_LIMIT,
                           self.abandoned, MAX_ABANDONED)
            runner.retired = True
            fresh = _Runner()
            while not runner.queue.empty():  # bounded: the queue holds MAX_WAITING at most
                item = runner.queue.get_nowait()
                if item is not None:
                    fresh.queue.put_nowait(item)
            runner = self._runner = None
            if self.abandoned < MAX_ABANDONED:
                runner = self._runner = self._start(fresh)
        elif runner is None and self.abandoned < MAX_ABANDONED:
            runner = self._runner = self._start(_Runner())
        return runner

    def _start(self, runner: _Runner) -> _Runner:
        thread = threading.Thread(target=self._work, args=(runner,), daemon=True,
                                  name="background-callbacks")
        thread.start()
        return runner

    def _work(self, runner: _Runner) -> None:
        # Started from whichever plugin's call submitted first; the thread is not its.
        setattr(threading.current_thread(), boundary.STARTED_BY, None)
        while not runner.retired:
            item = runner.queue.get()
            if item is None:
                return
            result, callbacks = item
            for callback, owner in callbacks:
                runner.busy_since, runner.busy_with = time.monotonic(), owner
                call(result, callback, owner)
                runner.busy_since = None
                if runner.retired:
                    return
            # A season's schedule is megabytes; kept in the results too, 200 of them
            # would pin them all. Who polls get_result() instead of a callback keeps it.
            result.data = None


def call(result: Any, callback: Callback, owner: str | None) -> None:
    """Call one callback with ``result`` inside its plugin's guard; log what it raises."""
    try:
        if owner is None:
            callback(result)
        else:
            with boundary.plugin_call(owner, "background_callback"):
                callback(result)
    except boundary.CONTAINED:
        logger.exception("%s: background fetch callback for %s raised",
                         owner or "core", result.request_id)
