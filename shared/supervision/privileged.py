"""The one table of privileged commands the web daemon may run, and how it runs them.

The web daemon runs as the unprivileged user ``ledpanel``; each command here goes through
``sudo -n`` with fixed arguments. ``systemd/ledpanel.sudoers`` allows exactly these
(``tests/web_service/system/test_sudoers.py`` holds the two together): a command added
here without its line there fails with sudo's "a password is required", never silently.
"""

from __future__ import annotations

import logging
import os
import shutil
import subprocess
from collections.abc import Sequence

from shared.errors import LedpanelError

logger = logging.getLogger(__name__)

SYSTEMCTL = "/usr/bin/systemctl"
REBOOT = "/usr/sbin/reboot"
POWEROFF = "/usr/sbin/poweroff"
DISPLAY_UNIT = "ledpanel-display.service"
WEB_UNIT = "ledpanel-web.service"
UPDATE_UNIT = "ledpanel-update.service"
WIFI_MONITOR_UNIT = "ledpanel-wifi-monitor.service"

START_DISPLAY = (SYSTEMCTL, "start", DISPLAY_UNIT)
STOP_DISPLAY = (SYSTEMCTL, "stop", DISPLAY_UNIT)
RESTART_DISPLAY = (SYSTEMCTL, "restart", DISPLAY_UNIT)
# --no-block: the restart kills the web daemon, and so the sudo that asked for it.
RESTART_WEB = (SYSTEMCTL, "--no-block", "restart", WEB_UNIT)
ENABLE_AUTOSTART = (SYSTEMCTL, "enable", DISPLAY_UNIT, WEB_UNIT)
DISABLE_AUTOSTART = (SYSTEMCTL, "disable", DISPLAY_UNIT, WEB_UNIT)
REBOOT_SYSTEM = (REBOOT,)
SHUTDOWN_SYSTEM = (POWEROFF,)
# The core update runs in its own unit (it restarts the web); --no-block: answer at once.
START_CORE_UPDATE = (SYSTEMCTL, "start", "--no-block", UPDATE_UNIT)
# The Wi-Fi monitor reads auto_enable_ap_mode at start: a change restarts it.
RESTART_WIFI_MONITOR = (SYSTEMCTL, "restart", WIFI_MONITOR_UNIT)

PRIVILEGED_COMMANDS: tuple[tuple[str, ...], ...] = (
    START_DISPLAY, STOP_DISPLAY, RESTART_DISPLAY, RESTART_WEB,
    ENABLE_AUTOSTART, DISABLE_AUTOSTART, REBOOT_SYSTEM, SHUTDOWN_SYSTEM, START_CORE_UPDATE,
    RESTART_WIFI_MONITOR,
)

TIMEOUT = 60.0  # seconds; above the units' own start and stop limits (30 s, 15 s)
MAX_OUTPUT = 2000  # characters of a failing command's output kept in the answer


class CommandFailed(LedpanelError):
    """A privileged command could not run or exited non-zero; carries its output."""

    def __init__(self, shown: str, message: str, output: str = "",
                 exit_code: int | None = None) -> None:
        super().__init__(message, error_code="ACTION_FAILED", status=502,
                         details={"command": shown, "exit_code": exit_code, "output": output})


def sudo_argv(command: Sequence[str]) -> list[str]:
    """Return the argv running ``command`` (a row of the table) through ``sudo -n``.

    ``sudo`` and the command are looked up on PATH (so tests put recording stand-ins
    first); on a Pi that finds the table's absolute paths, which the sudo rule names.
    """
    if tuple(command) not in PRIVILEGED_COMMANDS:
        raise ValueError(f"not a privileged command of the table: {command!r}")
    sudo = shutil.which("sudo")
    if sudo is None:
        raise CommandFailed("sudo", "sudo is not installed; install it (apt-get install sudo) "
                            "and run scripts/install again to write the sudo rule")
    program = shutil.which(os.path.basename(command[0])) or command[0]
    return [sudo, "-n", program, *command[1:]]


def shown(command: Sequence[str]) -> str:
    """Return ``command`` as a person would type it."""
    return " ".join(["sudo", "-n", os.path.basename(command[0]), *command[1:]])


def run_privileged(command: Sequence[str]) -> str:
    """Run one command of the table and return its output; raise ``CommandFailed``."""
    argv = sudo_argv(command)
    try:
        done = subprocess.run(argv, stdin=subprocess.DEVNULL, capture_output=True,
                              timeout=TIMEOUT, check=False)
    except subprocess.TimeoutExpired:
        raise CommandFailed(shown(command), f"{shown(command)} did not finish within "
                            f"{TIMEOUT:g} s; see sudo journalctl -n 50 for why") from None
    except OSError as err:
        raise CommandFailed(shown(command), f"{shown(command)} could not run: {err}") from None
    output = trimmed(done.stdout + done.stderr)
    if done.returncode != 0:
        logger.warning("%s exited with %d: %s", shown(command), done.returncode, output)
        hint = (" The sudo rule is missing or differs: run scripts/install again."
                if "password is required" in output else "")
        raise CommandFailed(shown(command), f"{shown(command)} failed (exit code "
                            f"{done.returncode}): {output or 'no output'}.{hint}",
                            output, done.returncode)
    return output


def start_detached(command: Sequence[str]) -> None:
    """Start one command of the table in a session of its own and do not wait for it
    (the web restarting itself); a failure to start is logged."""
    try:
        subprocess.Popen(sudo_argv(command), stdin=subprocess.DEVNULL,
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                         start_new_session=True)
    except (OSError, LedpanelError) as err:
        logger.error("%s could not start: %s", shown(command), err)


def trimmed(raw: bytes) -> str:
    """Return a command's output as text, its last ``MAX_OUTPUT`` characters."""
    text = raw.decode("utf-8", "replace").strip()
    return text if len(text) <= MAX_OUTPUT else "…" + text[-MAX_OUTPUT:]
