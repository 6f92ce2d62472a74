"""A plugin's lifecycle hooks never run while its own update() is in flight.

The render loop runs over the real ``PluginManager`` and real plugin folders; the
``slow`` plugin's first update() blocks on an event while config reloads arrive.
"""

from __future__ import annotations

import json
import textwrap
import threading
import time
from pathlib import Path
from typing import Any

from display_service.plugins.errors import PluginErrors
from display_service.plugins.updates import UpdateScheduler
from shared.bus.core import Bus
from shared.paths import Paths
from shared.plugin_system.manager import PluginManager
from tests.display_service.helpers import make_display, running_loop, wait_until

SLOW_CODE = """
import threading

from shared.plugin_api.base_plugin import BasePlugin


class SlowPlugin(BasePlugin):
    def __init__(self, *args):
        super().__init__(*args)
        self.release = threading.Event()   # the first update() waits for this
        self.in_update = threading.Event()
        self.events = []                   # (hook, detail) in the order entered
        self.overlaps = []                 # hooks entered while another was running
        self.hook_threads = set()
        self.display_threads = set()
        self.displays = 0
        self.updates = 0
        self._active = None
        self._lock = threading.Lock()

    def _enter(self, hook, detail=None):
        with self._lock:
            if self._active is not None:
                self.overlaps.append((hook, self._active))
            self._active = hook
            self.events.append((hook, detail))

    def _leave(self):
        with self._lock:
            self._active = None

    def update(self):
        self._enter("update")
        try:
            self.in_update.set()
            self.release.wait(20)
            self.updates += 1
        finally:
            self._leave()

    def on_config_change(self, new_config):
        self._enter("on_config_change", new_config.get("message"))
        self.hook_threads.add(threading.get_ident())
        super().on_config_change(new_config)
        self._leave()

    def on_disable(self):
        self._enter("on_disable")
        super().on_disable()
        self._leave()

    def cleanup(self):
        self._enter("cleanup")
        self.hook_threads.add(threading.get_ident())
        self._leave()

    def display(self, force_clear=False):
        self.display_threads.add(threading.get_ident())
        self.displays += 1
        self.display_manager.image.paste((0, 0, 255), (0, 0, 4, 4))
        self.display_manager.update_display()
        return True
"""

QUICK_CODE = """
from shared.plugin_api.base_plugin import BasePlugin


class QuickPlugin(BasePlugin):
    displays = 0

    def update(self):
        pass

    def display(self, force_clear=False):
        self.displays += 1
        self.display_manager.image.paste((0, 255, 0), (0, 0, 4, 4))
        self.display_manager.update_display()
        return True
"""

SCHEMA = {
    "type": "object",
    "properties": {
        "enabled": {"type": "boolean", "default": False},
        "message": {"type": "string", "default": "hi"},
    },
}


def _write_plugin(plugins_dir: Path, plugin_id: str, class_name: str, code: str) -> None:
    directory = plugins_dir / plugin_id
    directory.mkdir(parents=True)
    (directory / "manifest.json").write_text(json.dumps({
        "id": plugin_id, "name": plugin_id, "version": "1.0.0", "author": "tests",
        "entry_point": "manager.py", "class_name": class_name,
        "display_modes": [plugin_id], "compatible_versions": [">=3.0.0"],
    }))
    (directory / "config_schema.json").write_text(json.dumps(SCHEMA))
    (directory / "manager.py").write_text(textwrap.dedent(code))


def _config(message: str, *, slow_enabled: bool = True) -> dict[str, Any]:
    return {
        "display_durations": {"quick": 0.3, "slow": 0.3},
        "quick": {"enabled": True},
        "slow": {"enabled": slow_enabled, "message": message},
    }


def _manager(tmp_path: Path, config: dict[str, Any], display: Any) -> PluginManager:
    paths = Paths(root=tmp_path, config_dir=tmp_path / "config", cache_dir=tmp_path / "cache")
    plugins_dir = paths.plugins_dir()
    _write_plugin(plugins_dir, "slow", "SlowPlugin", SLOW_CODE)
    _write_plugin(plugins_dir, "quick", "QuickPlugin", QUICK_CODE)
    manager = PluginManager(paths, config, display_manager=display)
    manager.load_enabled()
    assert sorted(manager.instances) == ["quick", "slow"]
    return manager


