"""One misbehaving plugin never stops the rotation, spins the loop or leaves a stale frame."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import pytest

from tests.display_service.helpers import (
    ColorPlugin,
    EmptyPlugin,
    FakeHost,
    RaisingPlugin,
    make_display,
    running_loop,
    state,
    wait_until,
)


def errors(bus: Any) -> dict[str, Any]:
    return bus.read("plugin_errors") or {}


def lit(display: Any) -> bool:
    """Return True when the headless panel shows anything but black."""
    frame = display.backend.last_frame
    return frame is not None and frame.getbbox() is not None


# -- dynamic duration ---------------------------------------------------------


class DoneAtOncePlugin(ColorPlugin):
    """A dynamic-duration plugin whose cycle is always complete."""

    def supports_dynamic_duration(self) -> bool:
        return True

    def is_cycle_complete(self) -> bool:
        return True


@pytest.mark.parametrize("count", [1, 2])
def test_plugins_whose_cycle_is_complete_at_once_do_not_spin_the_loop(
        tmp_path: Path, count: int) -> None:
    display = make_display()
    plugins = {f"d{i}": DoneAtOncePlugin(f"d{i}", {}, display) for i in range(count)}
    with running_loop(tmp_path, display, FakeHost(plugins)):
        wait_until(lambda: sum(p.displays for p in plugins.values()) >= 1)
        time.sleep(1.0)
        calls = sum(p.displays for p in plugins.values())
    # Static content, one slot of at least a second each: a handful, not thousands.
    assert 1 <= calls < 50, calls


# -- update() ---------------------------------------------------------------


class HungUpdatePlugin(ColorPlugin):
    """update() blocks until ``release`` is set (at the end of the test)."""

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.release = threading.Event()

    def update(self) -> None:
        super().update()
        self.release.wait()


def test_hung_updates_stall_only_their_own_plugins(tmp_path: Path) -> None:
    display = make_display()
    hung = {p: HungUpdatePlugin(p, {}, display) for p in ("hung1", "hung2")}
    healthy = ColorPlugin("healthy", {}, display)
    host = FakeHost({**hung, "healthy": healthy})  # the hung ones come first
    host.manifests["healthy"] = {"update_interval": 1}
    config = {"display_durations": {"hung1": 0.2, "hung2": 0.2, "healthy": 0.2}}
    try:
        with running_loop(tmp_path, display, host, config, update_budget=0.5) as (loop, bus):
            wait_until(lambda: all(loop.updates.is_overrun(p) for p in hung), timeout=10)
            updated, drawn = healthy.updates, healthy.displays
            wait_until(lambda: healthy.updates >= updated + 2, timeout=10)  # on its schedule
            wait_until(lambda: healthy.displays >= drawn + 3, timeout=10)
            assert not loop.updates.is_overrun("healthy")
            recorded = wait_until(lambda: all(p in errors(bus) for p in hung) and errors(bus))
            assert all("still running" in recorded[p]["last_error"] for p in hung)
            assert "healthy" not in recorded
            assert all(p.updates == 1 for p in hung.values())
    finally:
        for plugin in hung.values():
            plugin.release.set()


# -- slow display() -----------------------------------------------------------


class SlowDisplayPlugin(ColorPlugin):
    """display() takes longer than the static budget (0.5 s)."""

    def display(self, force_clear: bool = False, display_mode: str | None = None) -> bool:
        time.sleep(0.6)
        return super().display(force_clear, display_mode)


def test_a_plugin_with_slow_display_calls_is_recorded_then_skipped(tmp_path: Path) -> None:
    display = make_display()
    slow, other = SlowDisplayPlugin("a_slow", {}, display), ColorPlugin("b", {}, display)
    config = {"display_durations": {"a_slow": 60, "b": 0.3}}  # the rotation keeps coming back
    with running_loop(tmp_path, display, FakeHost({"a_slow": slow, "b": other}),
                      config) as (_loop, bus):
        wait_until(lambda: other.displays >= 1, timeout=10)  # long before a_slow's 60 s
        record = wait_until(lambda: errors(bus).get("a_slow"))
        calls = slow.displays
        wait_until(lambda: other.displays >= 3, timeout=10)
        assert slow.displays == calls  # skipped, not retried at once
        assert wait_until(lambda: state(bus).get("plugin_id") == "b")
    assert calls == 3
    assert record["where"] == "display"
    assert record["last_error"].startswith("display() took ")
    assert "skipped for 30 s" in record["last_error"]


# -- stale frames -------------------------------------------------------------


class GoneAfterOncePlugin(ColorPlugin):
    """Draws once, then has nothing to show (a game that ended)."""

    def display(self, force_clear: bool = False, display_mode: str | None = None) -> bool:
        if self.displays:
            self.displays += 1
            return False
        return super().display(force_clear, display_mode)


def test_the_panel_is_blanked_when_a_whole_round_draws_nothing(tmp_path: Path) -> None:
    display = make_display()
    gone = GoneAfterOncePlugin("gone", {}, display)
    plugins = {"empty": EmptyPlugin("empty", {}, display), "gone": gone}
    with running_loop(tmp_path, display, FakeHost(plugins),
                      {"display_durations": {"empty": 60, "gone": 60}}):
        wait_until(lambda: gone.displays >= 1 and lit(display))
        wait_until(lambda: gone.displays >= 2)
        wait_until(lambda: not lit(display), timeout=3)


@pytest.mark.parametrize("plugin_class", [RaisingPlugin, EmptyPlugin])
def test_on_demand_of_a_plugin_that_draws_nothing_blanks_the_panel(
        tmp_path: Path, plugin_class: type[ColorPlugin]) -> None:
    display = make_display()
    shown, nothing = ColorPlugin("a", {}, display), plugin_class("z", {}, display)
    host = FakeHost({"a": shown, "z": nothing})
    with running_loop(tmp_path, display, host, {"display_durations": {"a": 60}}) as (_l, bus):
        wait_until(lambda: shown.displays >= 1 and lit(display))
        bus.request("display_on_demand_request",
                    {"action": "start", "plugin_id": "z", "pinned": True})
        wait_until(lambda: nothing.displays >= 1)
        wait_until(lambda: not lit(display), timeout=3)
        wait_until(lambda: state(bus).get("showing") == "on_demand")
        time.sleep(0.3)
        assert not lit(display)  # and it stays blank


class LateContentPlugin(ColorPlugin):
    """Has nothing for its first two frames, then draws; records ``force_clear``."""

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.forced: list[bool] = []

    def display(self, force_clear: bool = False, display_mode: str | None = None) -> bool:
        self.forced.append(force_clear)
        if len(self.forced) <= 2:
            self.displays += 1
            return False
        return super().display(force_clear, display_mode)


def test_after_the_panel_was_blanked_the_plugin_redraws_in_full(tmp_path: Path) -> None:
    display = make_display()
    shown, late = ColorPlugin("a", {}, display), LateContentPlugin("z", {}, display)
    host = FakeHost({"a": shown, "z": late})
    with running_loop(tmp_path, display, host, {"display_durations": {"a": 60}}) as (_l, bus):
        wait_until(lambda: shown.displays >= 1 and lit(display))
        bus.request("display_on_demand_request",
                    {"action": "start", "plugin_id": "z", "pinned": True})
        wait_until(lambda: late.displays >= 3 and lit(display), timeout=5)
    assert late.forced[:3] == [True, True, True]  # the panel it draws on was cleared
