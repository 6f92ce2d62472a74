"""No plugin takes the panel down: exits, interrupts, hangs and kills, in the real daemon."""

from __future__ import annotations

import json
import os
import signal
import socket
import time
from pathlib import Path
from typing import Any

import pytest
import requests

from shared.bus import core as keys
from shared.bus.core import Bus
from tests.daemons import ROOT, Daemon, Instance, start_display, start_web
from tests.display_service.helpers import wait_until
from tests.hostile_plugins import STILL, install, install_hostile

pytestmark = pytest.mark.timeout(180)


def make_instance(base: Path, *hostile: str) -> Instance:
    """An instance with ``still`` and the named hostile plugins enabled, 2 s each."""
    instance = Instance(base)
    install(instance.plugins_dir, "still", STILL)
    for plugin_id in hostile:
        install_hostile(instance.plugins_dir, plugin_id)
    config = json.loads((ROOT / "config" / "config.template.json").read_text())
    for plugin_id in ("still", *hostile):
        config[plugin_id] = {"enabled": True}
    config["display_durations"] = {p: 2 for p in ("still", *hostile)}
    instance.write_config(config)
    return instance


def read(instance: Instance, key: str) -> dict[str, Any]:
    return Bus(instance.cache_dir).read(key) or {}


def shown(instance: Instance, display: Daemon, plugin_id: str, timeout: float = 20) -> None:
    """Wait until the display (this process) shows ``plugin_id``."""
    wait_until(lambda: (s := read(instance, keys.DISPLAY_STATE)).get("plugin_id") == plugin_id
               and s.get("pid") == display.process.pid, timeout=timeout)


def errors_of(instance: Instance, plugin_id: str) -> dict[str, Any]:
    return read(instance, keys.PLUGIN_ERRORS).get(plugin_id) or {}


def safe_mode(instance: Instance) -> dict[str, Any]:
    return read(instance, keys.PLUGIN_SAFE_MODE).get("plugins") or {}


def killed_inside_slow(base: Path) -> Instance:
    """An instance whose display was killed (SIGKILL) inside the 3 s ``display()`` of
    ``slow``, as the memory limit or the watchdog would; the display is not running."""
    instance = make_instance(base, "slow")
    display = start_display(instance)
    shown(instance, display, "slow")
    time.sleep(0.5)
    os.kill(display.process.pid, signal.SIGKILL)
    display.process.wait(10)
    return instance


def test_exits_and_interrupts_inside_plugin_calls_end_the_call_not_the_daemon(
        tmp_path: Path) -> None:
    hostile = ("exits", "interrupts", "hard-exit", "update-exit", "load-exit", "timer-exit",
               "kills-self", "interrupt-main", "thread-exit")
    instance = make_instance(tmp_path, *hostile)
    display = start_display(instance)
    try:
        shown(instance, display, "still")
        for plugin_id in ("exits", "interrupts", "hard-exit", "update-exit"):
            wait_until(lambda p=plugin_id: errors_of(instance, p).get("count", 0) >= 1,
                       timeout=20)
        # Every one of them was called, and the rotation came back to the good plugin.
        shown(instance, display, "still")
        assert display.process.poll() is None
        assert errors_of(instance, "exits")["last_error"] == "SystemExit: 3"
        assert errors_of(instance, "interrupts")["last_error"].startswith("KeyboardInterrupt")
        assert "os._exit(9)" in errors_of(instance, "hard-exit")["last_error"]
        assert "os._exit(5)" in errors_of(instance, "update-exit")["last_error"]
        state = read(instance, keys.DISPLAY_STATE)
        assert "os._exit(7)" in state["load_errors"]["load-exit"]
        assert "load-exit" not in state["loaded_plugins"]
        assert "PermissionError" in errors_of(instance, "kills-self")["last_error"]
        assert "PermissionError" in errors_of(instance, "interrupt-main")["last_error"]
        # Threads the plugins started: their os._exit ended the thread, not the daemon.
        wait_until(lambda: "timer-exit: os._exit(0) refused" in display.output(), timeout=20)
        assert "thread-exit: os._exit(3) refused" in display.output()
        shown(instance, display, "still")
        assert display.process.poll() is None
        assert safe_mode(instance) == {}  # nothing died, so nobody is in safe mode
    finally:
        assert display.stop() == 0, display.output()


