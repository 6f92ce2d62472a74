"""``ledpanel config validate``: config.json against the rules every save runs.

The rules are ``shared.config.check.config_problems``, the code the raw config editor
and the display daemon run, applied to the whole file: each problem is one line naming
its key, and the exit status is 1 when there is any.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from shared.cli.common import CliError
from shared.paths import resolve_paths

PERMISSION_HINT = " (it belongs to the service user: try sudo)"


def cmd_config_validate(args: argparse.Namespace) -> int:
    from shared.config.brightness import brightness_keys
    from shared.config.check import config_problems, problem_lines
    from shared.config.reserved import plugin_sections, suggestion
    from shared.config.template import load_template
    from shared.plugin_system.discovery import plugins_dir_for
    from shared.plugin_system.schema import schema_lookup

    paths = resolve_paths(config_dir=args.config_dir, plugins_dir=args.plugins_dir)
    if not paths.config_file.is_file():
        raise CliError(f"{paths.config_file} does not exist (a daemon creates it on first start)")
    problems: list[str] = []
    main = _read_object(paths.config_file, problems)
    secrets = _read_object(paths.secrets_file, problems) if paths.secrets_file.is_file() else {}
    if main is None or secrets is None:
        return _report(problems, paths.config_file)
    installed, schema_for = schema_lookup(paths, plugins_dir_for(paths, main))
    for plugin_id in sorted(plugin_sections(main)):
        if plugin_id not in installed:
            close = suggestion(plugin_id, installed)
            print(f"note: {plugin_id}: no installed plugin schema; section not checked"
                  + (f" (did you mean {close!r}?)" if close else ""), file=sys.stderr)
    warnings: list[dict[str, str]] = []
    errors = config_problems(main, schema_for=schema_for, plugin_ids=installed, secrets=secrets,
                             template=load_template(), warnings=warnings)
    problems += [f"{paths.config_file.name}: {line}" for line in problem_lines(errors)]
    for warning in warnings:
        print(f"warning: {warning['setting']}: {warning['message']}", file=sys.stderr)
    top, hardware = brightness_keys(main)
    if isinstance(top, int | float) and isinstance(hardware, int | float) and top != hardware:
        print(f"warning: brightness ({top}) and display.hardware.brightness ({hardware}) "
              "differ; the panel uses brightness, and the next save sets both", file=sys.stderr)
    checked = len(installed & set(plugin_sections(main)))
    return _report(problems, paths.config_file, checked)


def _read_object(path: Path, problems: list[str]) -> dict[str, Any] | None:
    from shared.errors import ConfigError
    from shared.files.jsonfile import read_json_file

    try:
        data = read_json_file(path, "config file")
    except ConfigError as err:
        details = err.details if isinstance(err.details, dict) else {}
        if "line" in details:
            reason = err.message.split(": ", 1)[-1].rsplit(" at line", 1)[0]
            problems.append(f"{path.name}: line {details['line']}, column {details['column']}: "
                            f"{reason}")
        else:
            hint = PERMISSION_HINT if isinstance(err.__cause__, PermissionError) else ""
            problems.append(f"{path.name}: {err.message}{hint}")
        return None
    if not isinstance(data, dict):
        problems.append(f"{path.name}: must hold a JSON object, not {type(data).__name__}")
        return None
    return data


def _report(problems: list[str], config_file: Path, checked: int = 0) -> int:
    summary = f"{config_file}: valid ({checked} plugin section(s) checked against their schemas)"
    print("\n".join(problems) if problems else summary)
    return 1 if problems else 0
