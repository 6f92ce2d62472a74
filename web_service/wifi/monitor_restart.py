"""Restarting the monitor after ``auto_enable_ap_mode`` changed (it reads it at start).

Under systemd this is ``sudo -n systemctl restart ledpanel-wifi-monitor.service`` (a row
of the table of privileged commands); a development run has no monitor to restart.
"""

from __future__ import annotations

from shared.supervision.privileged import RESTART_WIFI_MONITOR, CommandFailed, run_privileged
from shared.supervision.supervisor import SYSTEMD, supervisor_kind

MANUAL = "sudo systemctl restart ledpanel-wifi-monitor.service"


def restart_monitor() -> tuple[bool, str]:
    """Restart the unit; return (restarted, what to tell the person)."""
    if supervisor_kind() != SYSTEMD:
        return False, ("saved; this is not a systemd install, so no monitor runs to be "
                       "restarted")
    try:
        run_privileged(RESTART_WIFI_MONITOR)
    except CommandFailed as err:
        return False, (f"saved, but the monitor was not restarted ({err.message[:300]}); "
                       f"run  {MANUAL}")
    return True, "saved; the Wi-Fi monitor was restarted to apply it"
