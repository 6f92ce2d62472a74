"""The ``ledpanel`` command: status, config validation and on-demand from a shell.

It talks to the web daemon's REST API; ``status`` reads the bus files when the web is
unreachable. User errors print one line to stderr and exit 1, never a traceback.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from shared.display_status import DEFAULT_STALE_AFTER, service_state, timestamp
from shared.paths import DEVICE_CACHE_DIR, Paths, resolve_paths
from shared.version import CORE_VERSION

DEFAULT_URL = "http://127.0.0.1:5000"
TIMEOUT = (2.0, 10.0)  # seconds to connect, seconds to read (on-demand waits for the ack)
PERMISSION_HINT = " (it belongs to the service user: try sudo)"


class CliError(Exception):
    """A problem to report in one line, without a traceback."""


class Unreachable(CliError):
    """The web daemon did not answer at all."""


def _api(args: argparse.Namespace, method: str, path: str, body: Any = None) -> dict[str, Any]:
    """Call ``/api/v3<path>`` and return the envelope; raise CliError on any failure."""
    import requests

    url = f"{args.url.rstrip('/')}/api/v3{path}"
    try:
        response = requests.request(method, url, json=body, timeout=TIMEOUT)
    except requests.RequestException as err:
        raise Unreachable(f"cannot reach the web service at {args.url}: {_reason(err)}") from err
    envelope = _json_or_none(response)
    if not isinstance(envelope, dict):
        raise CliError(f"{method} {url} answered HTTP {response.status_code} without JSON")
    if response.status_code >= 400 or envelope.get("status") == "error":
        code = f" [{envelope['error_code']}]" if envelope.get("error_code") else ""
        message = envelope.get("message") or f"HTTP {response.status_code}"
        raise CliError(f"{message}{code}")
    return envelope


def _json_or_none(response: Any) -> Any:
    with contextlib.suppress(ValueError):
        return response.json()
    return None


def _reason(err: Exception) -> str:
    markers = ("Connection refused", "timed out", "Name or service not known")
    return next((m.lower() for m in markers if m in str(err)), type(err).__name__)


def cmd_status(args: argparse.Namespace) -> int:
    try:
        envelope = _api(args, "GET", "/system/status")
    except Unreachable as err:
        return _status_from_bus(args, str(err))
    if args.json:
        print(json.dumps(envelope, indent=2))
        return 0
    data = envelope.get("data") or {}
    display = data.get("display") or {}
    web_uptime = (data.get("web") or {}).get("uptime_seconds")
    print(f"ledpanel {data.get('version', '?')}  (web service up {_duration(web_uptime)})")
    _print_summary(display.get("service"), display, data.get("hardware"),
                   heartbeat_at=display.get("heartbeat_at"))
    host = data.get("host") or {}
    figures = [
        "load " + " ".join(str(v) for v in host.get("load") or ["?"]),
        f"memory {(host.get('memory') or {}).get('used_percent', '?')}% used",
    ]
    if host.get("cpu_temperature_c") is not None:
        figures.append(f"CPU {host['cpu_temperature_c']} °C")
    _row("host", ", ".join(figures))
    return 0


def _status_from_bus(args: argparse.Namespace, reason: str) -> int:
    from shared import bus as keys
    from shared.bus import Bus

    cache_dir = _bus_dir(args.cache_dir)
    state, hardware = (Bus(cache_dir).read(k) for k in (keys.DISPLAY_STATE, keys.HARDWARE_STATUS))
    if args.json:
        raw = {"display_state": state, "hardware_status": hardware}
        print(json.dumps({"source": "bus", "cache_dir": str(cache_dir), **raw}, indent=2))
        return 0
    print(f"{reason}; reading the bus in {cache_dir} directly", file=sys.stderr)
    print(f"ledpanel {CORE_VERSION} (installed code; web service unreachable)")
    display = state if isinstance(state, dict) else {}
    _print_summary(service_state(state, time.time(), DEFAULT_STALE_AFTER), display,
                   hardware if isinstance(hardware, dict) else None,
                   heartbeat_at=display.get("updated_at"))
    return 0


def _bus_dir(flag: str | None) -> Path:
    """Return the bus directory: flag or environment, else the device's, else the checkout's."""
    if flag or os.environ.get("LEDPANEL_CACHE_DIR") or os.environ.get("CACHE_DIRECTORY"):
        return resolve_paths(cache_dir=flag).cache_dir
    # Over SSH on a device nothing sets the variable the units set: look where they point.
    return DEVICE_CACHE_DIR if DEVICE_CACHE_DIR.is_dir() else resolve_paths().cache_dir


def _print_summary(service: Any, display: dict[str, Any], hardware: dict[str, Any] | None,
                   *, heartbeat_at: Any) -> None:
    service_text = str(service or "unknown").replace("_", " ")
    beat = timestamp(heartbeat_at)
    if beat is not None:
        service_text += f" (heartbeat {time.time() - beat:.1f} s ago)"
    started = timestamp(display.get("started_at"))
    if service == "running" and started is not None:
        service_text += f", up {_duration(time.time() - started)}"
    _row("display service", service_text)
    if display.get("plugin_id"):
        _row("showing", f"{display['plugin_id']} / {display.get('mode') or '-'}")
    on_demand = display.get("on_demand")
    on_demand = on_demand if isinstance(on_demand, dict) and on_demand else {"state": "idle"}
    text = str(on_demand.get("state", "idle"))
    if on_demand.get("plugin_id") and text == "active":
        text += f": {on_demand['plugin_id']} / {on_demand.get('mode') or '-'}"
        text += " (pinned)" if on_demand.get("pinned") else ""
    if on_demand.get("error"):
        text += f": {on_demand['error']}"
    _row("on-demand", text)
    if display.get("fps") is not None or display.get("brightness") is not None:
        _row("brightness / fps", f"{display.get('brightness', '-')} / {display.get('fps', '-')}")
    if not hardware:
        _row("hardware", "unknown (no hardware status published)")
    elif hardware.get("ok"):
        _row("hardware", f"ok ({hardware.get('backend') or 'unknown backend'})")
    else:
        parts = [f"fallback ({hardware.get('backend') or '?'}), cause: {hardware.get('cause')}"]
        parts += [str(hardware[k]) for k in ("error", "hint") if hardware.get(k)]
        _row("hardware", "; ".join(parts))


def _row(label: str, value: str) -> None:
    print(f"  {label + ':':<18} {value}")


def _duration(seconds: Any) -> str:
    if not isinstance(seconds, int | float):
        return "?"
    minutes, secs = divmod(int(seconds), 60)
    hours, minutes = divmod(minutes, 60)
    days, hours = divmod(hours, 24)
    return f"{days}d {hours}h {minutes:02d}m" if days else (
        f"{hours}h {minutes:02d}m" if hours else f"{minutes}m {secs:02d}s")


def cmd_config_validate(args: argparse.Namespace) -> int:
    paths = resolve_paths(config_dir=args.config_dir, plugins_dir=args.plugins_dir)
    if not paths.config_file.is_file():
        raise CliError(f"{paths.config_file} does not exist (a daemon creates it on first start)")
    problems: list[str] = []
    main = _read_object(paths.config_file, problems)
    secrets = _read_object(paths.secrets_file, problems) if paths.secrets_file.is_file() else {}
    if main is None or secrets is None:
        return _report(problems, paths.config_file)
    checked = _check_plugins(main, secrets or {}, paths, problems)
    return _report(problems, paths.config_file, checked)


def _read_object(path: Path, problems: list[str]) -> dict[str, Any] | None:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as err:
        problems.append(f"{path.name}: line {err.lineno}, column {err.colno}: {err.msg}")
        return None
    except (OSError, UnicodeDecodeError) as err:
        hint = PERMISSION_HINT if isinstance(err, PermissionError) else ""
        problems.append(f"{path.name}: cannot be read: {err}{hint}")
        return None
    if not isinstance(data, dict):
        problems.append(f"{path.name}: must hold a JSON object, not {type(data).__name__}")
        return None
    return data


def _check_plugins(main: dict[str, Any], secrets: dict[str, Any], paths: Paths,
                   problems: list[str]) -> int:
    """Validate each plugin section (secrets merged in) against its schema; return the count.

    The same routine as a web save: ``merge_secrets`` and
    ``prepare_and_validate_sections``, one plugin at a time so each is reported.
    """
    from shared.config.reserved import plugin_sections
    from shared.config.save_rules import prepare_and_validate_sections
    from shared.config.secrets import merge_secrets
    from shared.errors import LedpanelError, ValidationError
    from shared.plugin_system.discovery import plugins_dir_for
    from shared.plugin_system.schema import load_schema

    section = main.get("plugin_system")
    configured = section.get("plugins_directory") if isinstance(section, dict) else None
    if section is not None and not isinstance(section, dict):
        problems.append("config.json: plugin_system: must be an object")
    elif configured is not None and not isinstance(configured, str):
        problems.append("config.json: plugin_system.plugins_directory: must be a string")
    plugins_dir = plugins_dir_for(paths, main)
    merged = merge_secrets(main, secrets)
    checked = 0
    for plugin_id in sorted(plugin_sections(main)):
        try:
            schema = load_schema(plugin_id, paths, plugins_dir)
            if schema is None:
                print(f"note: {plugin_id}: no installed plugin schema; section not checked",
                      file=sys.stderr)
                continue
            checked += 1
            prepare_and_validate_sections({plugin_id: merged[plugin_id]}, {},
                                          {plugin_id: schema}.__getitem__)
        except ValidationError as err:
            errors = (err.details or {}).get("errors") or {plugin_id: []}
            lines = (f"config.json: {plugin_id}{'.' if e['field'] else ''}{e['field']}: "
                     f"{e['message']}" for e in errors.get(plugin_id, []))
            problems.extend(dict.fromkeys(lines) or [f"{plugin_id}: {err.message}"])
        except LedpanelError as err:
            problems.append(f"{plugin_id}: {err.message}")
    return checked


def _report(problems: list[str], config_file: Path, checked: int = 0) -> int:
    summary = f"{config_file}: valid ({checked} plugin section(s) checked against their schemas)"
    print("\n".join(problems) if problems else summary)
    return 1 if problems else 0


def cmd_on_demand_start(args: argparse.Namespace) -> int:
    body = {"plugin_id": args.plugin, "mode": args.mode, "duration": args.duration,
            "pinned": args.pinned}
    return _print_state(_api(args, "POST", "/display/on-demand/start", body))


def cmd_on_demand_stop(args: argparse.Namespace) -> int:
    return _print_state(_api(args, "POST", "/display/on-demand/stop", {}))


def _print_state(envelope: dict[str, Any]) -> int:
    state = (envelope.get("data") or {}).get("state", "unknown")
    print(f"{state} ({envelope['message']})" if envelope.get("message") else state)
    return 0


def _parser() -> argparse.ArgumentParser:
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--url", default=os.environ.get("LEDPANEL_WEB_URL", DEFAULT_URL),
                        help="web service base URL (default: $LEDPANEL_WEB_URL or %(default)s)")
    parser = argparse.ArgumentParser(prog="ledpanel", description="Control a ledpanel device.")
    parser.add_argument("--version", action="version", version=f"ledpanel {CORE_VERSION}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    status = commands.add_parser("status", parents=[common], help="show what the panel does")
    status.add_argument("--json", action="store_true", help="print the raw answer")
    status.add_argument("--cache-dir", help="bus directory read when the web is unreachable")
    status.set_defaults(func=cmd_status)
    config = commands.add_parser("config", help="work with config/config.json")
    config_commands = config.add_subparsers(dest="sub", required=True, metavar="COMMAND")
    validate = config_commands.add_parser("validate", help="check config.json and plugins")
    validate.add_argument("--config-dir", help="directory holding config.json")
    validate.add_argument("--plugins-dir", help="directory plugins are installed in")
    validate.set_defaults(func=cmd_config_validate)
    on_demand = commands.add_parser("on-demand", help="show one plugin now")
    od_commands = on_demand.add_subparsers(dest="sub", required=True, metavar="COMMAND")
    start = od_commands.add_parser("start", parents=[common], help="start on-demand")
    start.add_argument("plugin", help="plugin id")
    start.add_argument("--mode", help="display mode (default: the plugin's first)")
    start.add_argument("--duration", type=float, help="seconds to show it")
    start.add_argument("--pinned", action="store_true", help="keep it until stopped")
    start.set_defaults(func=cmd_on_demand_start)
    od_commands.add_parser("stop", parents=[common], help="stop on-demand").set_defaults(
        func=cmd_on_demand_stop)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``ledpanel`` command line; return the exit status."""
    try:
        args = _parser().parse_args(argv)
        return int(args.func(args))
    except SystemExit as exit_:  # argparse: --help, --version, usage errors
        return exit_.code if isinstance(exit_.code, int) else 1
    except CliError as err:
        print(f"ledpanel: {err}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
