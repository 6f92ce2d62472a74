"""Steps that change the operating system: packages, the service account, boot settings,
the sudo and polkit rules, the systemd units and the ``ledpanel`` command on the PATH."""

from __future__ import annotations

import os
from pathlib import Path

from installer.context import Context, StepFailed
from installer.step import Step
from installer.system_info import SERVICE_GROUP, SERVICE_USER, group_id, group_members, user_id

# What the install and the matrix binding's build need (Raspberry Pi OS bookworm and
# trixie, 32- and 64-bit: the same names). cmake and ninja drive the binding's build
# (scikit-build-core); cython3 and python3-dev compile it. sudo runs the web daemon's
# system actions (and visudo checks their rule); polkitd reads the Wi-Fi rule.
PACKAGES = ("git", "python3", "python3-venv", "python3-dev", "python3-pip", "cython3",
            "cmake", "ninja-build", "build-essential", "sudo", "polkitd")
APT_ENV = {"DEBIAN_FRONTEND": "noninteractive"}
# A fresh image runs its own upgrades at first boot: wait for dpkg's lock, not fail.
APT_WAIT = ("-o", "DPkg::Lock::Timeout=600")
SOUND_BLACKLIST = "/etc/modprobe.d/ledpanel-blacklist-snd-bcm2835.conf"
SOUND_TEXT = ("# Written by the ledpanel installer (scripts/uninstall removes it).\n"
              "# The on-board sound module uses the PWM hardware the matrix library drives\n"
              "# the panel with; loaded, it makes the panel flicker or stay dark.\n"
              "blacklist snd_bcm2835\n")
SUDOERS_SOURCE = "systemd/ledpanel.sudoers"
SUDOERS_TARGET = "/etc/sudoers.d/ledpanel"
POLKIT_DIR = "/etc/polkit-1/rules.d"
CAPTIVE_DNS_SOURCE = "systemd/ledpanel-captive-dns.conf"
CAPTIVE_DNS_TARGET = "/etc/NetworkManager/dnsmasq-shared.d/ledpanel-captive.conf"
UNIT_DIR = "/etc/systemd/system"
COMMAND_LINK = "/usr/local/bin/ledpanel"
DEFAULT_PREFIX = "/opt/ledpanel"


SYSTEM_FOLDERS = {"bin", "boot", "dev", "etc", "lib", "lib64", "proc", "root", "run", "sbin",
                  "sys", "tmp", "usr", "var", "home"}


def prefix_problem(prefix: str) -> str | None:
    """Why ``prefix`` cannot be an install folder (uninstall deletes it), or None."""
    parts = [part for part in prefix.split("/") if part]
    if not prefix.startswith("/") or ".." in parts:
        return "--prefix must be an absolute path without '..'"
    if len(parts) < 2 and (not parts or parts[0] in SYSTEM_FOLDERS):
        return f"--prefix {prefix} is a system folder; use a folder of its own (/opt/ledpanel)"
    if len(parts) == 2 and parts[0] == "home":
        return f"--prefix {prefix} is a home folder; use a folder of its own"
    return None


def installed_text(ctx: Context, source: Path) -> str:
    """Return a shipped file's text with the install root made ``ctx.prefix``."""
    return source.read_text(encoding="utf-8").replace(DEFAULT_PREFIX, ctx.prefix)


class Packages(Step):
    name = "packages"
    title = "install the system packages the panel and the matrix build need (apt-get)"

    def pending(self, ctx: Context) -> list[str]:
        argv = ["dpkg-query", "-W", "-f", "${Package} ${db:Status-Status}\\n", *PACKAGES]
        if ctx.root != Path("/"):
            argv.insert(1, f"--admindir={ctx.path('/var/lib/dpkg')}")
        done = ctx.query(argv)
        installed = {line.split()[0] for line in done.stdout.splitlines()
                     if line.split()[1:] == ["installed"]}
        return [name for name in PACKAGES if name not in installed]

    def apply(self, ctx: Context, pending: list[str]) -> None:
        ctx.note(f"missing: {' '.join(pending)}")
        ctx.run(["apt-get", *APT_WAIT, "update", "-q"], env=APT_ENV)
        ctx.run(["apt-get", *APT_WAIT, "install", "-y", "-q", "--no-install-recommends",
                 *pending], env=APT_ENV)


def _root_option(ctx: Context) -> list[str]:
    return [] if ctx.root == Path("/") else ["--root", str(ctx.root)]


class Account(Step):
    name = "user"
    title = f"create the group and system user '{SERVICE_USER}' the web daemon runs as"

    def pending(self, ctx: Context) -> list[str]:
        left = []
        if group_id(ctx, SERVICE_GROUP) is None:
            left.append(f"group {SERVICE_GROUP}")
        if user_id(ctx, SERVICE_USER) is None:
            left.append(f"user {SERVICE_USER}")
        person = admin_user(ctx)
        if person and person not in group_members(ctx, SERVICE_GROUP):
            left.append(f"{person} in group {SERVICE_GROUP}")
        return left

    def apply(self, ctx: Context, pending: list[str]) -> None:
        root = _root_option(ctx)
        if f"group {SERVICE_GROUP}" in pending:
            ctx.run(["groupadd", *root, "--system", SERVICE_GROUP])
        if f"user {SERVICE_USER}" in pending:
            ctx.run(["useradd", *root, "--system", "--gid", SERVICE_GROUP, "--no-create-home",
                     "--home-dir", "/nonexistent", "--shell", "/usr/sbin/nologin",
                     "--comment", "ledpanel web daemon", SERVICE_USER])
        person = admin_user(ctx)
        if person and f"{person} in group {SERVICE_GROUP}" in pending:
            # The person who installs may then edit the config over SSH without sudo.
            ctx.run(["usermod", *root, "--append", "--groups", SERVICE_GROUP, person])


