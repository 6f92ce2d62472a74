"""The Wi-Fi monitor's unit, the polkit rule and the dnsmasq file the setup access point
relies on (the installer installs every systemd/ledpanel-*.service and systemd/*.rules)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from shared.supervision.privileged import RESTART_WIFI_MONITOR
from tests.system.test_systemd_units import UNITS_DIR, one, parse_unit
from web_service.wifi.network import AP_ADDRESS

MONITOR = UNITS_DIR / "ledpanel-wifi-monitor.service"
RULE = UNITS_DIR / "ledpanel-wifi.rules"
STAND_IN = "/opt/ledpanel/.venv/bin/python"


def test_the_monitor_runs_unprivileged_with_only_the_port_80_capability():
    unit = parse_unit(MONITOR)
    assert (one(unit, "Service", "User"), one(unit, "Service", "Group")) == ("ledpanel",) * 2
    assert one(unit, "Service", "AmbientCapabilities") == "CAP_NET_BIND_SERVICE"
    assert one(unit, "Service", "CapabilityBoundingSet") == "CAP_NET_BIND_SERVICE"
    assert one(unit, "Service", "NoNewPrivileges") == "yes"
    assert one(unit, "Service", "Restart") == "on-failure"
    assert int(one(unit, "Unit", "StartLimitBurst")) >= 1
    assert one(unit, "Service", "SyslogIdentifier") == "ledpanel-wifi-monitor"
    assert one(unit, "Service", "ExecStart") == f"{STAND_IN} -m web_service.wifi.monitor"
    assert "NetworkManager.service" in one(unit, "Unit", "After")
    assert RESTART_WIFI_MONITOR[-1] == MONITOR.name


def test_the_sudo_rule_allows_the_monitor_restart_with_fixed_arguments():
    lines = [line for line in (UNITS_DIR / "ledpanel.sudoers").read_text().splitlines()
             if line.strip() and not line.startswith("#")]
    wanted = " ".join(RESTART_WIFI_MONITOR)
    assert any(line.endswith(f"NOPASSWD: {wanted}") for line in lines)


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze not here")
def test_systemd_analyze_verify_finds_no_problem_in_the_monitor_unit(tmp_path: Path) -> None:
    stand_in = tmp_path / "python"
    stand_in.write_text("#!/bin/sh\n")
    stand_in.chmod(0o755)
    copy = tmp_path / MONITOR.name
    copy.write_text(MONITOR.read_text().replace(STAND_IN, str(stand_in)))
    result = subprocess.run(["systemd-analyze", "verify", "--man=no", str(copy)],
                            capture_output=True, text=True, timeout=60, cwd=tmp_path,
                            env={**os.environ, "SYSTEMD_LOG_LEVEL": "warning"})
    ours = [line for line in (result.stdout + result.stderr).splitlines()
            if "ledpanel-" in line]
    assert result.returncode == 0 and not ours, result.stdout + result.stderr


@pytest.mark.skipif(shutil.which("node") is None, reason="node not here")
def test_the_polkit_rule_lets_only_ledpanel_manage_networkmanager():
    harness = """
const rules = [];
globalThis.polkit = { addRule: (f) => rules.push(f),
                      Result: { YES: "yes", NOT_HANDLED: "not_handled" } };
eval(require("fs").readFileSync(process.argv[1], "utf8"));
const ask = (id, user) => rules[0]({ id }, { user });
console.log(JSON.stringify([
  ask("org.freedesktop.NetworkManager.settings.modify.system", "ledpanel"),
  ask("org.freedesktop.NetworkManager.network-control", "ledpanel"),
  ask("org.freedesktop.NetworkManager.network-control", "pi"),
  ask("org.freedesktop.login1.reboot", "ledpanel"),
]));
"""
    done = subprocess.run(["node", "-e", harness, str(RULE)], capture_output=True, text=True,
                          timeout=60, check=True)
    assert json.loads(done.stdout) == ["yes", "yes", "not_handled", "not_handled"]


def test_the_access_points_dns_points_every_name_at_the_panel():
    text = (UNITS_DIR / "ledpanel-captive-dns.conf").read_text()
    assert f"address=/#/{AP_ADDRESS}" in text.splitlines()
