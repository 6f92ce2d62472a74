"""The render loop's figures and the ``display_metrics`` bus record that carries them.

``LoopMetrics`` counts what only the display knows: frames drawn, how long each
``display()`` call took (p50/p95 over the last ``FRAME_SAMPLES`` frames), frames dropped
(a call that took longer than the interval to the next frame), and per plugin the time
spent in ``display()`` and ``update()``. It is fed from the render thread and the update
threads, so it holds a lock.

``MetricsPublisher`` writes the record only while the web says someone reads the
metrics (``metrics_viewer``, refreshed by each scrape), at most every
``PUBLISH_INTERVAL`` seconds and only when it changed: an idle panel that nobody
scrapes writes nothing. The record echoes when the viewer mark it answers was written
(``viewer_written_at``) and when the display saw it (``viewer_seen_at``): the measured
bus latency, write to seen.

Record: ``pid``, ``at``, ``frames`` {``drawn``, ``dropped``, ``fps``,
``frame_seconds_p50``, ``frame_seconds_p95``}, ``plugins`` {plugin_id: {``display_calls``,
``display_seconds``, ``display_max_seconds``, ``update_calls``, ``update_seconds``,
``update_max_seconds``}}, ``cache`` ({``hits``, ``misses``, ``hit_rate``} or None),
``viewer_written_at``, ``viewer_seen_at``.
"""

from __future__ import annotations

import math
import os
import threading
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from display_service.state import BusWriter
from shared.bus.core import DISPLAY_METRICS, METRICS_VIEWER, Bus

FRAME_SAMPLES = 512
PUBLISH_INTERVAL = 2.0
MAX_PLUGINS = 200  # far more than a panel loads; bounds the record whatever happens


@dataclass
class _Timing:
    calls: int = 0
    seconds: float = 0.0
    max_seconds: float = 0.0

    def add(self, took: float) -> None:
        self.calls += 1
        self.seconds += took
        self.max_seconds = max(self.max_seconds, took)


class LoopMetrics:
    """Frames and per-plugin call times, fed by the render and update threads."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.drawn = 0
        self.dropped = 0
        self._frame_times: deque[float] = deque(maxlen=FRAME_SAMPLES)
        self._display: dict[str, _Timing] = {}
        self._update: dict[str, _Timing] = {}

    def frame(self, plugin_id: str, took: float, interval: float) -> None:
        """One ``display()`` call took ``took`` seconds; the next frame was due after
        ``interval``."""
        with self._lock:
            self.drawn += 1
            if took > interval:
                self.dropped += 1
            self._frame_times.append(took)
            _timing(self._display, plugin_id).add(took)

    def update(self, plugin_id: str, took: float) -> None:
        """One ``update()`` call of ``plugin_id`` returned after ``took`` seconds."""
        with self._lock:
            _timing(self._update, plugin_id).add(took)

    def snapshot(self, fps: float) -> dict[str, Any]:
        """Return the frames and plugins parts of the record."""
        with self._lock:
            times = sorted(self._frame_times)
            plugins = {plugin_id: _plugin(self._display.get(plugin_id),
                                          self._update.get(plugin_id))
                       for plugin_id in sorted(set(self._display) | set(self._update))}
            return {"frames": {"drawn": self.drawn, "dropped": self.dropped, "fps": fps,
                               "frame_seconds_p50": _quantile(times, 0.5),
                               "frame_seconds_p95": _quantile(times, 0.95)},
                    "plugins": plugins}


def _timing(table: dict[str, _Timing], plugin_id: str) -> _Timing:
    timing = table.get(plugin_id)
    if timing is None:
        timing = _Timing()
        if len(table) < MAX_PLUGINS:
            table[plugin_id] = timing
    return timing


def _plugin(display: _Timing | None, update: _Timing | None) -> dict[str, Any]:
    display, update = display or _Timing(), update or _Timing()
    return {"display_calls": display.calls, "display_seconds": round(display.seconds, 6),
            "display_max_seconds": round(display.max_seconds, 6),
            "update_calls": update.calls, "update_seconds": round(update.seconds, 6),
            "update_max_seconds": round(update.max_seconds, 6)}


def _quantile(ordered: list[float], share: float) -> float | None:
    """The nearest-rank quantile: the smallest value with ``share`` of them at or below."""
    if not ordered:
        return None
    return round(ordered[max(0, math.ceil(share * len(ordered)) - 1)], 6)


class MetricsPublisher:
    """``display_metrics`` while a metrics reader is present, at most every few seconds."""

    def __init__(self, bus: Bus, writer: BusWriter, metrics: LoopMetrics,
                 wall: Callable[[], float], cache: Callable[[], Any]) -> None:
        self.bus, self.writer, self.metrics = bus, writer, metrics
        self.wall, self.cache = wall, cache
        self._until = 0.0
        self._written_at: float | None = None
        self._seen_at: float | None = None
        self._published_at = float("-inf")
        self._last: dict[str, Any] | None = None

    def refresh_viewer(self) -> None:
        """Re-read ``metrics_viewer`` (the watcher saw it change): publish soon."""
        viewer = self.bus.read(METRICS_VIEWER) or {}
        self._until = _number(viewer.get("until")) or 0.0
        self._written_at = _number(viewer.get("written_at"))
        self._seen_at = round(self.wall(), 6)
        self._published_at = float("-inf")  # the reader waits: answer at once

    def next_due(self) -> float | None:
        """Return when the next record is due on the loop's clock, None while unread."""
        if self._until <= self.wall():
            return None
        return self._published_at + PUBLISH_INTERVAL

    def maybe_publish(self, now: float, fps: float) -> bool:
        """Publish the record when read, due and changed; return True when one was queued."""
        if self._until <= self.wall() or now - self._published_at < PUBLISH_INTERVAL:
            return False
        self._published_at = now
        record = {**self.metrics.snapshot(fps), "cache": _cache(self.cache()),
                  "viewer_written_at": self._written_at, "viewer_seen_at": self._seen_at}
        if record == self._last:
            return False
        self._last = record
        self.writer.put(DISPLAY_METRICS, {"pid": os.getpid(), "at": round(self.wall(), 3),
                                          **record})
        return True


def _cache(manager: Any) -> dict[str, Any] | None:
    """The plugin cache's hit and miss counts (``hit_counts``), None without one."""
    read = getattr(manager, "hit_counts", None)
    if not callable(read):
        return None
    try:
        hits, misses = (int(count) for count in read())
    except (TypeError, ValueError):
        return None
    lookups = hits + misses
    return {"hits": hits, "misses": misses,
            "hit_rate": round(hits / lookups, 4) if lookups else None}


def _number(value: Any) -> float | None:
    if isinstance(value, int | float) and not isinstance(value, bool) and value == value:
        return float(value)
    return None
