"""What ``/stream/stats`` sends: the cheap part of ``GET /api/v3/system/status``.

Host figures (load, memory, temperature, uptime) and the display's state in a few
fields, read fresh each time; nothing here parses the config or walks the plugins.
"""

from __future__ import annotations

import os
import time
from typing import Any

from shared.bus.display_status import display_report
from shared.host_metrics import host_metrics
from web_service.services import WebServices

DEFAULT_INTERVAL = 3.0  # seconds between two stats events (LEDPANEL_STATS_INTERVAL)
DISPLAY_FIELDS = ("service", "showing", "power", "plugin_id", "mode", "fps", "brightness",
                  "summary")


def stats_interval() -> float:
    """Return the seconds between stats events (``LEDPANEL_STATS_INTERVAL``, 0.2 to 60)."""
    try:
        value = float(os.environ.get("LEDPANEL_STATS_INTERVAL") or DEFAULT_INTERVAL)
    except ValueError:
        return DEFAULT_INTERVAL
    return min(max(value, 0.2), 60.0) if value == value else DEFAULT_INTERVAL


def stats_snapshot(svc: WebServices) -> dict[str, Any]:
    """Return the host figures, the display summary and the web daemon's uptime."""
    state, holder = svc.display.state()
    report = display_report(state, holder)
    return {
        "at": round(time.time(), 3),
        "host": host_metrics(),
        "display": {key: report.get(key) for key in DISPLAY_FIELDS},
        "web": {"uptime_seconds": round(time.time() - svc.started_at, 1)},
    }
