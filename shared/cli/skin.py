"""``ledpanel skin check DIR``: a skin's manifest, API version, import and each mode
rendered on a test canvas (``shared.plugin_api.skins.check``).

Each finding is one line on stdout (``warning:`` or ``error:``), then a summary line;
exit status 0 when no finding is an error, 1 otherwise, 2 for bad usage.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from shared.cli.common import CliError
from shared.cli.plugin import quiet_logs


def add_command(commands: Any) -> None:
    """Add ``skin check`` to the ``ledpanel`` command's sub-commands."""
    skin = commands.add_parser("skin", help="check a scoreboard skin")
    sub = skin.add_subparsers(dest="sub", required=True, metavar="COMMAND")
    check = sub.add_parser("check", help="check a skin's manifest and render each mode")
    check.add_argument("dir", nargs="?", default=".", metavar="DIR")
    check.set_defaults(func=cmd_skin_check)


def cmd_skin_check(args: argparse.Namespace) -> int:
    """Check the skin in DIR; exit 1 when anything is an error."""
    from shared.plugin_api.skins.check import check_skin
    from shared.plugin_api.skins.manifest import MANIFEST_FILE

    directory = Path(args.dir).resolve()
    if not (directory / MANIFEST_FILE).is_file():
        raise CliError(f"{args.dir}: no {MANIFEST_FILE} there (not a skin folder)")
    with quiet_logs():
        report = check_skin(directory)
    for severity, message in report.findings:
        print(f"{severity}: {message}")
    summary = (f"{directory.name}: {report.renders} renders, {report.errors} errors, "
               f"{len(report.findings) - report.errors} warnings")
    if report.errors:
        raise CliError(f"check failed: {summary}")
    print(f"check passed: {summary}")
    return 0
