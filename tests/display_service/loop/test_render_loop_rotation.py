"""Live priority, dynamic duration and the full-screen seam in the running render loop."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from PIL import Image

from display_service.matrix.double_sided import DoubleSidedBackend, wrap_double_sided
from display_service.matrix.headless import HeadlessMatrix
from tests.display_service.helpers import (
    ColorPlugin,
    FakeHost,
    FastPlugin,
    make_display,
    running_loop,
    state,
    wait_until,
)


class LivePlugin(ColorPlugin):
    """Goes live when its update() finds ``go_live`` set."""

    color = (0, 255, 0)

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.go_live = False
        self.live = False

    def update(self) -> None:
        super().update()
        self.live = self.go_live

    def has_live_content(self) -> bool:
        return self.live

    def get_live_modes(self) -> list[str]:
        return ["live_game"]


class CyclePlugin(FastPlugin):
    """Completes its cycle after ``frames_per_cycle`` frames."""

    frames_per_cycle = 5

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.resets = 0
        self.frames = 0

    def reset_cycle_state(self) -> None:
        super().reset_cycle_state()
        self.resets += 1
        self.frames = 0

    def display(self, force_clear: bool = False, display_mode: str | None = None) -> bool:
        self.frames += 1
        if self.frames >= self.frames_per_cycle:
            self.mark_cycle_complete()
        return super().display(force_clear, display_mode)


def test_live_content_takes_over_and_the_rotation_resumes_where_it_left_off(
        tmp_path: Path) -> None:
    display = make_display()
    plain = ColorPlugin("a", {}, display)
    live = LivePlugin("z", {"live_priority": True}, display)
    host = FakeHost({"a": plain, "z": live}, modes={"z": ["z_main", "live_game"]})
    host.manifests["z"] = {"update_interval": 1}
    config = {"display_durations": {"a": 60, "z": 60}}
    with running_loop(tmp_path, display, host, config) as (_loop, bus):
        wait_until(lambda: state(bus).get("plugin_id") == "a")
        live.go_live = True  # found by the next update(), within a second
        record = wait_until(lambda: state(bus).get("showing") == "live" and state(bus), 5)
        assert (record["plugin_id"], record["mode"]) == ("z", "live_game")
        assert record["live_plugins"] == ["z"]
        live.go_live = False
        back = wait_until(lambda: state(bus).get("showing") == "rotation" and state(bus), 5)
    assert back["plugin_id"] == "a"  # not z_main: where the rotation left off


def test_a_plugin_without_live_priority_in_its_config_never_takes_over(
        tmp_path: Path) -> None:
    display = make_display()
    live = LivePlugin("z", {}, display)
    live.go_live = True
    host = FakeHost({"a": ColorPlugin("a", {}, display), "z": live})
    host.manifests["z"] = {"update_interval": 1}
    with running_loop(tmp_path, display, host, {"display_durations": {"a": 60}}) as (_l, bus):
        wait_until(lambda: live.updates >= 2, timeout=5)
        assert state(bus).get("showing") == "rotation"
        assert state(bus).get("plugin_id") == "a"


def test_a_dynamic_entry_moves_on_when_its_cycle_completes(tmp_path: Path) -> None:
    display = make_display()
    cycling = CyclePlugin("c", {"dynamic_duration": {"enabled": True}}, display)
    other = ColorPlugin("d", {}, display)
    host = FakeHost({"c": cycling, "d": other})
    config = {"display_durations": {"c": 60, "d": 0.3}}
    with running_loop(tmp_path, display, host, config):
        wait_until(lambda: other.displays >= 1, timeout=3)  # long before c's 60 s
        wait_until(lambda: cycling.resets >= 2, timeout=3)  # its next slot, reset again
    assert 1 <= cycling.frames <= CyclePlugin.frames_per_cycle


def test_a_dynamic_entry_that_never_completes_ends_at_its_cap(tmp_path: Path) -> None:
    display = make_display()
    endless = FastPlugin("c", {"dynamic_duration": {"enabled": True,
                                                    "max_duration_seconds": 0.3}}, display)
    other = ColorPlugin("d", {}, display)
    host = FakeHost({"c": endless, "d": other})
    with running_loop(tmp_path, display, host, {"display_durations": {"c": 60, "d": 60}}):
        started = time.monotonic()
        wait_until(lambda: other.displays >= 1, timeout=3)
    assert time.monotonic() - started < 2.0


class Ticker:
    """A full-screen mode that counts the frames it is asked for."""

    def __init__(self) -> None:
        self.on = True
        self.frames = 0
        self.configured = 0

    def configure(self, config: dict[str, Any]) -> None:
        self.configured += 1

    def active(self) -> bool:
        return self.on

    def render(self, now: float, force: bool) -> float:
        self.frames += 1
        return now + 0.02


def test_a_full_screen_mode_replaces_the_rotation_but_not_on_demand(tmp_path: Path) -> None:
    display = make_display()
    plugin = ColorPlugin("a", {}, display)
    ticker = Ticker()
    with running_loop(tmp_path, display, FakeHost({"a": plugin}),
                      full_screen=ticker) as (_loop, bus):
        wait_until(lambda: ticker.frames >= 5)
        assert plugin.displays == 0 and ticker.configured == 1
        assert wait_until(lambda: state(bus).get("showing") == "full_screen")
        bus.request("display_on_demand_request", {"action": "start", "plugin_id": "a"})
        wait_until(lambda: plugin.displays >= 1)
        assert wait_until(lambda: state(bus).get("showing") == "on_demand")


def test_double_sided_halves_the_surface_and_shows_each_frame_on_both_halves() -> None:
    panel = HeadlessMatrix(32, 8)
    backend = wrap_double_sided(panel, {"display": {"double_sided": True}})
    assert isinstance(backend, DoubleSidedBackend)
    assert (backend.width, backend.height) == (16, 8)
    frame = Image.new("RGB", (16, 8))
    frame.putpixel((0, 0), (255, 0, 0))
    backend.show(frame)
    pushed = panel.last_frame
    assert pushed is not None and pushed.size == (32, 8)
    assert pushed.getpixel((0, 0)) == pushed.getpixel((16, 0)) == (255, 0, 0)
    backend.brightness = 40
    assert panel.brightness == 40


def test_double_sided_is_off_unless_true_and_needs_an_even_width() -> None:
    assert wrap_double_sided(panel := HeadlessMatrix(32, 8), {}) is panel
    assert wrap_double_sided(panel, {"display": {"double_sided": "yes"}}) is panel
    odd = HeadlessMatrix(31, 8)
    assert wrap_double_sided(odd, {"display": {"double_sided": True}}) is odd
