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
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

logger = logging.getLogger("display_service.plugins")

MAX_MESSAGE = 300
SUMMARY_INTERVAL = 60.0


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
        self.version = 0

    def record(self, plugin_id: str, where: str, error: BaseException) -> None:
        """Record that ``where`` (``update``, ``display``...) of a plugin raised ``error``."""
        message = one_line(error)
        first, log = self._store(plugin_id, where, message)
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

    def _store(self, plugin_id: str, where: str, message: str) -> tuple[bool, bool]:
        """Count the failure; return (first of this hook, log this one)."""
        with self._lock:
            record = self._records.setdefault(plugin_id, {"count": 0})
            record.update(
                count=record["count"] + 1, last_error=message, where=where, at=self._wall()
            )
            self.version += 1
            now = self._clock()
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

    def count(self, plugin_id: str) -> int:
        """Return how many failures a plugin has had."""
        with self._lock:
            return int(self._records.get(plugin_id, {}).get("count", 0))

    def snapshot(self) -> dict[str, dict[str, Any]]:
        """Return a copy of every record, keyed by plugin id."""
        with self._lock:
            return {plugin_id: dict(record) for plugin_id, record in self._records.items()}