def test_a_hung_display_call_restarts_the_daemon_without_that_plugin(tmp_path: Path) -> None:
    instance = make_instance(tmp_path, "hangs")
    (instance.plugins_dir / "hangs" / "hang").touch()
    display = start_display(instance, "--hang-seconds", "1.5")
    web, url = start_web(instance)
    try:
        # The hang is found, the daemon starts afresh in place (same pid) without it.
        wait_until(lambda: "hangs" in safe_mode(instance), timeout=30)
        record = safe_mode(instance)["hangs"]
        assert record["where"] == "display"
        assert record["reason"] == "display() did not return within 1.5 s"
        wait_until(lambda: "hangs" in read(instance, keys.DISPLAY_STATE).get("load_errors", {}),
                   timeout=20)
        shown(instance, display, "still")
        assert display.process.poll() is None
        state = read(instance, keys.DISPLAY_STATE)
        assert state["load_errors"]["hangs"].startswith("in safe mode: display() did not")
        assert "starting the display daemon afresh without it" in display.output()

        listed = requests.get(f"{url}/api/v3/plugins/safe-mode", timeout=5).json()["data"]
        assert [r["plugin_id"] for r in listed] == ["hangs"]
        assert listed[0]["reason"] == record["reason"]

        # Fixed (no more hang) and released by the user: it is back in the rotation.
        (instance.plugins_dir / "hangs" / "hang").unlink()
        answer = requests.post(f"{url}/api/v3/plugins/safe-mode/release",
                               json={"plugin_id": "hangs"}, timeout=10)
        assert answer.status_code == 200, answer.text
        assert answer.json()["data"] == {"plugin_id": "hangs", "released": True}
        assert safe_mode(instance) == {}
        shown(instance, display, "hangs")
        again = requests.post(f"{url}/api/v3/plugins/safe-mode/release",
                              json={"plugin_id": "hangs"}, timeout=10)
        assert again.status_code == 404
        assert again.json()["error_code"] == "NOT_IN_SAFE_MODE"
    finally:
        web.stop()
        assert display.stop() == 0, display.output()


def test_a_plugin_in_a_call_when_the_daemon_is_killed_is_kept_out_at_the_next_start(
        tmp_path: Path) -> None:
    instance = killed_inside_slow(tmp_path)

    display = start_display(instance)
    try:
        shown(instance, display, "still")
        record = safe_mode(instance)["slow"]
        assert record["where"] == "display"
        assert "died (killed, crashed or exited) during its display() call" in record["reason"]
        state = read(instance, keys.DISPLAY_STATE)
        assert "slow" not in state["loaded_plugins"]
        assert state["load_errors"]["slow"].startswith("in safe mode:")

        # An update of the plugin (its files change) lifts safe mode at the next reload.
        manager = instance.plugins_dir / "slow" / "manager.py"
        manager.write_text(manager.read_text().replace("time.sleep(3)", "pass"))
        config = json.loads((instance.config_dir / "config.json").read_text())
        config["brightness"] = 60
        instance.write_config(config)
        wait_until(lambda: "slow" not in safe_mode(instance), timeout=20)
        shown(instance, display, "slow")
    finally:
        assert display.stop() == 0, display.output()


def test_a_clean_stop_during_a_plugin_call_blames_nobody(tmp_path: Path) -> None:
    instance = make_instance(tmp_path, "slow")
    display = start_display(instance)
    shown(instance, display, "slow")
    assert display.stop() == 0
    display = start_display(instance)
    try:
        shown(instance, display, "still")
        assert safe_mode(instance) == {}
        assert "slow" in read(instance, keys.DISPLAY_STATE)["loaded_plugins"]
    finally:
        display.stop()