def _state(bus: Bus) -> dict[str, Any]:
    return bus.read("display_state") or {}


def _reload(bus: Bus, current: dict[str, Any], config: dict[str, Any], seq: int) -> None:
    """Publish a config change and wait until the render thread has applied it."""
    current.clear()
    current.update(config)
    bus.publish("config_changed", {"seq": seq, "sections": ["slow"]})
    wait_until(lambda: _state(bus).get("config_seq") == seq, timeout=10)


def _on_demand_answered(bus: Bus, plugin_id: str) -> None:
    request_id = bus.request(
        "display_on_demand_request", {"action": "start", "plugin_id": plugin_id, "pinned": True}
    )
    acked = bus.wait_for(
        "display_state", lambda s: (s or {}).get("last_request_id") == request_id, 10
    ) or {}
    assert acked["on_demand"]["state"] == "active"
    assert acked["plugin_id"] == plugin_id
    stop_id = bus.request("display_on_demand_request", {"action": "stop"})
    assert bus.wait_for(
        "display_state", lambda s: (s or {}).get("last_request_id") == stop_id, 10
    )


def test_on_config_change_waits_for_a_running_update_and_gets_the_newest_config(
    tmp_path: Path,
) -> None:
    display = make_display()
    current = _config("one")
    manager = _manager(tmp_path, dict(current), display)
    slow = manager.instances["slow"]
    with running_loop(tmp_path, display, manager, dict(current),
                      load_config=lambda: dict(current)) as (_loop, bus):
        try:
            assert slow.in_update.wait(10), "the first update() never started"
            _reload(bus, current, _config("two"), seq=2)
            _reload(bus, current, _config("three"), seq=3)
            # The render thread went on while update() was blocked...
            quick, shown = manager.instances["quick"], slow.displays
            drawn = quick.displays
            _on_demand_answered(bus, "quick")
            _on_demand_answered(bus, "slow")
            wait_until(lambda: quick.displays > drawn and slow.displays > shown, timeout=10)
            # ...but did not call the hook while update() ran.
            assert [e for e in slow.events if e[0] != "update"] == []
        finally:
            slow.release.set()
        wait_until(lambda: ("on_config_change", "three") in slow.events, timeout=10)
        wait_until(lambda: slow.updates >= 2, timeout=10)  # a config change asks for an update
    assert slow.overlaps == []
    hooks = [e for e in slow.events if e[0] == "on_config_change"]
    assert hooks == [("on_config_change", "three")]  # the newest config only, once
    first_update_done = slow.events.index(("update", None))
    assert slow.events.index(("on_config_change", "three")) > first_update_done
    assert slow.config["message"] == "three"
    assert slow.hook_threads <= slow.display_threads  # delivered on the render thread


def test_disabling_a_plugin_mid_update_cleans_it_up_after_the_update(tmp_path: Path) -> None:
    display = make_display()
    current = _config("one")
    manager = _manager(tmp_path, dict(current), display)
    slow = manager.instances["slow"]
    with running_loop(tmp_path, display, manager, dict(current),
                      load_config=lambda: dict(current)) as (_loop, bus):
        try:
            assert slow.in_update.wait(10), "the first update() never started"
            _reload(bus, current, _config("one", slow_enabled=False), seq=2)
            quick = manager.instances["quick"]
            drawn = quick.displays
            _on_demand_answered(bus, "quick")
            wait_until(lambda: quick.displays > drawn + 1, timeout=10)
            assert [e for e in slow.events if e[0] != "update"] == []
            assert "slow" in _state(bus)["loaded_plugins"]  # still loaded until update returns
        finally:
            slow.release.set()
        wait_until(lambda: _state(bus).get("loaded_plugins") == ["quick"], timeout=10)
    assert slow.overlaps == []
    assert [e[0] for e in slow.events] == ["update", "on_disable", "cleanup"]
    assert "slow" not in manager.instances


