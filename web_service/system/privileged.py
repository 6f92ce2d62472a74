"""The one table of privileged commands the web daemon runs, each through ``sudo -n``.

Every entry is an exact argv (command name, fixed arguments); ``systemd/ledpanel.sudoers``
allows exactly these and nothing else (a test holds the two together). The command is
found on PATH when run, so tests put recording fakes first.
"""

from __future__ import annotations

import shutil

START_CORE_UPDATE = ("systemctl", "start", "--no-block", "ledpanel-update.service")

PRIVILEGED_COMMANDS: tuple[tuple[str, ...], ...] = (
    START_CORE_UPDATE,
)


def sudo_argv(command: tuple[str, ...]) -> list[str]:
    """Return the argv that runs ``command`` (one of the table's) through ``sudo -n``."""
    if command not in PRIVILEGED_COMMANDS:
        raise ValueError(f"{command!r} is not a privileged command of the table")
    return ["sudo", "-n", shutil.which(command[0]) or command[0], *command[1:]]
