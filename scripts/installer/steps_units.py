"""Install and enable every ``systemd/ledpanel-*.service`` and ``.timer`` shipped.

The units are found by name, so a unit added to ``systemd/`` is installed without the
installer knowing it. A unit with an ``[Install]`` section is enabled (and started);
one without (run by a timer or by another unit) is only installed.
"""

from __future__ import annotations

from pathlib import Path

from installer.context import Context
from installer.step import Step
from installer.steps_system import UNIT_DIR, installed_text


def shipped_units(ctx: Context) -> list[Path]:
    folder = ctx.source / "systemd"
    return sorted([*folder.glob("ledpanel-*.service"), *folder.glob("ledpanel-*.timer")])


def wants_enabling(unit: Path) -> bool:
    return any(line.strip() == "[Install]"
               for line in unit.read_text(encoding="utf-8").splitlines())


def systemctl(ctx: Context, *args: str) -> list[str]:
    """``systemctl`` on the target: ``--root`` when it is not this system."""
    root = [] if ctx.root == Path("/") else [f"--root={ctx.root}"]
    return ["systemctl", *root, *args]


class Units(Step):
    name = "units"
    title = "install and enable the systemd units (systemd/ledpanel-*.service, *.timer)"

    def pending(self, ctx: Context) -> list[str]:
        left = []
        for unit in shipped_units(ctx):
            current = ctx.read_text(ctx.path(f"{UNIT_DIR}/{unit.name}"))
            if current != installed_text(ctx, unit):
                left.append(f"install {unit.name}")
            if wants_enabling(unit) and not self.enabled(ctx, unit.name):
                left.append(f"enable {unit.name}")
        return left

    def enabled(self, ctx: Context, name: str) -> bool:
        done = ctx.query(systemctl(ctx, "is-enabled", name))
        return done.returncode == 0 and done.stdout.strip() == "enabled"

    def apply(self, ctx: Context, pending: list[str]) -> None:
        changed = [item.split(" ", 1)[1] for item in pending if item.startswith("install ")]
        for name in changed:
            unit = ctx.source / "systemd" / name
            ctx.write_file(ctx.path(f"{UNIT_DIR}/{name}"), installed_text(ctx, unit), 0o644)
        if changed and ctx.root == Path("/"):
            ctx.run(systemctl(ctx, "daemon-reload"))
        to_enable = [item.split(" ", 1)[1] for item in pending if item.startswith("enable ")]
        if to_enable:
            now = ["--now"] if ctx.root == Path("/") else []
            ctx.run(systemctl(ctx, "enable", *now, *to_enable))
        # A running service whose unit changed picks the change up now.
        restart = [name for name in changed if name.endswith(".service")
                   and name not in to_enable and wants_enabling(ctx.source / "systemd" / name)]
        if restart and ctx.root == Path("/"):
            ctx.run(systemctl(ctx, "try-restart", *restart))
