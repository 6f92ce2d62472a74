"""Failures of plugin calls, kept per plugin and published as the ``plugin_errors`` key.

Safe to call from the render thread and from update workers. Each failure is logged
as one line with the plugin id first; the traceback is logged the first time a plugin
fails and at DEBUG after that, so a plugin failing every second cannot flood the
journal with stack traces.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any

logger = logging.getLogger("display_service.plugins")

MAX_MESSAGE = 300


def one_line(error: BaseException) -> str:
    """Return ``ExceptionClass: first line of the message``, trimmed."""
    text = str(error).strip().splitlines()
    line = f"{type(error).__name__}: {text[0]}" if text else type(error).__name__
    return line if len(line) <= MAX_MESSAGE else line[: MAX_MESSAGE - 3] + "..."


class PluginErrors:
    """Count failures per plugin with the last error and when it happened."""

    def __init__(self, wall: Callable[[], float] = time.time) -> None:
        self._wall = wall
        self._lock = threading.Lock()
        self._records: dict[str, dict[str, Any]] = {}
        self._traced: set[str] = set()
        self.version = 0

    def record(self, plugin_id: str, where: str, error: BaseException) -> None:
        """Record that ``where`` (``update``, ``display``...) of a plugin raised ``error``."""
        message = one_line(error)
        first = self._store(plugin_id, where, message)
        logger.warning(
            "%s: %s() failed: %s", plugin_id, where, message, exc_info=error if first else None
        )
        if not first:
            logger.debug("%s: %s() traceback", plugin_id, where, exc_info=error)

    def record_message(self, plugin_id: str, where: str, message: str) -> None:
        """Record a failure that is not an exception (an overrun, for example)."""
        self._store(plugin_id, where, message)
        logger.warning("%s: %s", plugin_id, message)

    def _store(self, plugin_id: str, where: str, message: str) -> bool:
        with self._lock:
            record = self._records.setdefault(plugin_id, {"count": 0})
            record.update(
                count=record["count"] + 1, last_error=message, where=where, at=self._wall()
            )
            self.version += 1
            first = plugin_id not in self._traced
            self._traced.add(plugin_id)
            return first

    def count(self, plugin_id: str) -> int:
        """Return how many failures a plugin has had."""
        with self._lock:
            return int(self._records.get(plugin_id, {}).get("count", 0))

    def snapshot(self) -> dict[str, dict[str, Any]]:
        """Return a copy of every record, keyed by plugin id."""
        with self._lock:
            return {plugin_id: dict(record) for plugin_id, record in self._records.items()}
