"""Failures of plugin calls, kept per plugin and published as the ``plugin_errors`` key.

Safe to call from the render thread and from update workers. Every failure is counted
in the plugin's record; the journal gets far less, so a plugin failing every second
cannot flood it:

- A failure is logged as one line with the plugin id first. The traceback goes with
  the first failure of each (plugin, hook) pair (``update`` and ``display`` failing are
  two different bugs, each worth its stack trace), at DEBUG after that.
- The same failure repeated (same plugin, hook and message) is not logged again;
  instead a summary line, ``weather: display() failed 60 more times: KeyError: 'x'``,
  at most once per ``SUMMARY_INTERVAL`` seconds while it goes on. A different message
  is logged at once (after the summary of the repeats of the previous one, if any).

Each record holds ``count``, ``last_error`` (``Class: message``), ``where`` (the phase
of the last failure), ``at`` and ``first_at`` (epoch seconds), ``exception`` (the
class name; None for a failure that is no exception, such as an overrun), ``phases``
(failures per phase) and ``breaker`` (``breaker.py``: ``state``, ``until``...). While
a plugin's breaker is open, ``resting()`` says so and the plugin is not called.
``fresh_start()`` closes one plugin's breaker (its record stays): the render loop calls
it when the plugin's config changed or it was loaded, unloaded or released from safe
mode, so a fix the user made is tried at once, not after the rest. ``clear()`` forgets
records and breakers; the published snapshot then carries
``CLEARED_KEY`` (not a plugin id: ids never start with a dot) with the request id.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from display_service.plugins.breaker import CLOSED, Breaker
from shared.bus.core import PLUGIN_ERRORS_CLEARED
from shared.history import PluginEvent

logger = logging.getLogger("display_service.plugins")

MAX_MESSAGE = 300
SUMMARY_INTERVAL = 60.0
CLEARED_KEY = PLUGIN_ERRORS_CLEARED


def one_line(error: BaseException) -> str:
    """Return ``ExceptionClass: first line of the message``, trimmed."""
    text = str(error).strip().splitlines()
    line = f"{type(error).__name__}: {text[0]}" if text else type(error).__name__
    return line if len(line) <= MAX_MESSAGE else line[: MAX_MESSAGE - 3] + "..."


@dataclass
class _Logged:
    """What was last logged for one (plugin, hook) pair, and the repeats held back since."""

    message: str
    at: float
    repeats: int = 0


class PluginErrors:
    """Count failures per plugin with the last error and when it happened."""

    def __init__(self, wall: Callable[[], float] = time.time,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self._wall = wall
        self._clock = clock
        self._lock = threading.Lock()
        self._records: dict[str, dict[str, Any]] = {}
        self._logged: dict[tuple[str, str], _Logged] = {}
        self._breakers: dict[str, Breaker] = {}
        self._cleared: dict[str, Any] | None = None
        self.version = 0
        # Told (plugin_id, "rested", detail) when a breaker opens: the operation history.
        self.on_event: PluginEvent | None = None

    def record(self, plugin_id: str, where: str, error: BaseException) -> None:
        """Record that ``where`` (``update``, ``display``...) of a plugin raised ``error``."""
        message = one_line(error)
        first, log = self._store(plugin_id, where, message, type(error).__name__)
        if log:
            logger.warning("%s: %s() failed: %s", plugin_id, where, message,
                           exc_info=error if first else None)
        if not first:
            logger.debug("%s: %s() traceback", plugin_id, where, exc_info=error)

    def record_message(self, plugin_id: str, where: str, message: str) -> None:
        """Record a failure that is not an exception (an overrun, for example)."""
        _first, log = self._store(plugin_id, where, message)
        if log:
            logger.warning("%s: %s", plugin_id, message)

    def _store(self, plugin_id: str, where: str, message: str,
               exception: str | None = None) -> tuple[bool, bool]:
        """Count the failure; return (first of this hook, log this one)."""
        with self._lock:
            wall = self._wall()
            record = self._records.setdefault(plugin_id, {"count": 0, "first_at": wall,
                                                          "phases": {}})
            record.update(count=record["count"] + 1, last_error=message, where=where,
                          at=wall, exception=exception)
            record["phases"][where] = record["phases"].get(where, 0) + 1
            self.version += 1
            now = self._clock()
            breaker = self._breakers.setdefault(plugin_id, Breaker())
            if exception is not None and breaker.failed(where, now):
                rest = (breaker.until or now) - now
                logger.info("%s: %s() keeps failing: rested for %g s", plugin_id, where, rest)
                if self.on_event is not None:
                    self.on_event(plugin_id, "rested",
                                  f"{where}() keeps failing ({message}): rested for {rest:g} s")
            logged = self._logged.get((plugin_id, where))
            if logged is None:
                self._logged[(plugin_id, where)] = _Logged(message, now)
                return True, True
            if logged.message != message:
                self._summarise(plugin_id, where, logged)
                self._logged[(plugin_id, where)] = _Logged(message, now)
                return False, True
            logged.repeats += 1
            if now - logged.at >= SUMMARY_INTERVAL:
                self._summarise(plugin_id, where, logged)
                logged.at = now
            return False, False

    @staticmethod
    def _summarise(plugin_id: str, where: str, logged: _Logged) -> None:
        if logged.repeats:
            logger.warning("%s: %s() failed %d more times: %s",
                           plugin_id, where, logged.repeats, logged.message)
            logged.repeats = 0

    def succeeded(self, plugin_id: str, where: str) -> None:
        """Note a call of ``where`` that worked: it may close the plugin's breaker."""
        with self._lock:
            breaker = self._breakers.get(plugin_id)
            if breaker is not None and breaker.succeeded(where):
                self.version += 1
                logger.info("%s: %s() works again: no longer rested", plugin_id, where)

    def resting(self, plugin_id: str) -> bool:
        """Return True while the plugin's breaker is open: do not call it."""
        with self._lock:
            breaker = self._breakers.get(plugin_id)
            if breaker is None or breaker.state == CLOSED:
                return False
            before = breaker.state
            rested = breaker.resting(self._clock())
            if breaker.state != before:
                self.version += 1
                logger.info("%s: rest over: trying it again", plugin_id)
            return rested

    def rest_until(self, plugin_id: str) -> float | None:
        """Return when (on the monotonic clock) the plugin's rest ends; None if not resting."""
        with self._lock:
            breaker = self._breakers.get(plugin_id)
            return breaker.until if breaker is not None else None

    def fresh_start(self, plugin_id: str) -> None:
        """Close the plugin's breaker, if open, and reset its rest; keep its record."""
        with self._lock:
            breaker = self._breakers.pop(plugin_id, None)
            if breaker is None:
                return
            self.version += 1
        if breaker.state != CLOSED:
            logger.info("%s: changed: no longer rested", plugin_id)

    def clear(self, plugin_id: str | None, request_id: Any = None) -> None:
        """Forget one plugin's record and breaker (all of them when None)."""
        with self._lock:
            for table in (self._records, self._breakers):
                for key in [k for k in table if plugin_id is None or k == plugin_id]:
                    del table[key]
            for pair in [p for p in self._logged if plugin_id is None or p[0] == plugin_id]:
                del self._logged[pair]
            self._cleared = {"request_id": request_id, "plugin_id": plugin_id,
                             "at": self._wall()}
            self.version += 1
        logger.info("plugin errors cleared: %s", plugin_id or "all plugins")

    def count(self, plugin_id: str) -> int:
        """Return how many failures a plugin has had."""
        with self._lock:
            return int(self._records.get(plugin_id, {}).get("count", 0))

    def snapshot(self) -> dict[str, dict[str, Any]]:
        """Return a copy of every record, keyed by plugin id."""
        with self._lock:
            now, wall = self._clock(), self._wall()
            found: dict[str, dict[str, Any]] = {}
            for plugin_id, record in self._records.items():
                breaker = self._breakers.get(plugin_id) or Breaker()
                found[plugin_id] = {**record, "phases": dict(record["phases"]),
                                    "breaker": breaker.describe(now, wall)}
            if self._cleared is not None:
                found[CLEARED_KEY] = dict(self._cleared)
            return found
