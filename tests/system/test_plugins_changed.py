"""The display follows plugin folders installed, updated and uninstalled, without a restart.

Real daemons over a temporary instance: a plugin folder is placed into (rewritten in,
removed from) ``plugin-repos/`` while both run, the web side's
``notify_plugins_changed`` queues the change, and the display loads, reloads or unloads
the plugin: seen in ``display_state``, in an on-demand session and in the preview's
colours (which come from a helper module inside the plugin's folder).
"""

from __future__ import annotations

import base64
import io
import json
import os
import shutil
import sys
import time
from pathlib import Path
from typing import Any

import pytest
import requests
from PIL import Image

from shared.bus import core as keys
from shared.bus.core import Bus
from tests.daemons import ROOT, Instance, running, start_display
from tests.display_service.helpers import wait_until
from web_service.plugin_notify import applied_outcome, notify_plugins_changed

pytestmark = pytest.mark.timeout(180)

RED, GREEN = (255, 0, 0), (0, 200, 0)

MANAGER = '''\
from pathlib import Path

from src.plugin_system.base_plugin import BasePlugin

from .shade import COLOR

MARK = "{mark}"


class PainterPlugin(BasePlugin):
    def update(self):
        (Path(__file__).parent / "ran.txt").write_text(MARK)

    def display(self, force_clear=False):
        image = self.display_manager.image
        image.paste(COLOR, (0, 0, *image.size))
        self.display_manager.update_display()
        return True
'''


