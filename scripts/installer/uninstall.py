"""``scripts/uninstall``: remove what the installer added, keeping the config.

Removed: the units (stopped and disabled first), the sudo rule, the polkit rules, the
sound module blacklist, the ``ledpanel`` link on the PATH, and the install folder (code
and ``.venv``) except its ``config/``. ``--purge`` also removes the config, the bus
``/var/cache/ledpanel`` and the ``ledpanel`` user and group.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from installer.context import Context, StepFailed
from installer.runner import run_steps, step_index
from installer.step import Step
from installer.steps_system import (
    CAPTIVE_DNS_TARGET,
    COMMAND_LINK,
    DEFAULT_PREFIX,
    POLKIT_DIR,
    SOUND_BLACKLIST,
    SUDOERS_TARGET,
    UNIT_DIR,
    prefix_problem,
)
from installer.steps_units import systemctl
from installer.system_info import SERVICE_GROUP, SERVICE_USER, group_id, user_id

SOURCE = Path(__file__).resolve().parents[2]
CACHE_DIR = "/var/cache/ledpanel"
KEEP = ("config",)


class RemoveUnits(Step):
    name = "units"
    title = "stop, disable and remove the ledpanel systemd units"

    def pending(self, ctx: Context) -> list[str]:
        folder = ctx.path(UNIT_DIR)
        return sorted(p.name for pattern in ("ledpanel-*.service", "ledpanel-*.timer")
                      for p in folder.glob(pattern))

    def apply(self, ctx: Context, pending: list[str]) -> None:
        now = ["--now"] if ctx.root == Path("/") else []
        ctx.run(systemctl(ctx, "disable", *now, *pending))
        for name in pending:
            ctx.remove(ctx.path(f"{UNIT_DIR}/{name}"))
        if ctx.root == Path("/"):
            ctx.run(systemctl(ctx, "daemon-reload"))


class RemoveFiles(Step):
    """Remove the files the installer wrote outside the install folder."""

    name = "files"
    title = ("remove the sudo rule, polkit rules, captive-portal DNS setting, sound "
             "blacklist and the PATH link")

    def pending(self, ctx: Context) -> list[str]:
        names = {p.name for p in (SOURCE / "systemd").glob("*.rules")}
        rules = [f"{POLKIT_DIR}/{p.name}" for p in sorted(ctx.path(POLKIT_DIR).glob("*.rules"))
                 if p.name in names or p.name.startswith("ledpanel")]
        found = [path for path in (SUDOERS_TARGET, *rules, SOUND_BLACKLIST, CAPTIVE_DNS_TARGET)
                 if ctx.path(path).exists()]
        link = ctx.path(COMMAND_LINK)
        if link.is_symlink() and str(link.readlink()).startswith(f"{ctx.prefix}/"):
            found.append(COMMAND_LINK)
        return found

    def apply(self, ctx: Context, pending: list[str]) -> None:
        for path in pending:
            ctx.remove(ctx.path(path))


class RemoveCode(Step):
    name = "code"
    title = "remove the install folder (code and .venv); the config stays unless --purge"

    def __init__(self, purge: bool) -> None:
        self.purge = purge

    def pending(self, ctx: Context) -> list[str]:
        top = ctx.install_dir
        if not top.is_dir():
            return []
        found = sorted(p.name for p in top.iterdir() if self.purge or p.name not in KEEP)
        if set(found) - set(KEEP) and not (top / "scripts" / "installer").is_dir():
            raise StepFailed(f"{ctx.prefix} does not hold a ledpanel install; nothing was "
                             "removed from it (check --prefix)")
        return found

    def apply(self, ctx: Context, pending: list[str]) -> None:
        for name in pending:
            ctx.remove(ctx.install_dir / name)
        if self.purge:
            ctx.remove(ctx.install_dir)
        else:
            ctx.note(f"kept {ctx.prefix}/config (remove it with --purge)")


class Purge(Step):
    name = "purge"
    title = f"remove the bus ({CACHE_DIR}) and the {SERVICE_USER} user and group"

    def pending(self, ctx: Context) -> list[str]:
        left = [CACHE_DIR] if ctx.path(CACHE_DIR).exists() else []
        if user_id(ctx, SERVICE_USER) is not None:
            left.append(f"user {SERVICE_USER}")
        if group_id(ctx, SERVICE_GROUP) is not None:
            left.append(f"group {SERVICE_GROUP}")
        return left

    def apply(self, ctx: Context, pending: list[str]) -> None:
        root = [] if ctx.root == Path("/") else ["--root", str(ctx.root)]
        if CACHE_DIR in pending:
            ctx.remove(ctx.path(CACHE_DIR))
        if f"user {SERVICE_USER}" in pending:
            ctx.run(["userdel", *root, SERVICE_USER])
        # userdel may have removed the group with the user (USERGROUPS_ENAB): look again.
        group_left = (f"group {SERVICE_GROUP}" in pending if ctx.dry_run
                      else group_id(ctx, SERVICE_GROUP) is not None)
        if group_left:
            ctx.run(["groupdel", *root, SERVICE_GROUP])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="scripts/uninstall",
                                     description="Remove ledpanel; the config stays unless "
                                                 "--purge.")
    parser.add_argument("--prefix", default=DEFAULT_PREFIX)
    parser.add_argument("--purge", action="store_true",
                        help="also remove the config, the bus and the ledpanel user and group")
    parser.add_argument("--dry-run", action="store_true", help="print, change nothing")
    parser.add_argument("--from", dest="start", metavar="STEP")
    parser.add_argument("--root", default="/", help=argparse.SUPPRESS)
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    problem = prefix_problem(args.prefix)
    if problem:
        parser.error(problem)
    ctx = Context(source=SOURCE, root=Path(args.root), prefix=args.prefix.rstrip("/"),
                  dry_run=args.dry_run)
    if os.geteuid() != 0 and not ctx.dry_run and args.root == "/":
        print("scripts/uninstall: run it as root: sudo scripts/uninstall", file=sys.stderr)
        return 2
    steps: list[Step] = [RemoveUnits(), RemoveFiles(), RemoveCode(args.purge)]
    if args.purge:
        steps.append(Purge())
    ctx.say(f"ledpanel uninstaller: {ctx.prefix}" + (" (dry run)" if ctx.dry_run else ""))
    retry = [str(SOURCE / "scripts" / "uninstall"), *(["--purge"] if args.purge else []),
             *(["--prefix", args.prefix] if args.prefix != DEFAULT_PREFIX else []),
             *(["--root", args.root] if args.root != "/" else [])]
    start = step_index(steps, args.start) if args.start else 0
    if not run_steps(ctx, steps, start=start or 0, retry=retry):
        return 1
    ctx.say("Nothing to do: ledpanel was not installed." if not ctx.changed and not ctx.dry_run
            else "Uninstalled." if not ctx.dry_run else "Dry run finished: nothing was changed.")
    return 0
