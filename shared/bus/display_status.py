"""What the display service is doing, in one shape for every consumer.

The display daemon publishes ``display_state`` when what it shows changes (never on a
timer) and ``hardware_status`` at start. Whether it runs at all is the lock it holds
(``shared.bus.daemon_lock``), not the age of a file. ``display_report`` and
``hardware_report`` turn those into the ``display`` and ``hardware`` blocks of
``GET /api/v3/system/status``; the ``ledpanel`` command builds the same blocks from the
bus when the web service is down, so both say the same words.

Both records are written by another process and may be torn by a hand edit: anything
malformed reads as absent, never raises.
"""

from __future__ import annotations

import math
import time
from pathlib import Path
from typing import Any

from shared.bus import core as keys
from shared.bus.core import Bus
from shared.bus.daemon_lock import DISPLAY, UNKNOWN_PID, lock_holder

RUNNING, STARTING, STOPPED, NOT_RUNNING = "running", "starting", "stopped", "not_running"
SHOWING = ("notification", "on_demand", "sync", "wall", "live", "full_screen", "rotation",
           "off")
MAX_ERROR_TEXT = 300  # characters of a plugin's last error passed on
MAX_REASON = 300  # characters of the display's reason passed on


def timestamp(value: Any) -> float | None:
    """Return a bus timestamp as a float, or None when it is not a finite number."""
    if isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value):
        return float(value)
    return None


def service_state(state: Any, holder: int | None) -> str:
    """Return ``running``, ``starting``, ``stopped`` or ``not_running``.

    ``holder`` is the pid holding the display lock (``lock_holder``), None when no
    display runs. ``running``: the holder published its state. ``starting``: the lock is
    held but the state on the bus is an older process's. ``stopped``: no display runs
    and the last one said so on its way out; ``not_running``: anything else.
    """
    record = state if isinstance(state, dict) else {}
    if holder is None:
        return STOPPED if record.get("service") == "stopped" else NOT_RUNNING
    pid = record.get("pid")
    if record.get("service") == "running" and (holder == UNKNOWN_PID or pid == holder):
        return RUNNING
    return STARTING


def read_display(bus: Bus) -> tuple[dict[str, Any] | None, int | None]:
    """Return the published display state and the pid holding the display lock."""
    return bus.read(keys.DISPLAY_STATE), lock_holder(bus.directory, DISPLAY)


def plugin_errors(record: Any) -> dict[str, dict[str, Any]]:
    """Return the display's failure records per plugin (``plugin_errors`` on the bus).

    Each is ``count``, ``last_error``, ``where`` (the hook: ``display``, ``update``...)
    and ``at`` (epoch seconds). A torn or hand-edited record reads as no failures;
    malformed fields read as None.
    """
    if not isinstance(record, dict):
        return {}
    found: dict[str, dict[str, Any]] = {}
    for plugin_id, entry in record.items():
        if not (isinstance(plugin_id, str) and plugin_id and isinstance(entry, dict)):
            continue
        count = entry.get("count")
        if not isinstance(count, int) or isinstance(count, bool) or count < 1:
            continue
        message = _text(entry.get("last_error"))
        found[plugin_id] = {
            "count": count,
            "last_error": message[:MAX_ERROR_TEXT] if message else None,
            "where": _text(entry.get("where")),
            "at": timestamp(entry.get("at")),
        }
    return found


MAX_LOAD_WARNINGS = 10  # per plugin, as the display keeps them


def load_warnings(record: Any) -> dict[str, list[str]]:
    """Return what each loaded plugin warned about while it loaded (``load_warnings`` of
    ``display_state``): plugin id -> lines. Anything malformed is left out."""
    found: dict[str, list[str]] = {}
    for plugin_id, lines in (record.items() if isinstance(record, dict) else ()):
        if isinstance(plugin_id, str) and plugin_id and isinstance(lines, list):
            kept = [line[:MAX_ERROR_TEXT] for line in lines[:MAX_LOAD_WARNINGS]
                    if isinstance(line, str) and line]
            if kept:
                found[plugin_id] = kept
    return found