def write_plugin(folder: Path, plugin_id: str, mark: str, color: tuple[int, int, int]) -> None:
    """Write a plugin whose colour lives in a helper module and whose update() leaves a mark."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "manifest.json").write_text(json.dumps({
        "id": plugin_id, "name": plugin_id.title(), "version": mark, "author": "test",
        "description": "fills the panel", "entry_point": "manager.py",
        "class_name": "PainterPlugin", "display_modes": [plugin_id]}))
    (folder / "manager.py").write_text(MANAGER.format(mark=mark))
    (folder / "shade.py").write_text(f"COLOR = {color!r}\n")


def make_instance(base: Path, enabled: list[str]) -> Instance:
    instance = Instance(base)
    instance.plugins_dir.mkdir(parents=True)
    config = json.loads((ROOT / "config" / "config.template.json").read_text())
    config["web-ui-info"] = {"enabled": False}
    for plugin_id in enabled:  # enabled before their folders exist
        config[plugin_id] = {"enabled": True}
        config.setdefault("display_durations", {})[plugin_id] = 2
    instance.write_config(config)
    return instance


def state(instance: Instance) -> dict[str, Any]:
    return Bus(instance.cache_dir).read(keys.DISPLAY_STATE) or {}


def outcome(instance: Instance, request_id: str) -> dict[str, Any]:
    found: dict[str, Any] = {}

    def applied() -> bool:
        found.update(applied_outcome(Bus(instance.cache_dir), request_id) or {})
        return bool(found) and found["result"] != "waiting"

    wait_until(applied, timeout=20)
    return found


def preview_color(url: str) -> tuple[int, int, int] | None:
    data = requests.get(f"{url}/api/v3/display/preview", timeout=5).json()["data"]
    if not data.get("png_base64"):
        return None
    image = Image.open(io.BytesIO(base64.b64decode(data["png_base64"]))).convert("RGB")
    return image.getpixel((1, 1))  # type: ignore[return-value]


def test_display_loads_reloads_and_unloads_a_plugin_without_a_restart(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PYTHONDONTWRITEBYTECODE", raising=False)  # cache bytecode, as deployed
    instance = make_instance(tmp_path, ["painter", "second"])
    bus = Bus(instance.cache_dir)
    painter = instance.plugins_dir / "painter"
    with running(instance) as (display, _web, url):
        wait_until(lambda: state(instance).get("service") == "running", timeout=30)
        pid = state(instance)["pid"]
        assert pid == display.process.pid
        assert "painter" not in state(instance)["loaded_plugins"]

        # Installed: two folders, two requests queued back to back, both applied.
        write_plugin(painter, "painter", "one", RED)
        write_plugin(instance.plugins_dir / "second", "second", "two", GREEN)
        first = notify_plugins_changed(bus, "painter", "installed")
        second = notify_plugins_changed(bus, "second", "installed")
        assert outcome(instance, first)["result"] == "loaded"
        assert outcome(instance, second)["result"] == "loaded"
        assert {"painter", "second"} <= set(state(instance)["loaded_plugins"])
        wait_until(lambda: (painter / "ran.txt").is_file(), timeout=20)
        assert (painter / "ran.txt").read_text() == "one"

        # It shows on demand, in its own colour.
        answer = requests.post(f"{url}/api/v3/display/on-demand/start",
                               json={"plugin_id": "painter", "pinned": True}, timeout=10)
        assert answer.status_code == 200, answer.text
        wait_until(lambda: state(instance).get("plugin_id") == "painter"
                   and preview_color(url) == RED, timeout=20)

        # Updated in place, the helper module too: the new code runs in the same session.
        (painter / "ran.txt").unlink()
        before = (painter / "shade.py").stat()
        write_plugin(painter, "painter", "three", GREEN)
        assert (painter / "shade.py").stat().st_size == before.st_size
        assert list((painter / "__pycache__").glob("shade.*.pyc"))
        # Same size and time as the old helper (a copy keeping mtimes): still reloaded.
        os.utime(painter / "shade.py", ns=(before.st_atime_ns, before.st_mtime_ns))
        updated = notify_plugins_changed(bus, "painter", "updated")
        assert outcome(instance, updated)["result"] == "reloaded"
        wait_until(lambda: preview_color(url) == GREEN, timeout=20)
        wait_until(lambda: (painter / "ran.txt").is_file(), timeout=20)
        assert (painter / "ran.txt").read_text() == "three"
        assert state(instance).get("plugin_id") == "painter"

        # Uninstalled: it leaves the rotation and the on-demand session ends.
        shutil.rmtree(painter)
        gone = notify_plugins_changed(bus, "painter", "uninstalled")
        assert outcome(instance, gone)["result"] == "unloaded"
        wait_until(lambda: "painter" not in state(instance)["loaded_plugins"]
                   and state(instance).get("plugin_id") != "painter", timeout=20)
        assert state(instance)["on_demand"]["plugin_id"] is None  # the session ended
        time.sleep(2.5)  # a whole rotation slot: it never comes back
        assert state(instance).get("plugin_id") != "painter"

        final = state(instance)
        assert final["pid"] == pid and display.process.poll() is None
        assert final["load_errors"] == {}
        errors = bus.read(keys.PLUGIN_ERRORS) or {}
        assert {p for p in errors if not p.startswith(".")} == set()
    output = display.output()
    assert "Traceback" not in output
    assert "painter: installed: loaded" in output
    assert "painter: updated: reloaded" in output
    assert "painter: uninstalled: unloaded" in output


def test_bad_plugins_changed_requests_are_logged_and_ignored(tmp_path: Path) -> None:
    instance = make_instance(tmp_path, ["painter"])
    bus = Bus(instance.cache_dir)
    display = start_display(instance)
    try:
        wait_until(lambda: state(instance).get("service") == "running", timeout=30)
        write_plugin(instance.plugins_dir / "painter", "painter", "one", RED)
        bad = [bus.request(keys.PLUGINS_CHANGED, payload) for payload in (
            {"plugin_id": "../painter", "change": "installed"},
            {"plugin_id": "painter", "change": "exploded"},
            {"plugin_id": 7, "change": "installed"},
            {"change": "installed"},
        )]
        junk = instance.cache_dir / f"{keys.PLUGINS_CHANGED}@{time.time_ns():020d}-junk.json"
        junk.write_text("{not json")
        good = notify_plugins_changed(bus, "painter", "installed")
        assert outcome(instance, good)["result"] == "loaded"
        applied = state(instance)["plugins_applied"]
        assert not set(bad) & set(applied)
        assert "painter" in state(instance)["loaded_plugins"]
        assert display.process.poll() is None
        with pytest.raises(Exception, match="not a plain name"):
            notify_plugins_changed(bus, "../x", "installed")
        with pytest.raises(Exception, match="not one of"):
            notify_plugins_changed(bus, "painter", "exploded")
    finally:
        display.stop()
    output = display.output()
    assert "Traceback" not in output
    assert "'../painter' is not a plain name" in output
    assert "'exploded' is not one of" in output


SLOW = '''\
import threading

from shared.plugin_api.base_plugin import BasePlugin

GENERATION = {generation}


class SlowPlugin(BasePlugin):
    def __init__(self, *args):
        super().__init__(*args)
        self.release = threading.Event()
        self.in_update = threading.Event()
        self.events = []

    def update(self):
        self.events.append("update")
        self.in_update.set()
        self.release.wait(20)
        self.events.append("update returned")

    def on_disable(self):
        self.events.append("on_disable")

    def cleanup(self):
        self.events.append("cleanup")

    def display(self, force_clear=False):
        self.display_manager.image.paste((0, 0, 255), (0, 0, 4, 4))
        self.display_manager.update_display()
        return True
'''


def _write_slow(folder: Path, generation: int) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "manifest.json").write_text(json.dumps({
        "id": "slow", "name": "Slow", "version": f"{generation}.0.0", "author": "test",
        "entry_point": "manager.py", "class_name": "SlowPlugin", "display_modes": ["slow"]}))
    (folder / "manager.py").write_text(SLOW.format(generation=generation))


def test_an_update_waits_for_the_running_update_then_reloads(tmp_path: Path) -> None:
    from shared.paths import Paths
    from shared.plugin_system.manager import PluginManager
    from tests.display_service.helpers import make_display, running_loop

    paths = Paths(root=tmp_path, config_dir=tmp_path / "config", cache_dir=tmp_path / "cache")
    folder = paths.plugins_dir() / "slow"
    _write_slow(folder, 1)
    config = {"slow": {"enabled": True}}
    display = make_display()
    manager = PluginManager(paths, config, display_manager=display)
    manager.load_enabled()
    old = manager.instances["slow"]
    with running_loop(tmp_path, display, manager, config) as (loop, bus):
        try:
            assert old.in_update.wait(10), "the first update() never started"
            _write_slow(folder, 2)
            request_id = notify_plugins_changed(bus, "slow", "updated")
            loop.notify(keys.PLUGINS_CHANGED)  # what the daemon's bus watch does
            wait_until(lambda: (applied_outcome(bus, request_id) or {}).get("result")
                       == "waiting", timeout=10)
            time.sleep(0.3)  # the loop keeps turning: still nothing done to it
            assert old.events == ["update"] and manager.instances["slow"] is old
        finally:
            old.release.set()
        wait_until(lambda: (applied_outcome(bus, request_id) or {}).get("result")
                   == "reloaded", timeout=10)
        new = manager.instances["slow"]
        assert new is not old
        assert sys.modules[type(new).__module__].GENERATION == 2  # type: ignore[attr-defined]
        new.release.set()
    assert old.events == ["update", "update returned", "on_disable", "cleanup"]