def admin_user(ctx: Context) -> str | None:
    """The person who ran the installer through sudo, if that account exists there."""
    person = os.environ.get("SUDO_USER", "")
    if person and person != "root" and user_id(ctx, person) is not None:
        return person
    return None


class SoundBlacklist(Step):
    name = "sound"
    title = "keep the on-board sound module (snd_bcm2835) from loading"

    def pending(self, ctx: Context) -> list[str]:
        current = ctx.read_text(ctx.path(SOUND_BLACKLIST))
        return [] if current == SOUND_TEXT else [SOUND_BLACKLIST]

    def apply(self, ctx: Context, pending: list[str]) -> None:
        ctx.write_file(ctx.path(SOUND_BLACKLIST), SOUND_TEXT, 0o644)
        ctx.note("takes effect at the next boot")


def sound_module_loaded(ctx: Context) -> bool:
    modules = ctx.read_text(ctx.path("/proc/modules")) or ""
    return any(line.split(" ", 1)[0] == "snd_bcm2835" for line in modules.splitlines())


class SudoRule(Step):
    name = "sudoers"
    title = "install the sudo rule for the web daemon's system actions (checked by visudo)"

    def pending(self, ctx: Context) -> list[str]:
        source = ctx.source / SUDOERS_SOURCE
        if not source.is_file():
            return []
        current = ctx.read_text(ctx.path(SUDOERS_TARGET))
        return [] if current == installed_text(ctx, source) else [SUDOERS_TARGET]

    def apply(self, ctx: Context, pending: list[str]) -> None:
        text = installed_text(ctx, ctx.source / SUDOERS_SOURCE)
        staged = ctx.path(SUDOERS_TARGET).with_name(".ledpanel.new")
        # visudo checks the exact text that is installed; a rule it refuses is never
        # put where sudo reads it (one bad file there breaks every sudo command).
        ctx.write_file(staged, text, 0o440)
        try:
            ctx.run(["visudo", "-c", "-q", "-f", str(staged)])
        except StepFailed as err:
            ctx.remove(staged)
            err.hint = f"{SUDOERS_SOURCE} has an error; nothing was installed"
            raise
        ctx.remove(staged)
        ctx.write_file(ctx.path(SUDOERS_TARGET), text, 0o440)


def polkit_rules(ctx: Context) -> list[Path]:
    return sorted((ctx.source / "systemd").glob("*.rules"))


class PolkitRules(Step):
    name = "polkit"
    title = "install the polkit rules (network settings for the web daemon)"

    def pending(self, ctx: Context) -> list[str]:
        return [rule.name for rule in polkit_rules(ctx)
                if ctx.read_text(ctx.path(f"{POLKIT_DIR}/{rule.name}"))
                != installed_text(ctx, rule)]

    def apply(self, ctx: Context, pending: list[str]) -> None:
        for name in pending:
            rule = ctx.source / "systemd" / name
            ctx.write_file(ctx.path(f"{POLKIT_DIR}/{name}"), installed_text(ctx, rule), 0o644)


class CaptiveDns(Step):
    name = "captive-dns"
    title = "let phones on the setup access point find the panel (NetworkManager's dnsmasq)"

    def pending(self, ctx: Context) -> list[str]:
        source = ctx.source / CAPTIVE_DNS_SOURCE
        if not source.is_file():
            return []
        current = ctx.read_text(ctx.path(CAPTIVE_DNS_TARGET))
        return [] if current == installed_text(ctx, source) else [CAPTIVE_DNS_TARGET]

    def apply(self, ctx: Context, pending: list[str]) -> None:
        text = installed_text(ctx, ctx.source / CAPTIVE_DNS_SOURCE)
        ctx.write_file(ctx.path(CAPTIVE_DNS_TARGET), text, 0o644)


class CommandLink(Step):
    name = "command"
    title = f"put the 'ledpanel' command on the PATH ({COMMAND_LINK})"

    def target(self, ctx: Context) -> str:
        return f"{ctx.venv}/bin/ledpanel"

    def pending(self, ctx: Context) -> list[str]:
        link = ctx.path(COMMAND_LINK)
        if link.is_symlink() and str(link.readlink()) == self.target(ctx):
            return []
        return [COMMAND_LINK]

    def apply(self, ctx: Context, pending: list[str]) -> None:
        link = ctx.path(COMMAND_LINK)
        if link.exists() and not link.is_symlink():
            raise StepFailed(f"{COMMAND_LINK} exists and is not a link; move it away")
        ctx.symlink(link, self.target(ctx))
