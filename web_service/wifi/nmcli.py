"""Running ``nmcli`` and reading its terse (``-t``) output.

Every call has a timeout and runs without a shell. A password goes to ``nmcli --ask``
on standard input, never on the command line (which ``ps`` shows) and never in a log
line: only the arguments are logged, and ``stdin`` is not.
"""

from __future__ import annotations

import logging
import os
import shutil
import subprocess

from shared.errors import LedpanelError

logger = logging.getLogger(__name__)

QUICK_TIMEOUT = 10.0  # status, radio, connection lists
SCAN_TIMEOUT = 25.0  # a rescan takes a few seconds on a Pi
CONNECT_TIMEOUT = 45.0  # association and DHCP; nmcli's own --wait is shorter
MAX_MESSAGE = 300


class WifiUnavailable(LedpanelError):
    """nmcli is not installed (or not on PATH)."""

    error_code = "WIFI_UNAVAILABLE"
    status = 503


class WifiCommandFailed(LedpanelError):
    """nmcli ran and refused, or did not finish in time."""

    error_code = "WIFI_COMMAND_FAILED"
    status = 502


def find() -> str:
    """Return the nmcli executable; raise WifiUnavailable when there is none."""
    found = shutil.which("nmcli")
    if found is None:
        raise WifiUnavailable(
            "Wi-Fi needs NetworkManager and its nmcli command, which this system does not "
            "have: install the network-manager package (Raspberry Pi OS bookworm and later "
            "use it by default)")
    return found


def run(args: list[str], *, timeout: float = QUICK_TIMEOUT, stdin: str | None = None) -> str:
    """Run ``nmcli <args>`` and return its standard output.

    A non-zero exit or a timeout raises WifiCommandFailed with nmcli's own message.
    """
    argv = [find(), *args]
    logger.debug("running nmcli %s", " ".join(args))
    try:
        done = subprocess.run(argv, input=stdin if stdin is not None else "", text=True,
                              capture_output=True, timeout=timeout, check=False,
                              env=_environment())
    except subprocess.TimeoutExpired as err:
        raise WifiCommandFailed(
            f"nmcli {args[0] if args else ''} did not finish within {timeout:g} s; "
            "try again, and check NetworkManager with: systemctl status NetworkManager",
            error_code="WIFI_TIMEOUT", status=504) from err
    except OSError as err:
        raise WifiUnavailable(f"nmcli could not be started ({err.strerror}); "
                              "check that NetworkManager is installed") from err
    if done.returncode != 0:
        said = (done.stderr.strip() or done.stdout.strip() or "no message")[:MAX_MESSAGE]
        raise WifiCommandFailed(f"nmcli refused: {said}",
                                details={"exit_code": done.returncode})
    return done.stdout


def _environment() -> dict[str, str]:
    """nmcli's messages in English whatever the locale, so they read the same in logs."""
    return {**os.environ, "LC_ALL": "C", "LANG": "C"}


def split_terse(line: str) -> list[str]:
    """Split one line of ``nmcli -t`` output into its fields.

    nmcli separates fields with ``:`` and escapes a ``:`` or ``\\`` inside a value with a
    backslash.
    """
    fields: list[str] = []
    current: list[str] = []
    chars = iter(line)
    for char in chars:
        if char == "\\":
            current.append(next(chars, ""))
        elif char == ":":
            fields.append("".join(current))
            current = []
        else:
            current.append(char)
    fields.append("".join(current))
    return fields


def rows(output: str, width: int) -> list[list[str]]:
    """Every line of terse output with exactly ``width`` fields (others are skipped)."""
    found = []
    for line in output.splitlines():
        if line.strip():
            fields = split_terse(line)
            if len(fields) == width:
                found.append(fields)
    return found
