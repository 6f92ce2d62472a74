"""The systemd units: the keys the product relies on, and systemd's own verdict."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

UNITS_DIR = Path(__file__).resolve().parents[2] / "systemd"
UNITS = ("ledpanel-display", "ledpanel-web", "ledpanel-mqtt")
INSTALL_ROOT = "/opt/ledpanel"


def parse_unit(path: Path) -> dict[str, dict[str, list[str]]]:
    """Return {section: {key: [values in order]}}; systemd keys may repeat."""
    sections: dict[str, dict[str, list[str]]] = {}
    current: dict[str, list[str]] | None = None
    for raw in path.read_text().splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("[") and line.endswith("]"):
            current = sections.setdefault(line[1:-1], {})
            continue
        assert current is not None, f"{path.name}: key outside a section: {line}"
        key, sep, value = line.partition("=")
        assert sep, f"{path.name}: not a key=value line: {line}"
        current.setdefault(key.strip(), []).append(value.strip())
    return sections


def one(unit: dict[str, dict[str, list[str]]], section: str, key: str) -> str:
    values = unit.get(section, {}).get(key)
    assert values, f"[{section}] {key}= missing"
    assert len(values) == 1, f"[{section}] {key}= given {len(values)} times"
    return values[0]


def environment(unit: dict[str, dict[str, list[str]]]) -> dict[str, str]:
    pairs = [item for line in unit["Service"].get("Environment", []) for item in line.split()]
    return dict(pair.split("=", 1) for pair in pairs)


@pytest.fixture(scope="module")
def units() -> dict[str, dict[str, dict[str, list[str]]]]:
    return {name: parse_unit(UNITS_DIR / f"{name}.service") for name in UNITS}


@pytest.mark.parametrize("name", UNITS)
def test_unit_restarts_on_failure_with_a_start_limit(name: str, units: dict) -> None:
    unit = units[name]
    assert one(unit, "Service", "Restart") == "on-failure"
    assert float(one(unit, "Service", "RestartSec")) >= 1
    assert int(one(unit, "Unit", "StartLimitBurst")) >= 1
    assert int(one(unit, "Unit", "StartLimitIntervalSec")) > 0


@pytest.mark.parametrize("name", UNITS)
def test_unit_has_start_and_stop_timeouts(name: str, units: dict) -> None:
    assert int(one(units[name], "Service", "TimeoutStartSec")) > 0
    assert int(one(units[name], "Service", "TimeoutStopSec")) == 15


@pytest.mark.parametrize("name", UNITS)
def test_journal_identifier_matches_the_unit_name(name: str, units: dict) -> None:
    assert one(units[name], "Service", "SyslogIdentifier") == name


@pytest.mark.parametrize("name", UNITS)
def test_unit_environment_limits_malloc_arenas_and_names_the_bus(name: str, units: dict) -> None:
    env = environment(units[name])
    assert env["MALLOC_ARENA_MAX"] == "2"
    assert env["LEDPANEL_CACHE_DIR"] == "/var/cache/ledpanel"


@pytest.mark.parametrize("name", UNITS)
def test_unit_runs_the_console_script_from_the_install_venv(name: str, units: dict) -> None:
    command = one(units[name], "Service", "ExecStart").split()
    assert command[0] == f"{INSTALL_ROOT}/.venv/bin/{name}"
    assert one(units[name], "Install", "WantedBy") == "multi-user.target"


def test_both_units_share_one_group_writable_bus_directory(units: dict) -> None:
    display, web = units["ledpanel-display"], units["ledpanel-web"]
    for key in ("CacheDirectory", "CacheDirectoryMode", "Group", "UMask"):
        assert one(display, "Service", key) == one(web, "Service", key), key
        assert one(units["ledpanel-mqtt"], "Service", key) == one(web, "Service", key), key
    assert one(display, "Service", "CacheDirectory") == "ledpanel"
    assert one(display, "Service", "CacheDirectoryMode") == "2775"
    assert one(display, "Service", "UMask") == "0002"
    assert one(display, "Service", "Group") == "ledpanel"


def test_display_runs_as_root_and_web_unprivileged(units: dict) -> None:
    assert one(units["ledpanel-display"], "Service", "User") == "root"
    assert one(units["ledpanel-web"], "Service", "User") == "ledpanel"
    web_command = one(units["ledpanel-web"], "Service", "ExecStart")
    # No --port: the daemon listens on web.port from the config, so the port the
    # web-ui-info plugin shows on the panel is the one actually served.
    assert "--port" not in web_command and "--host 0.0.0.0" in web_command


def test_display_drops_to_the_web_user_and_is_started_again_after_a_hang(
        units: dict) -> None:
    from display_service.privileges import DEFAULT_USER, EXIT_RESTART, USER_VARIABLE

    display = units["ledpanel-display"]
    assert environment(display)[USER_VARIABLE] == DEFAULT_USER == one(
        units["ledpanel-web"], "Service", "User")
    # The hang watch's exit after a drop is a failure the unit restarts on.
    assert one(display, "Service", "Restart") == "on-failure"
    assert str(EXIT_RESTART) not in one(display, "Service", "RestartPreventExitStatus").split()


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze not here")
def test_systemd_analyze_verify_finds_no_problem(tmp_path: Path) -> None:
    # verify insists that ExecStart= exists: point it at a stand-in executable.
    for name in UNITS:
        stand_in = tmp_path / name
        stand_in.write_text("#!/bin/sh\n")
        stand_in.chmod(0o755)
        text = (UNITS_DIR / f"{name}.service").read_text()
        text = text.replace(f"{INSTALL_ROOT}/.venv/bin/{name}", str(stand_in))
        (tmp_path / f"{name}.service").write_text(text)
    result = subprocess.run(
        ["systemd-analyze", "verify", "--man=no",
         *(str(tmp_path / f"{name}.service") for name in UNITS)],
        capture_output=True, text=True, timeout=60, cwd=tmp_path,
        env={**os.environ, "SYSTEMD_LOG_LEVEL": "warning"},
    )
    ours = [line for line in (result.stdout + result.stderr).splitlines()
            if "ledpanel-" in line]
    assert result.returncode == 0 and not ours, result.stdout + result.stderr


def test_display_unit_gets_a_scheduling_edge_for_frame_pacing():
    unit = parse_unit(UNITS_DIR / "ledpanel-display.service")
    assert one(unit, "Service", "Nice") == "-5"


def megabytes(value: str) -> int:
    number, unit = value[:-1], value[-1]
    assert unit in "MG" and number.isdigit(), f"{value}: give MemoryHigh/Max in M or G"
    return int(number) * (1024 if unit == "G" else 1)


def test_display_unit_caps_memory_below_a_pi3s_ram(units: dict) -> None:
    display = units["ledpanel-display"]
    high = megabytes(one(display, "Service", "MemoryHigh"))
    ceiling = megabytes(one(display, "Service", "MemoryMax"))
    # Throttled first, killed later; room left for the web daemon and the system on 1 GB.
    assert 150 <= high < ceiling <= 600


def test_display_unit_has_a_watchdog_the_daemon_feeds(units: dict) -> None:
    unit = units["ledpanel-display"]
    assert int(one(unit, "Service", "WatchdogSec")) >= 10
    assert one(unit, "Service", "NotifyAccess") == "main"


def test_the_mqtt_bridge_runs_unprivileged_as_the_web_does(units: dict) -> None:
    bridge = units["ledpanel-mqtt"]
    assert one(bridge, "Service", "User") == "ledpanel"
    assert environment(bridge)["LEDPANEL_SUPERVISOR"] == "systemd"
    assert one(bridge, "Service", "RestartPreventExitStatus") == "3"


def test_readme_states_each_units_restart_delay(units: dict) -> None:
    readme = " ".join((UNITS_DIR.parent / "README.md").read_text(encoding="utf-8").split())
    display = one(units["ledpanel-display"], "Service", "RestartSec")
    web = one(units["ledpanel-web"], "Service", "RestartSec")
    assert f"display restarts on failure after {display} s and the web after {web} s" in readme


def test_display_unit_keeps_its_call_trail_on_a_tmpfs_across_restarts(units: dict) -> None:
    display = units["ledpanel-display"]
    assert one(display, "Service", "RuntimeDirectory") == "ledpanel"
    assert one(display, "Service", "RuntimeDirectoryPreserve") == "yes"
