"""A plugin's modes changed in its update() reach the rotation, and a plugin's queue of
bus requests runs its update at once (display_service/plugins/inboxes.py)."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

from display_service.plugins.errors import PluginErrors
from display_service.plugins.inboxes import PLUGIN_INBOXES
from display_service.plugins.updates import UpdateScheduler
from shared.bus.core import CUSTOM_APP_REQUEST
from tests.display_service.helpers import (
    ColorPlugin,
    FakeHost,
    make_display,
    running_loop,
    wait_until,
)


class GrowingPlugin(ColorPlugin):
    """Its second update() adds a mode (as a pushed custom app does)."""

    def __init__(self, host_modes: dict[str, list[str]], *args: Any) -> None:
        super().__init__(*args)
        self.host_modes = host_modes
        self.grow = threading.Event()

    def update(self) -> None:
        super().update()
        if self.grow.is_set():
            self.host_modes[self.plugin_id] = ["one", "two"]


def test_a_mode_added_by_update_joins_the_rotation_without_a_config_change(
        tmp_path: Path) -> None:
    display = make_display()
    modes: dict[str, list[str]] = {"g": ["one"]}
    plugin = GrowingPlugin(modes, "g", {}, display)
    host = FakeHost({"g": plugin}, modes=modes)
    host.manifests["g"] = {"update_interval": 1}
    with running_loop(tmp_path, display, host, {"display_durations": {"g": 1}}) as (loop, _):
        wait_until(lambda: plugin.updates >= 1 and "one" in plugin.modes_seen)
        plugin.grow.set()
        wait_until(lambda: "two" in plugin.modes_seen, 10)
        assert [e.mode for e in loop.controller.entries] == ["one", "two"]
        assert host.applied == []  # no config was applied on the way


def test_a_request_queued_for_a_plugin_runs_its_update_at_once(tmp_path: Path) -> None:
    plugin_id = PLUGIN_INBOXES[CUSTOM_APP_REQUEST]
    display = make_display()
    plugin = ColorPlugin(plugin_id, {}, display)
    host = FakeHost({plugin_id: plugin})
    host.manifests[plugin_id] = {"update_interval": 600}
    with running_loop(tmp_path, display, host, watch=False) as (loop, bus):
        watcher = bus.watch([CUSTOM_APP_REQUEST], loop.notify)
        try:
            wait_until(lambda: plugin.updates == 1)
            bus.request(CUSTOM_APP_REQUEST, {"action": "remove", "name": "x"})
            wait_until(lambda: plugin.updates == 2, 5)  # not 600 s later
        finally:
            watcher.stop()


def test_an_update_asked_for_while_one_runs_runs_again_when_it_returns() -> None:
    release, started = threading.Event(), threading.Event()
    calls: list[float] = []

    class Plugin:
        def update(self) -> None:
            calls.append(time.monotonic())
            started.set()
            release.wait(10)

    scheduler = UpdateScheduler(PluginErrors(), time.monotonic)
    try:
        scheduler.sync({"p": Plugin()}, {"p": 600.0}, time.monotonic())
        scheduler.poll(time.monotonic())
        assert started.wait(5)
        scheduler.request("p", time.monotonic())  # a request arrived meanwhile
        release.set()
        wait_until(lambda: not scheduler.busy("p"))
        scheduler.poll(time.monotonic())
        wait_until(lambda: len(calls) == 2, 5)
    finally:
        release.set()
        scheduler.shutdown()
