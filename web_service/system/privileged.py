"""The one table of commands the web daemon runs as root, through ``sudo -n``.

Each entry is an argv with fixed arguments; the first word is found on PATH and run as
``sudo -n <absolute path> <args>``. ``systemd/ledpanel.sudoers`` allows exactly these
and nothing else.
"""

from __future__ import annotations

RESTART_WIFI_MONITOR = ("systemctl", "restart", "ledpanel-wifi-monitor.service")

PRIVILEGED_COMMANDS: tuple[tuple[str, ...], ...] = (
    RESTART_WIFI_MONITOR,
)
