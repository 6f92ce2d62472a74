"""Asking the display for fresh figures: the ``metrics_viewer`` mark and the wait.

A scrape marks a reader present for ``WINDOW`` seconds (written again only when half of
it has passed: one bus write per few scrapes), and the display publishes
``display_metrics`` while the mark lasts. Right after a new mark, the answer waits up to
``WAIT`` seconds for the record that answers it, so the first scrape has figures too.
"""

from __future__ import annotations

import contextlib
import time
from typing import Any

from shared.bus import core as keys
from shared.bus.core import Bus
from shared.bus.display_status import timestamp
from shared.errors import AtomicWriteError

WINDOW = 60.0
WAIT = 1.5


def fresh_record(bus: Bus, display_running: bool) -> Any:
    """Return the ``display_metrics`` record, after marking a reader present."""
    written_at = _mark(bus)
    if written_at is None or not display_running:
        return bus.read(keys.DISPLAY_METRICS)

    def answers(record: dict[str, Any] | None) -> bool:
        return isinstance(record, dict) and timestamp(
            record.get("viewer_written_at")) == written_at

    record = bus.wait_for(keys.DISPLAY_METRICS, answers, timeout=WAIT)
    return record if record is not None else bus.read(keys.DISPLAY_METRICS)


def _mark(bus: Bus) -> float | None:
    """Write the reader mark when it is about to lapse; return when, None if not written."""
    viewer = bus.read(keys.METRICS_VIEWER) or {}
    now = time.time()
    until = timestamp(viewer.get("until")) or 0.0
    if until - now >= WINDOW / 2:
        return None
    written_at = round(now, 6)
    with contextlib.suppress(AtomicWriteError):  # a folder in its place: older figures
        bus.publish(keys.METRICS_VIEWER, {"until": now + WINDOW, "written_at": written_at})
        return written_at
    return None
