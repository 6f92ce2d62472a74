"""Restarting the monitor after ``auto_enable_ap_mode`` changed (it reads it at start).

Under systemd (``LEDPANEL_SUPERVISOR=systemd``, or unset with systemd detected) this is
``sudo -n systemctl restart ledpanel-wifi-monitor.service``; a development run has no
monitor to restart.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

from web_service.system.privileged import PRIVILEGED_COMMANDS, RESTART_WIFI_MONITOR

TIMEOUT = 20.0
SYSTEMD_RUN_DIR = Path("/run/systemd/system")


def under_systemd() -> bool:
    said = os.environ.get("LEDPANEL_SUPERVISOR", "")
    if said:
        return said == "systemd"
    return bool(os.environ.get("INVOCATION_ID")) or SYSTEMD_RUN_DIR.is_dir()


def restart_monitor() -> tuple[bool, str]:
    """Restart the unit; return (restarted, what to tell the person)."""
    if not under_systemd():
        return False, ("saved; this is not a systemd install, so no monitor runs to be "
                       "restarted")
    assert RESTART_WIFI_MONITOR in PRIVILEGED_COMMANDS
    sudo, command = shutil.which("sudo"), shutil.which(RESTART_WIFI_MONITOR[0])
    if sudo is None or command is None:
        return False, ("saved, but sudo or systemctl is missing, so the monitor was not "
                       "restarted: run  sudo systemctl restart ledpanel-wifi-monitor.service")
    argv = [sudo, "-n", command, *RESTART_WIFI_MONITOR[1:]]
    try:
        done = subprocess.run(argv, capture_output=True, text=True, timeout=TIMEOUT,
                              check=False)
    except subprocess.TimeoutExpired:
        return False, "saved, but restarting the monitor did not finish in time"
    if done.returncode != 0:
        said = (done.stderr.strip() or done.stdout.strip())[:300]
        return False, (f"saved, but restarting the monitor failed ({said}); run  sudo "
                       "systemctl restart ledpanel-wifi-monitor.service")
    return True, "saved; the Wi-Fi monitor was restarted to apply it"
