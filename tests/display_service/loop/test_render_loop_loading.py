"""Plugins queued at start load between frames; an on-demand for one loads it at once."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

from tests.display_service.helpers import (
    ColorPlugin,
    FakeHost,
    make_display,
    running_loop,
    state,
    wait_until,
)


class QueueHost(FakeHost):
    """A host with plugins still queued; ``load_next`` loads only once ``go`` is set."""

    def __init__(self, plugins: dict[str, Any], queued: dict[str, Any]) -> None:
        super().__init__(plugins)
        self.queued = dict(queued)
        self.loading = list(queued)
        self.go = threading.Event()

    def load_next(self, count: int = 1) -> list[str]:
        if not self.go.wait(0.02):
            return []
        ids, self.loading = self.loading[:count], self.loading[count:]
        return [self._load(plugin_id) for plugin_id in ids]

    def load_now(self, plugin_id: str) -> list[str]:
        self.loading.remove(plugin_id)
        return [self._load(plugin_id)]

    def _load(self, plugin_id: str) -> str:
        self.instances[plugin_id] = self.queued[plugin_id]
        return plugin_id


def test_queued_plugins_are_told_as_loading_and_join_the_rotation_once_loaded(
        tmp_path: Path) -> None:
    display = make_display()
    host = QueueHost({"a": ColorPlugin("a", {}, display)}, {"b": ColorPlugin("b", {}, display)})
    config = {"display_durations": {"a": 1, "b": 1}}
    with running_loop(tmp_path, display, host, config) as (_loop, bus):
        first = wait_until(lambda: state(bus) if state(bus).get("plugin_id") == "a" else None)
        assert (first["loaded_plugins"], first["loading_plugins"]) == (["a"], ["b"])
        host.go.set()
        wait_until(lambda: state(bus).get("loading_plugins") == [])
        assert state(bus)["loaded_plugins"] == ["a", "b"]
        wait_until(lambda: state(bus).get("plugin_id") == "b")


def test_an_on_demand_for_a_queued_plugin_loads_it_at_once(tmp_path: Path) -> None:
    display = make_display()
    host = QueueHost({"a": ColorPlugin("a", {}, display)}, {"b": ColorPlugin("b", {}, display)})
    with running_loop(tmp_path, display, host) as (_loop, bus):
        wait_until(lambda: state(bus).get("plugin_id") == "a")
        request_id = bus.request("display_on_demand_request",
                                 {"action": "start", "plugin_id": "b", "pinned": True})
        answered = bus.wait_for(
            "display_state", lambda s: request_id in ((s or {}).get("requests") or {}), 5
        ) or {}
    assert answered["requests"][request_id]["state"] == "active"
    assert answered["plugin_id"] == "b"
    assert answered["loading_plugins"] == []