def safe_mode(record: Any) -> list[dict[str, Any]]:
    """Return the plugins in safe mode (``plugin_safe_mode`` on the bus), by id.

    Each is ``plugin_id``, ``reason``, ``where`` (the call it died or hung in) and
    ``since``. Unlike the panel fields these hold while the display is down: they apply
    at its next start. A torn or hand-edited record reads as none.
    """
    plugins = record.get("plugins") if isinstance(record, dict) else None
    if not isinstance(plugins, dict):
        return []
    return [
        {"plugin_id": plugin_id, "reason": (_text(entry.get("reason")) or "")[:MAX_ERROR_TEXT],
         "where": _text(entry.get("where")), "since": timestamp(entry.get("since"))}
        for plugin_id, entry in sorted(plugins.items())
        if isinstance(plugin_id, str) and plugin_id and isinstance(entry, dict)
    ]


def display_report(state: Any, holder: int | None, errors: Any = None,
                   safe: Any = None) -> dict[str, Any]:
    """Return the ``display`` block of the status: only what is true now.

    While the service is not running, every field that describes the panel (what it
    shows, power, brightness, frame rate) is None: a stale record is never shown as
    current. ``summary`` says it in words, for the web page and the ``ledpanel`` command.
    ``errors`` is the ``plugin_errors`` record: the plugins that failed in this run;
    ``safe`` the ``plugin_safe_mode`` record: the plugins kept out (``safe_mode``).
    """
    record = state if isinstance(state, dict) else {}
    service = service_state(state, holder)
    live = service == RUNNING
    showing = record.get("showing") if live and record.get("showing") in SHOWING else None
    drawn = live and showing != "off"
    on_demand = record.get("on_demand") if live else None
    report: dict[str, Any] = {
        "service": service,
        "pid": holder or None,
        "showing": showing,
        "power": record.get("power") if live and record.get("power") in ("on", "off") else None,
        "dimmed": record.get("dimmed") is True if live else None,
        "plugin_id": _text(record.get("plugin_id")) if drawn else None,
        "mode": _text(record.get("mode")) if drawn else None,
        "fps": _number(record.get("fps")) if live else None,
        "brightness": _number(record.get("brightness")) if live else None,
        "on_demand": on_demand if isinstance(on_demand, dict) else {"state": "idle"},
        "started_at": timestamp(record.get("started_at")) if live else None,
        "stopped_at": timestamp(record.get("updated_at")) if service == STOPPED else None,
        "loaded_plugins": _list(record.get("loaded_plugins")) if live else None,
        "loading_plugins": _list(record.get("loading_plugins")) if live else None,
        "load_errors": _dict(record.get("load_errors")) if live else None,
        "load_warnings": load_warnings(record.get("load_warnings")) if live else None,
        "config_problem": _text(record.get("config_problem")) if live else None,
        "plugin_errors": plugin_errors(errors) if live else None,
        "safe_mode": safe_mode(safe),
        "notification": shown_notification(record.get("notification"))
        if showing == "notification" else None,
        "sync": sync_block(record.get("sync")) if live else None,
    }
    report["power_cause"] = (record.get("power_cause") if live and record.get("power_cause")
                             in ("hand", "schedule") else None)
    report["summary"] = describe_display(report)
    report["reason"] = reason(record, report)
    return report


SYNC_TEXTS = ("role", "name", "group", "position", "state", "leader", "detail", "wall")
MAX_SYNC_TEXT = 200


def sync_block(record: Any) -> dict[str, Any] | None:
    """Return the ``sync`` block of ``display_state`` (this panel's part in a group of
    panels: ``role``, ``state``, ``leader``, ``detail``...), None when absent or
    malformed; texts bounded, anything else left out."""
    if not isinstance(record, dict) or record.get("role") not in (
            "standalone", "leader", "follower"):
        return None
    block: dict[str, Any] = {key: (text[:MAX_SYNC_TEXT] if (text := _text(record.get(key)))
                                   else None) for key in SYNC_TEXTS}
    block["switched_at"] = timestamp(record.get("switched_at"))
    return block


MAX_NOTIFICATION_TEXT = 120  # characters of a shown notification's text in the status