def test_shutdown_does_not_clean_up_a_plugin_whose_update_still_runs(tmp_path: Path) -> None:
    display = make_display()
    current = _config("one")
    manager = _manager(tmp_path, dict(current), display)
    slow = manager.instances["slow"]
    try:
        with running_loop(tmp_path, display, manager, dict(current)):
            assert slow.in_update.wait(10), "the first update() never started"
        assert slow.overlaps == []
        assert [e[0] for e in slow.events] == ["update"]  # no cleanup while update() runs
        assert manager.instances == {}
    finally:
        slow.release.set()


def test_hooks_held_back_for_a_busy_plugin_are_delivered_later_newest_only(
    tmp_path: Path,
) -> None:
    display = make_display()
    manager = _manager(tmp_path, _config("one"), display)
    slow = manager.instances["slow"]
    busy = {"slow"}

    assert manager.apply_config(_config("two"), busy=busy.__contains__) == []
    assert manager.apply_config(_config("three"), busy=busy.__contains__) == []
    assert manager.deferred == {"slow"}
    assert slow.events == []
    assert manager.apply_deferred(busy=busy.__contains__) == []  # still busy

    busy.clear()
    assert manager.apply_deferred(busy=busy.__contains__) == ["slow"]
    assert slow.events == [("on_config_change", "three")]
    assert manager.deferred == set()
    assert manager.apply_deferred(busy=busy.__contains__) == []


def test_a_held_back_change_that_was_reverted_delivers_nothing(tmp_path: Path) -> None:
    display = make_display()
    manager = _manager(tmp_path, _config("one"), display)
    slow = manager.instances["slow"]
    manager.apply_config(_config("two"), busy=lambda _p: True)
    manager.apply_config(_config("one"), busy=lambda _p: True)
    assert manager.apply_deferred(busy=lambda _p: False) == []
    assert slow.events == []


def test_the_scheduler_says_busy_holds_back_and_wakes_when_an_update_returns() -> None:
    release, woken = threading.Event(), threading.Event()

    class Plugin:
        def update(self) -> None:
            release.wait(10)

    scheduler = UpdateScheduler(PluginErrors(), time.monotonic, on_done=woken.set)
    try:
        scheduler.sync({"p": Plugin()}, {}, time.monotonic())
        scheduler.poll(time.monotonic(), hold={"p"})
        assert not scheduler.busy("p")  # held back: not started
        scheduler.poll(time.monotonic())
        assert scheduler.busy("p")
        assert not woken.is_set()
        release.set()
        assert woken.wait(10)
        assert not scheduler.busy("p")
        assert scheduler.runs("p") == 1
    finally:
        release.set()
        scheduler.shutdown()


def test_a_disabled_plugin_with_a_hung_update_leaves_the_rotation_at_once(
    tmp_path: Path,
) -> None:
    display = make_display()
    current = _config("one")
    manager = _manager(tmp_path, dict(current), display)
    slow, quick = manager.instances["slow"], manager.instances["quick"]
    with running_loop(tmp_path, display, manager, dict(current),
                      load_config=lambda: dict(current)) as (_loop, bus):
        try:
            assert slow.in_update.wait(10), "the first update() never started"
            wait_until(lambda: slow.displays >= 1, timeout=10)
            _reload(bus, current, _config("one", slow_enabled=False), seq=2)
            shown, drawn = slow.displays, quick.displays
            wait_until(lambda: quick.displays >= drawn + 4, timeout=10)  # several rounds
            assert slow.displays == shown  # not in the rotation any more...
            request_id = bus.request("display_on_demand_request",
                                     {"action": "start", "plugin_id": "slow"})
            refused = bus.wait_for(
                "display_state", lambda s: (s or {}).get("last_request_id") == request_id, 10
            ) or {}
            assert refused["on_demand"]["state"] == "error"  # ...nor on demand
            assert "slow" in refused["loaded_plugins"]  # but loaded until update() returns
            assert [e for e in slow.events if e[0] != "update"] == []
        finally:
            slow.release.set()
        wait_until(lambda: _state(bus).get("loaded_plugins") == ["quick"], timeout=10)
    assert [e[0] for e in slow.events] == ["update", "on_disable", "cleanup"]
