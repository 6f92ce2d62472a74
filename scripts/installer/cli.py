"""``scripts/install``: the command line, the list of steps, and what to do next."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from installer.context import Context
from installer.runner import run_steps, step_index
from installer.step import Step
from installer.steps_matrix import MatrixBinding
from installer.steps_python import Code, Permissions, Venv
from installer.steps_system import (
    DEFAULT_PREFIX,
    Account,
    CaptiveDns,
    CommandLink,
    Packages,
    PolkitRules,
    SoundBlacklist,
    SudoRule,
    prefix_problem,
    sound_module_loaded,
)
from installer.steps_units import Units
from installer.system_info import host_address, web_port

SOURCE = Path(__file__).resolve().parents[2]
MATRIX_SOURCE_ENV = "LEDPANEL_MATRIX_SOURCE"


def install_steps() -> list[Step]:
    """Every step, in the order they run (the units last: they start the daemons)."""
    return [Packages(), Account(), Code(), Permissions(), Venv(), MatrixBinding(),
            SoundBlacklist(), SudoRule(), PolkitRules(), CaptiveDns(), CommandLink(), Units()]


def parse_args(argv: list[str], steps: list[Step]) -> argparse.Namespace:
    names = [step.name for step in steps]
    parser = argparse.ArgumentParser(
        prog="scripts/install",
        description="Install ledpanel on Raspberry Pi OS (run as root). Safe to run again: "
                    "a step with nothing to do says so.",
        epilog="steps, in order: " + ", ".join(names))
    parser.add_argument("--prefix", default=DEFAULT_PREFIX,
                        help=f"install folder (default {DEFAULT_PREFIX})")
    parser.add_argument("--dry-run", action="store_true",
                        help="print every step and what it would do; change nothing")
    parser.add_argument("--from", dest="start", choices=names, metavar="STEP",
                        help="start at this step (after a failure: the step that failed)")
    parser.add_argument("--matrix-source", default=os.environ.get(MATRIX_SOURCE_ENV),
                        metavar="GIT_URL",
                        help="where to clone rpi-rgb-led-matrix from (default: upstream; "
                             f"also {MATRIX_SOURCE_ENV})")
    parser.add_argument("--root", default="/", help=argparse.SUPPRESS)  # tests, images
    args = parser.parse_args(argv)
    problem = prefix_problem(args.prefix)
    if problem:
        parser.error(problem)
    return args


def make_context(args: argparse.Namespace) -> Context:
    ctx = Context(source=SOURCE, root=Path(args.root), prefix=args.prefix.rstrip("/") or "/",
                  dry_run=args.dry_run)
    if args.matrix_source:
        ctx.matrix_source = args.matrix_source
    return ctx


def retry_command(args: argparse.Namespace) -> list[str]:
    command = [str(SOURCE / "scripts" / "install")]
    if args.prefix != DEFAULT_PREFIX:
        command += ["--prefix", args.prefix]
    if args.matrix_source:
        command += ["--matrix-source", args.matrix_source]
    if args.root != "/":
        command += ["--root", args.root]
    return command


def main(argv: list[str] | None = None) -> int:
    steps = install_steps()
    args = parse_args(sys.argv[1:] if argv is None else argv, steps)
    ctx = make_context(args)
    if os.geteuid() != 0 and not ctx.dry_run and args.root == "/":
        print("scripts/install: run it as root: sudo scripts/install", file=sys.stderr)
        return 2
    os.umask(0o022)
    mode = " (dry run: nothing is changed)" if ctx.dry_run else ""
    ctx.say(f"ledpanel installer: {ctx.prefix} from {ctx.source}{mode}")
    start = step_index(steps, args.start) if args.start else 0
    if not run_steps(ctx, steps, start=start or 0, retry=retry_command(args)):
        return 1
    finish(ctx)
    return 0


def finish(ctx: Context) -> None:
    if ctx.dry_run:
        ctx.say("Dry run finished: nothing was changed.")
    elif not ctx.changed:
        ctx.say("Nothing to do: everything was already installed.")
    else:
        ctx.say("Installed.")
    url = f"http://{host_address(ctx)}:{web_port(ctx)}/"
    ctx.say(f"The web UI: {url}")
    ctx.say("Next:")
    ctx.say(f"  - open {url} on a phone or computer on the same network;")
    ctx.say("  - Settings > Display: set rows, cols, chain, hardware mapping and panel type "
            "to match your panels;")
    if sound_module_loaded(ctx):
        ctx.say("  - reboot once (sudo reboot): the sound module is loaded until then and "
                "keeps the panel dark;")
    ctx.say("  - logs: journalctl -u ledpanel-display -u ledpanel-web -f; "
            "status: ledpanel status;")
    ctx.say(f"  - remove it again: sudo {ctx.prefix}/scripts/uninstall (keeps the config).")
