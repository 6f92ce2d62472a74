"""The display draws its first frame once the plugin it shows first is loaded.

Real daemon over a temporary instance with two enabled plugins: ``afast`` (first in the
rotation) and ``zslow``, whose module blocks its import until the test creates a file
in its folder. The first frame comes while ``zslow`` is still loading (``display_state``
says so); once let go, ``zslow`` loads and joins the rotation. An on-demand left by a
killed display is resumed at start although its plugin is last in the rotation: its
plugin is the one loaded first.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from shared.bus import core as keys
from shared.bus.core import Bus
from tests.daemons import ROOT, Instance, start_display
from tests.display_service.helpers import wait_until

pytestmark = pytest.mark.timeout(120)

PLUGIN = '''\
import time
from pathlib import Path

from src.plugin_system.base_plugin import BasePlugin

if {slow}:  # the test lets the import finish by creating "go" (at most a minute)
    (Path(__file__).parent / "importing").write_text("")
    for _ in range(6000):
        if (Path(__file__).parent / "go").exists():
            break
        time.sleep(0.01)


class Plugin(BasePlugin):
    def update(self):
        pass

    def display(self, force_clear=False):
        self.display_manager.image.paste((0, 90, 0), (0, 0, 4, 4))
        self.display_manager.update_display()
        return True
'''


def write_plugin(plugins_dir: Path, plugin_id: str, *, slow: bool) -> Path:
    folder = plugins_dir / plugin_id
    folder.mkdir(parents=True)
    (folder / "manifest.json").write_text(json.dumps({
        "id": plugin_id, "name": plugin_id, "version": "1.0.0", "author": "test",
        "description": "draws a square", "entry_point": "manager.py", "class_name": "Plugin",
        "display_modes": [plugin_id]}))
    (folder / "manager.py").write_text(PLUGIN.format(slow=slow))
    return folder


def make_instance(base: Path) -> tuple[Instance, Path]:
    instance = Instance(base)
    write_plugin(instance.plugins_dir, "afast", slow=False)
    slow = write_plugin(instance.plugins_dir, "zslow", slow=True)
    config = json.loads((ROOT / "config" / "config.template.json").read_text())
    config["web-ui-info"] = {"enabled": False}
    for plugin_id in ("afast", "zslow"):
        config[plugin_id] = {"enabled": True}
        config.setdefault("display_durations", {})[plugin_id] = 1
    instance.write_config(config)
    return instance, slow


def state(bus: Bus) -> dict[str, Any]:
    return bus.read(keys.DISPLAY_STATE) or {}


def test_first_frame_before_a_slow_plugin_loads_which_joins_the_rotation_after(
        tmp_path: Path) -> None:
    instance, slow = make_instance(tmp_path)
    bus = Bus(instance.cache_dir)
    display = start_display(instance)
    try:
        assert wait_until(lambda: state(bus).get("first_frame_ms") is not None, 30), \
            display.output()
        first = state(bus)
        wait_until(lambda: (slow / "importing").exists(), 30)  # blocked: only "go" ends it
        assert first["plugin_id"] == "afast"
        assert first["loaded_plugins"] == ["afast"]
        assert first["loading_plugins"] == ["zslow"]
        (slow / "go").write_text("")
        assert wait_until(lambda: state(bus).get("loaded_plugins") == ["afast", "zslow"], 30), \
            display.output()
        assert state(bus)["loading_plugins"] == []
        assert wait_until(lambda: state(bus).get("plugin_id") == "zslow", 15), display.output()
    finally:
        (slow / "go").write_text("")
        display.stop()


def test_the_plugin_of_an_on_demand_left_by_a_killed_display_loads_first(
        tmp_path: Path) -> None:
    instance, slow = make_instance(tmp_path)  # "zslow" is last in the rotation
    instance.cache_dir.mkdir(parents=True)
    (instance.cache_dir / "display_on_demand_config.json").write_text(json.dumps({
        "plugin_id": "zslow", "mode": "zslow", "duration": None, "pinned": True,
        "request_id": "left-over", "started_at": 1.0, "ends_at": None}))
    (slow / "go").write_text("")
    bus = Bus(instance.cache_dir)
    display = start_display(instance)
    try:
        wait_until(lambda: state(bus).get("first_frame_ms") is not None, 30)
        first = state(bus)
        assert first["on_demand"]["state"] == "active", first["on_demand"]
        assert (first["showing"], first["plugin_id"]) == ("on_demand", "zslow")
        # Read from the daemon's pipe: the line may come a moment after the record.
        wait_until(lambda: "on-demand resumed after a restart" in display.output(), 10)
    finally:
        display.stop()