def test_keepalives_feed_the_service_manager_and_stop_when_the_interpreter_is_stuck(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The part systemd plays (NOTIFY_SOCKET, WatchdogSec=): a datagram socket of ours.
    address = str(tmp_path / "notify")
    manager = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    manager.bind(address)
    manager.settimeout(3)
    monkeypatch.setenv("NOTIFY_SOCKET", address)
    monkeypatch.setenv("WATCHDOG_USEC", "900000")
    instance = make_instance(tmp_path / "panel", "gil")
    display = start_display(instance)
    try:
        shown(instance, display, "still")
        assert [manager.recv(64) for _ in range(3)] == [b"WATCHDOG=1"] * 3
        (instance.plugins_dir / "gil" / "stuck").touch()
        # Within a rotation "gil" is shown and spins: then the keep-alives stop.
        deadline = time.monotonic() + 20
        with pytest.raises(TimeoutError):
            while time.monotonic() < deadline:
                assert manager.recv(64) == b"WATCHDOG=1"
        assert display.process.poll() is None  # alive, but stuck: systemd kills it now
    finally:
        display.process.kill()  # what the watchdog does (SIGABRT then SIGKILL)
        display.process.wait(10)
        manager.close()
    # Restarted, the daemon keeps the plugin it died in out.
    monkeypatch.delenv("NOTIFY_SOCKET")
    display = start_display(instance)
    try:
        shown(instance, display, "still")
        assert safe_mode(instance)["gil"]["where"] == "display"
    finally:
        assert display.stop() == 0, display.output()


def test_junk_manifest_or_unreadable_schema_still_lets_the_display_drop_a_plugin(
        tmp_path: Path) -> None:
    instance = make_instance(tmp_path)
    install(instance.plugins_dir, "junk", STILL)
    install(instance.plugins_dir, "schemaless", STILL)
    config = json.loads((instance.config_dir / "config.json").read_text())
    config["junk"] = config["schemaless"] = {"enabled": True}
    instance.write_config(config)
    display = start_display(instance)
    try:
        wait_until(lambda: {"junk", "schemaless"} <= set(
            read(instance, keys.DISPLAY_STATE).get("loaded_plugins", [])), timeout=20)
        # The manifest turns to junk: the plugin is unloaded, and the reason is shown.
        (instance.plugins_dir / "junk" / "manifest.json").write_text("{ not json")
        # The schema becomes unreadable, then the user switches the plugin off.
        (instance.plugins_dir / "schemaless" / "config_schema.json").write_text("[")
        config["schemaless"] = {"enabled": False}
        instance.write_config(config)

        def dropped() -> bool:
            state = read(instance, keys.DISPLAY_STATE)
            return not {"junk", "schemaless"} & set(state.get("loaded_plugins", []))

        wait_until(dropped, timeout=20)
        state = read(instance, keys.DISPLAY_STATE)
        assert "manifest" in state["load_errors"]["junk"]
        assert "schemaless" not in state["load_errors"]  # off is not an error
        assert display.process.poll() is None
    finally:
        assert display.stop() == 0, display.output()


def test_status_installed_and_the_cli_name_the_plugins_in_safe_mode(tmp_path: Path) -> None:
    import subprocess
    import sys

    instance = killed_inside_slow(tmp_path)
    display = start_display(instance)
    web, url = start_web(instance)
    try:
        shown(instance, display, "still")
        status = requests.get(f"{url}/api/v3/system/status", timeout=5).json()["data"]
        [entry] = status["display"]["safe_mode"]
        assert entry["plugin_id"] == "slow" and entry["where"] == "display"
        assert "during its display() call" in entry["reason"]
        plugins = requests.get(f"{url}/api/v3/plugins/installed", timeout=5).json()["data"]
        by_id = {p["id"]: p for p in plugins}
        assert by_id["slow"]["safe_mode"]["where"] == "display"
        assert by_id["still"]["safe_mode"] is None
        cli = subprocess.run([sys.executable, "-m", "shared.cli", "status", "--url", url],
                             capture_output=True, text=True, timeout=30, cwd=ROOT)
        assert "safe mode" in cli.stdout and "slow: not loaded:" in cli.stdout, cli.stdout
        # Records hold while the display is down: they apply at its next start.
        display.stop()
        status = requests.get(f"{url}/api/v3/system/status", timeout=5).json()["data"]
        assert [e["plugin_id"] for e in status["display"]["safe_mode"]] == ["slow"]
        answer = requests.post(f"{url}/api/v3/plugins/safe-mode/release",
                               json={"plugin_id": "slow"}, timeout=10)
        assert answer.status_code == 202 and answer.json()["data"]["released"] is False
        display = start_display(instance)
        wait_until(lambda: safe_mode(instance) == {}, timeout=20)
        shown(instance, display, "slow")
    finally:
        web.stop()
        display.stop()


def test_a_hung_deferred_call_is_a_hang_of_the_plugin_that_queued_it(tmp_path: Path) -> None:
    instance = make_instance(tmp_path, "deferred-hang")
    (instance.plugins_dir / "deferred-hang" / "hang").touch()
    display = start_display(instance, "--hang-seconds", "1.5")
    try:
        wait_until(lambda: "deferred-hang" in safe_mode(instance), timeout=30)
        assert safe_mode(instance)["deferred-hang"]["where"] == "deferred"
        shown(instance, display, "still")
        assert display.process.poll() is None
    finally:
        assert display.stop() == 0, display.output()
