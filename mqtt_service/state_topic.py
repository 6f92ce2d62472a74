"""The retained ``<base>/state`` and ``<base>/plugins`` payloads, from the bus.

Everything comes from records other processes wrote (``display_state``,
``plugin_errors``, the display lock), read through ``shared.bus.display_status``, which
takes a torn or hand-edited record as absent; config.json gives the enabled plugins and
the saved brightness when the display is not running.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from typing import Any

from mqtt_service.actions import enabled_plugins
from shared.bus import core as keys
from shared.bus.core import Bus
from shared.bus.display_status import display_report, read_display
from shared.host_metrics import host_metrics

MAX_REASON = 300


def panel_state(bus: Bus, config: Mapping[str, Any],
                temperature: float | None) -> dict[str, Any]:
    """Return the state payload: power, brightness, showing, plugin_id, mode, on_demand,
    errors, temperature, reason."""
    record, holder = read_display(bus)
    report = display_report(record, holder, bus.read(keys.PLUGIN_ERRORS))
    errors = report.get("plugin_errors") or {}
    on_demand = report.get("on_demand") or {}
    return {
        "power": "ON" if report.get("power") == "on" else "OFF",
        "brightness": _brightness(report.get("brightness"), config),
        "showing": report.get("summary"),
        "plugin_id": report.get("plugin_id"),
        "mode": report.get("mode"),
        "on_demand": on_demand.get("state") == "active",
        "errors": sum(entry["count"] for entry in errors.values()),
        "temperature": temperature,
        "reason": _reason(report),
    }


def _brightness(shown: Any, config: Mapping[str, Any]) -> int | None:
    for value in (shown, config.get("brightness")):
        if isinstance(value, int | float) and not isinstance(value, bool) \
                and math.isfinite(value) and 0 <= value <= 100:
            return round(value)
    return None


def _reason(report: dict[str, Any]) -> str | None:
    """Why the panel shows what it shows, as the status says it (``display_status``)."""
    reason = report.get("reason")
    return reason[:MAX_REASON] if isinstance(reason, str) and reason else None


def cpu_temperature() -> float | None:
    """Return the CPU temperature in °C, rounded to a whole degree, None if unknown."""
    value = host_metrics().get("cpu_temperature_c")
    if isinstance(value, int | float) and math.isfinite(value):
        return float(round(value))
    return None


def plugins_payload(bus: Bus, config: Mapping[str, Any]) -> list[str]:
    """Return the plugins the panel can show: the options of Home Assistant's select."""
    return enabled_plugins(config, bus)


def encode(value: Any) -> bytes:
    """Return ``value`` as compact JSON bytes."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
