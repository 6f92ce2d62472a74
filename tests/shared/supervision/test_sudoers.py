"""The sudo rule allows exactly the privileged commands the web runs, and nothing more."""

from __future__ import annotations

import shlex
import shutil
import subprocess
from pathlib import Path

import pytest

from shared.supervision import privileged

SUDOERS = Path(__file__).resolve().parents[3] / "systemd" / "ledpanel.sudoers"
PREFIX = "ledpanel ALL=(root) NOPASSWD: "
# Programs that reach a shell, an editor or a pager, or run what they are given.
ESCAPES = {"sh", "bash", "dash", "zsh", "env", "sudoedit", "vi", "vim", "nano", "less",
           "more", "man", "journalctl", "python3", "python", "find", "awk", "tee", "cp",
           "mv", "chmod", "chown", "su", "nsenter", "script", "busybox", "edit"}


def rule_commands() -> list[tuple[str, ...]]:
    """Return each rule line's command as an argv tuple (``""`` means: no arguments)."""
    commands = []
    for raw in SUDOERS.read_text().splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        assert line.startswith(PREFIX), f"not a rule of the one expected shape: {line}"
        words = shlex.split(line[len(PREFIX):])
        commands.append(tuple(w for w in words if w != ""))
        assert "," not in line[len(PREFIX):], f"one command per line: {line}"
    return commands


def test_every_privileged_command_has_its_rule_and_nothing_else_does() -> None:
    assert sorted(rule_commands()) == sorted(privileged.PRIVILEGED_COMMANDS)


def test_no_rule_has_a_wildcard_or_reaches_a_shell_or_pager() -> None:
    text = "\n".join(line for line in SUDOERS.read_text().splitlines()
                     if line.strip() and not line.lstrip().startswith("#"))
    for char in "*?[]\\!":
        assert char not in text, f"{char!r} in the sudo rule"
    for command in rule_commands():
        assert command[0].startswith("/"), f"not an absolute path: {command[0]}"
        assert Path(command[0]).name not in ESCAPES
        assert not any(arg.startswith("-") and arg != "--no-block" for arg in command[1:]), \
            command
        # systemctl only ever acts on our own units.
        if Path(command[0]).name == "systemctl":
            assert all(u.startswith("ledpanel-") for u in command[1:] if u.endswith(".service"))
            assert {"edit", "cat", "status", "show", "-i"}.isdisjoint(command)


def test_a_command_without_arguments_is_held_to_none() -> None:
    for raw in SUDOERS.read_text().splitlines():
        if raw.startswith(PREFIX) and len(shlex.split(raw[len(PREFIX):])) == 1:
            pytest.fail(f"a bare command allows any arguments: {raw}")


@pytest.mark.skipif(shutil.which("visudo") is None, reason="visudo is not installed here")
def test_visudo_accepts_the_rule() -> None:
    done = subprocess.run(["visudo", "-cf", str(SUDOERS)], capture_output=True, text=True,
                          check=False)
    assert done.returncode == 0, done.stdout + done.stderr


def test_a_command_outside_the_table_is_never_run() -> None:
    with pytest.raises(ValueError):
        privileged.sudo_argv(("/usr/bin/systemctl", "edit", "ledpanel-web.service"))
