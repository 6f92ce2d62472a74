"""The real display daemon as a subprocess over temporary directories."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

import pytest

from shared.bus.core import Bus
from tests.daemons import ROOT, Instance, start_display

# The display unit's TimeoutStopSec: after it systemd kills the daemon.
_UNIT = (ROOT / "systemd" / "ledpanel-display.service").read_text()
TIMEOUT_STOP_SEC = float(re.findall(r"^TimeoutStopSec=(\d+)$", _UNIT, re.MULTILINE)[0])

MANIFEST = {
    "name": "Test plugin",
    "version": "1.0.0",
    "author": "tests",
    "entry_point": "manager.py",
    "compatible_versions": [">=3.0.0"],
    "update_interval": 60,
    "default_duration": 30,
}

PLUGIN_CODE = textwrap.dedent(
    """
    from shared.plugin_api.base_plugin import BasePlugin


    class {cls}(BasePlugin):
        def update(self):
            self.ready = True

        def display(self, force_clear=False, display_mode=None):
            self.display_manager.clear()
            self.display_manager.draw_text(display_mode or "?", x=0, y=0)
            self.display_manager.update_display()
            return True
    """
)


def add_plugin(plugins_dir: Path, plugin_id: str, cls: str, modes: list[str]) -> None:
    directory = plugins_dir / plugin_id
    directory.mkdir(parents=True)
    manifest = {**MANIFEST, "id": plugin_id, "class_name": cls, "display_modes": modes}
    (directory / "manifest.json").write_text(json.dumps(manifest))
    (directory / "manager.py").write_text(PLUGIN_CODE.format(cls=cls))


@pytest.fixture
def instance(tmp_path: Path) -> Instance:
    inst = Instance(tmp_path)
    add_plugin(inst.plugins_dir, "alpha", "AlphaPlugin", ["alpha_one", "alpha_two"])
    add_plugin(inst.plugins_dir, "beta", "BetaPlugin", ["beta_main"])
    inst.write_config({"alpha": {"enabled": True}, "beta": {"enabled": True}})
    return inst


def on_demand(state: dict[str, Any] | None) -> dict[str, Any]:
    return (state or {}).get("on_demand") or {}


def test_on_demand_round_trip_and_clean_stop(instance: Instance) -> None:
    bus = Bus(instance.cache_dir)
    daemon = start_display(instance)
    try:
        first = bus.wait_for("display_state", lambda s: bool(s and s.get("plugin_id")), 15) or {}
        assert first, daemon.output()
        assert (first["plugin_id"], first["mode"]) == ("alpha", "alpha_one")
        # The first frame comes once alpha is loaded; beta loads after it.
        loaded = bus.wait_for("display_state",
                              lambda s: bool(s and not s.get("loading_plugins")), 15) or {}
        assert loaded.get("loaded_plugins") == ["alpha", "beta"], loaded
        assert (bus.read("hardware_status") or {}).get("cause") == "forced"

        request_id = bus.request(
            "display_on_demand_request",
            {"action": "start", "plugin_id": "beta", "mode": "beta_main", "pinned": True},
        )
        acked = bus.wait_for("display_state",
                             lambda s: on_demand(s).get("request_id") == request_id, 5)
        assert on_demand(acked)["state"] == "active", daemon.output()
        assert acked and acked["plugin_id"] == "beta"
        config = bus.read("display_on_demand_config")
        assert config and config["request_id"] == request_id and config["pinned"] is True

        stop_id = bus.request("display_on_demand_request", {"action": "stop"})
        resumed = bus.wait_for("display_state",
                               lambda s: (s or {}).get("last_request_id") == stop_id, 5)
        assert on_demand(resumed)["state"] == "stopped", daemon.output()
        assert resumed and (resumed["plugin_id"], resumed["mode"]) == ("alpha", "alpha_one")
        assert bus.read("display_on_demand_config") is None
    finally:
        code = daemon.stop()
    assert code == 0, daemon.output()
    assert (bus.read("display_state") or {}).get("service") == "stopped"
    output = daemon.output()
    assert "ledpanel-display 3.8.0 started" in output
    assert "on-demand start: beta/beta_main" in output
    assert "Traceback" not in output


def test_unwritable_cache_dir_exits_non_zero_with_a_clear_message(tmp_path: Path) -> None:
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("a regular file where a directory should be")
    cache_dir = blocker / "cache"
    result = subprocess.run(
        [sys.executable, "-m", "display_service", "--headless",
         "--config-dir", str(tmp_path / "config"), "--cache-dir", str(cache_dir),
         "--plugins-dir", str(tmp_path / "plugins")],
        cwd=ROOT, capture_output=True, text=True, timeout=30,
    )
    assert result.returncode == 2
    assert f"cache directory {cache_dir}" in result.stderr
    assert "cannot start" in result.stderr
    assert "Traceback" not in result.stderr


HUNG_PLUGIN_CODE = textwrap.dedent(
    """
    import threading
    from pathlib import Path

    from shared.plugin_api.base_plugin import BasePlugin


    class HungPlugin(BasePlugin):
        def update(self):
            (Path(__file__).parent / "update-started").touch()
            threading.Event().wait()  # never returns

        def display(self, force_clear=False, display_mode=None):
            self.display_manager.clear()
            self.display_manager.draw_text("hung", x=0, y=0)
            self.display_manager.update_display()
            return True
    """
)


def test_sigterm_exits_0_within_the_units_stop_timeout_while_an_update_hangs(
        tmp_path: Path) -> None:
    instance = Instance(tmp_path)
    add_plugin(instance.plugins_dir, "hung", "HungPlugin", ["hung_main"])
    (instance.plugins_dir / "hung" / "manager.py").write_text(HUNG_PLUGIN_CODE)
    instance.write_config({"hung": {"enabled": True}})
    started = instance.plugins_dir / "hung" / "update-started"
    bus = Bus(instance.cache_dir)
    daemon = start_display(instance)
    try:
        shown = bus.wait_for("display_state", lambda s: bool(s and s.get("plugin_id")), 15)
        assert shown and shown["plugin_id"] == "hung", daemon.output()
        deadline = time.monotonic() + 10
        while not started.exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert started.exists(), daemon.output()
    finally:
        sent = time.monotonic()
        code = daemon.stop(timeout=TIMEOUT_STOP_SEC)
        took = time.monotonic() - sent
    # The unit's TimeoutStopSec; stop() kills (and returns -9) if it is exceeded.
    assert code == 0, daemon.output()
    assert took < TIMEOUT_STOP_SEC
    assert (bus.read("display_state") or {}).get("service") == "stopped"
    assert "Traceback" not in daemon.output()
    assert "Fatal Python error" not in daemon.output()


def test_unreadable_config_runs_on_the_newest_backup_instead_of_exiting(
        instance: Instance) -> None:
    backups = instance.config_dir / "backups"
    backups.mkdir(parents=True)
    good = {"alpha": {"enabled": False}, "beta": {"enabled": True}}
    (backups / "config.json.backup.20260101_000000_000000").write_text("{broken")
    (backups / "config.json.backup.20250101_000000_000000").write_text(json.dumps(good))
    config_file = instance.config_dir / "config.json"
    config_file.write_text('{"alpha": {"enabled": true},,}')
    display = start_display(instance)
    try:
        state = Bus(instance.cache_dir).wait_for(
            "display_state", lambda s: bool(s and s.get("plugin_id")), timeout=20)
        assert state is not None, display.output()
        assert state["plugin_id"] == "beta"  # the backup's config, not the broken file's
        assert "20250101_000000_000000" in state["config_problem"]
        assert "line 1" in state["config_problem"]
    finally:
        assert display.stop() == 0, display.output()
    assert config_file.read_text() == '{"alpha": {"enabled": true},,}'  # left for the user
