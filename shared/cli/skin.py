"""``ledpanel skin check DIR``: a skin's manifest, API version, import and each mode
rendered on a test canvas (``shared.plugin_api.skins.check``).

The skin runs in a process of its own, stopped after ``--deadline`` seconds (a skin
hanging in its import or a render). Each finding is one line on stdout (``warning:`` or
``error:``), then a summary line; exit status 0 when no finding is an error, 1
otherwise, 2 for bad usage.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from shared.cli.common import CliError
from shared.paths import ROOT

DEADLINE = 60.0


def add_command(commands: Any) -> None:
    """Add ``skin check`` to the ``ledpanel`` command's sub-commands."""
    skin = commands.add_parser("skin", help="check a scoreboard skin")
    sub = skin.add_subparsers(dest="sub", required=True, metavar="COMMAND")
    check = sub.add_parser("check", help="check a skin's manifest and render each mode")
    check.add_argument("dir", nargs="?", default=".", metavar="DIR")
    check.add_argument("--deadline", type=_seconds, default=DEADLINE, metavar="SECONDS",
                       help=f"stop a skin that takes longer (default {DEADLINE:.0f})")
    check.set_defaults(func=cmd_skin_check)


def cmd_skin_check(args: argparse.Namespace) -> int:
    """Check the skin in DIR; exit 1 when anything is an error."""
    from shared.plugin_api.skins.manifest import MANIFEST_FILE

    directory = Path(args.dir).resolve()
    if not (directory / MANIFEST_FILE).is_file():
        raise CliError(f"{args.dir}: no {MANIFEST_FILE} there (not a skin folder)")
    findings, renders = _run_check(directory, args.deadline)
    for severity, message in findings:
        print(f"{severity}: {message}")
    errors = sum(1 for severity, _ in findings if severity == "error")
    summary = (f"{directory.name}: {renders} renders, {errors} errors, "
               f"{len(findings) - errors} warnings")
    if errors:
        raise CliError(f"check failed: {summary}")
    print(f"check passed: {summary}")
    return 0


def _run_check(directory: Path, deadline: float) -> tuple[list[tuple[str, str]], int]:
    """The check's findings and renders, from a process of its own stopped at ``deadline``."""
    command = [sys.executable, "-m", "shared.plugin_api.skins.check", str(directory)]
    try:
        done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True,
                              errors="replace", timeout=deadline, check=False)
    except subprocess.TimeoutExpired:
        return [("error", f"the skin did not finish within {deadline:g} s "
                          "(a hung import or render)")], 0
    lines = done.stdout.strip().splitlines()
    try:
        report = json.loads(lines[-1])
        findings = [(str(s), str(m)) for s, m in report["findings"]]
        return findings, int(report["renders"])
    except (IndexError, ValueError, KeyError, TypeError):
        tail = (done.stderr.strip().splitlines() or ["no output"])[-1]
        return [("error", f"the check's process ended without a report "
                          f"(exit status {done.returncode}): {tail[:200]}")], 0


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = 0.0
    if not 0 < value <= 3600:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds up to 3600")
    return value