def shown_notification(record: Any) -> dict[str, Any] | None:
    """Return the ``notification`` of ``display_state`` (``id``, ``text``, ``source``,
    ``priority``: the one on the panel), None when absent or malformed."""
    if not isinstance(record, dict) or not isinstance(record.get("id"), str):
        return None
    text = _text(record.get("text"))
    return {"id": record["id"][:64], "text": text[:MAX_NOTIFICATION_TEXT] if text else None,
            "source": _text(record.get("source")), "priority": _text(record.get("priority"))}


def reason(record: dict[str, Any], report: dict[str, Any]) -> str:
    """Return why the panel shows what it shows: the display's sentence while it runs.

    While the display is not running (or a new one has not said anything yet), the
    sentence says so: nothing that display said before is current.
    """
    service = report.get("service")
    if service == STARTING:
        return "display service starting: nothing is drawn yet"
    if service != RUNNING:
        return f"display service {describe_display(report)}: nothing drives the panel"
    said = _text(record.get("reason"))
    return said[:MAX_REASON] if said else describe_display(report)


def describe_display(report: dict[str, Any]) -> str:
    """Return one line saying what the panel shows (or that nothing drives it)."""
    service = report.get("service")
    if service == STARTING:
        return "starting"
    if service != RUNNING:
        stopped = timestamp(report.get("stopped_at"))
        when = time.strftime(" at %H:%M:%S", time.localtime(stopped)) if stopped else ""
        return f"not running (stopped{when})" if service == STOPPED else "not running"
    showing = report.get("showing")
    notification = report.get("notification")
    if showing == "off":
        by = "turned off by hand" if report.get("power_cause") == "hand" else "power schedule"
        text = f"panel off ({by})"
    elif showing == "notification" and isinstance(notification, dict):
        text = (f"showing a notification from {notification.get('source') or 'somewhere'}: "
                f"{notification.get('text') or ''}")
    elif report.get("plugin_id"):
        text = f"showing {report['plugin_id']} / {report.get('mode') or '-'}"
        text += {"on_demand": " (on-demand)", "live": " (live content)",
                 "full_screen": " (Vegas ticker)",
                 "sync": " (following its leader panel)"}.get(str(showing), "")
    elif showing == "full_screen":
        text = "Vegas ticker (between plugins)"
    elif showing == "wall":
        text = "its part of the leader panel's picture (a wall)"
    else:
        text = "panel blank (no plugin has anything to show)"
    return text + (", dimmed" if report.get("dimmed") else "")


def hardware_report(record: Any) -> dict[str, Any] | None:
    """Return the ``hardware_status`` record with ``summary`` added, None when absent.

    Headless by request (``--headless``, cause ``forced``) is a normal way to run, not a
    failure: ``summary`` says "headless (no panel attached)". Only a refused setting or
    a missing matrix library is a fallback.
    """
    if not isinstance(record, dict):
        return None
    report = dict(record)
    report["summary"] = describe_hardware(record)
    return report


def describe_hardware(record: dict[str, Any]) -> str:
    """Return one line about the panel output."""
    size = record.get("effective_size")
    shown = (f" {size.get('width')}x{size.get('height')}"
             if isinstance(size, dict) and size.get("width") else "")
    cause = record.get("cause")
    if cause == "forced":
        return f"headless{shown} (no panel attached; rendering into memory)"
    if cause in ("settings", "library"):
        why = "panel settings refused" if cause == "settings" else "matrix library unavailable"
        detail = "; ".join(str(record[k]) for k in ("error", "hint") if record.get(k))
        return f"no panel output: {why}{': ' + detail if detail else ''}"
    backend = str(record.get("backend") or "unknown")
    if backend == "emulator":
        return f"emulator{shown} (RGBMatrixEmulator)"
    return f"panel{shown} ({backend})"


def bus_status(cache_dir: Path) -> dict[str, Any]:
    """Return the ``display`` and ``hardware`` blocks read straight from a bus directory."""
    bus = Bus(cache_dir)
    state, holder = read_display(bus)
    return {"display": display_report(state, holder, bus.read(keys.PLUGIN_ERRORS),
                                      bus.read(keys.PLUGIN_SAFE_MODE)),
            "hardware": hardware_report(bus.read(keys.HARDWARE_STATUS))}


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None


def _number(value: Any) -> float | int | None:
    return value if timestamp(value) is not None else None


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}
