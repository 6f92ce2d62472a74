"""``ledpanel status``: what the panel shows, from the web service or, when it is down,
from the bus files, in one shape either way.

The JSON answer (``--json``) is the ``data`` of ``GET /api/v3/system/status`` with
``source`` (``web`` or ``bus``) and ``url`` added: ``version``, ``display``,
``hardware``, ``config``, ``web`` and ``host``. With the web down, ``web.service`` is
``not_running`` and ``web.error`` says why; the other blocks are built from the bus by
the same code the web runs (``shared.bus.display_status``, ``shared.config.health``).
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

from shared.bus.display_status import RUNNING, bus_status, timestamp
from shared.cli.common import Unreachable, api, bus_dir, web_url
from shared.paths import resolve_paths
from shared.version import CORE_VERSION

EXIT_DOWN = 3


def cmd_status(args: argparse.Namespace) -> int:
    url = web_url(args)
    try:
        report = {"source": "web", "url": url, **(api(url, "GET", "/system/status")
                                                 .get("data") or {})}
    except Unreachable as err:
        report = bus_report(args, url, str(err))
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        print_report(report)
    web_up = (report.get("web") or {}).get("service") == RUNNING
    return 0 if web_up and (report.get("display") or {}).get("service") == RUNNING else EXIT_DOWN


def bus_report(args: argparse.Namespace, url: str, reason: str) -> dict[str, Any]:
    """Return the status report built from the bus and config files on this machine."""
    from shared.config.health import config_report
    from shared.config.store import ConfigStore
    from shared.host_metrics import host_metrics

    cache_dir = bus_dir(args.cache_dir)
    paths = resolve_paths(config_dir=args.config_dir, cache_dir=cache_dir)
    blocks = bus_status(cache_dir)
    return {"source": "bus", "url": url, "cache_dir": str(cache_dir), "version": CORE_VERSION,
            **blocks, "config": config_report(ConfigStore(paths), blocks["display"]),
            "web": {"service": "not_running", "error": reason}, "host": host_metrics()}


def print_report(report: dict[str, Any]) -> None:
    """Print the report for a person."""
    display = report.get("display") or {}
    _print_web(report)
    _print_display(display)
    _print_safe_mode(display.get("safe_mode"))
    _print_hardware(report.get("hardware"))
    _print_config(report.get("config") or {})
    _print_host(report.get("host") or {})


def _print_web(report: dict[str, Any]) -> None:
    """Print the heading line: the version and whether the web service answered."""
    web = report.get("web") or {}
    if web.get("service") == RUNNING:
        print(f"ledpanel {report.get('version', '?')}  web service at {report['url']}: running"
              f" (up {_duration(web.get('uptime_seconds'))})")
    else:
        print(f"ledpanel {report.get('version', '?')} (installed code)  web service at "
              f"{report['url']}: not running ({web.get('error') or 'no answer'}); read the "
              f"bus in {report.get('cache_dir')}")


def _print_display(display: dict[str, Any]) -> None:
    """Print the display service and the panel; a running one also what it shows."""
    running = display.get("service") == RUNNING
    service = str(display.get("service") or "unknown").replace("_", " ")
    if running:
        started = timestamp(display.get("started_at"))
        service += f" (pid {display.get('pid')}" + (
            f", up {_duration(time.time() - started)})" if started is not None else ")")
    _row("display service", service)
    _row("panel", str(display.get("summary") or "unknown"))
    if isinstance(display.get("reason"), str):
        _row("why", display["reason"][:300])  # shared.bus.display_status.reason
    if running:
        _row("on-demand", _on_demand(display.get("on_demand")))
        _row("brightness / fps", f"{_shown(display.get('brightness'))} / "
                                 f"{_shown(display.get('fps'))}")
        _plugin_errors(display.get("plugin_errors"))


def _print_safe_mode(entries: Any) -> None:
    """Print one line per plugin held back by safe mode, with how to release it."""
    for index, entry in enumerate(entries or []):
        if isinstance(entry, dict):
            _row("safe mode" if index == 0 else "",
                 f"{entry.get('plugin_id')}: not loaded: {entry.get('reason')} "
                 "(release: POST /api/v3/plugins/safe-mode/release)")


def _print_hardware(hardware: Any) -> None:
    """Print the hardware summary and whether saved panel settings wait for a restart."""
    _row("hardware", str(hardware.get("summary")) if isinstance(hardware, dict)
         else "unknown (the display service has not published its hardware status)")
    privileges = hardware.get("privileges") if isinstance(hardware, dict) else None
    if isinstance(privileges, dict) and isinstance(privileges.get("summary"), str):
        _row("", privileges["summary"][:300])  # whom plugins run as (display_service)
    if isinstance(hardware, dict) and hardware.get("restart_required"):
        _row("", "saved panel settings differ from the running ones: restart the display "
                 "service (" + ", ".join(hardware.get("restart_settings") or []) + ")")


def _print_config(config: dict[str, Any]) -> None:
    problems = config.get("problems") or []
    _row("config", "ok" if not problems else f"{len(problems)} problem(s)")
    for problem in problems:
        _row("", str(problem.get("message")))


def _print_host(host: dict[str, Any]) -> None:
    figures = ["load " + " ".join(str(v) for v in host.get("load") or ["?"]),
               f"memory {(host.get('memory') or {}).get('used_percent', '?')}% used"]
    if host.get("cpu_temperature_c") is not None:
        figures.append(f"CPU {host['cpu_temperature_c']} °C")
    _row("host", ", ".join(figures))


def _plugin_errors(errors: Any) -> None:
    """Print one line per plugin that failed since the display started."""
    if not isinstance(errors, dict) or not errors:
        return
    for index, (plugin_id, record) in enumerate(sorted(errors.items())):
        record = record if isinstance(record, dict) else {}
        where = f" in {record['where']}()" if record.get("where") else ""
        _row("plugin errors" if index == 0 else "",
             f"{plugin_id}: {record.get('count', '?')} failure(s), last{where}: "
             f"{record.get('last_error') or 'unknown'}")


def _on_demand(on_demand: Any) -> str:
    block = on_demand if isinstance(on_demand, dict) and on_demand else {"state": "idle"}
    text = str(block.get("state", "idle"))
    if block.get("plugin_id") and text == "active":
        text += f": {block['plugin_id']} / {block.get('mode') or '-'}"
        text += " (pinned)" if block.get("pinned") else ""
    if block.get("error"):
        text += f": {block['error']}"
    return text


def _shown(value: Any) -> str:
    return "-" if value is None else str(value)


def _row(label: str, value: str) -> None:
    print(f"  {label + ':' if label else '':<18} {value}")


def _duration(seconds: Any) -> str:
    if not isinstance(seconds, int | float):
        return "?"
    minutes, secs = divmod(int(seconds), 60)
    hours, minutes = divmod(minutes, 60)
    days, hours = divmod(hours, 24)
    return f"{days}d {hours}h {minutes:02d}m" if days else (
        f"{hours}h {minutes:02d}m" if hours else f"{minutes}m {secs:02d}s")
