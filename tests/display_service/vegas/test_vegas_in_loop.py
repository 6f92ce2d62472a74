"""The real Vegas ticker inside the real render loop: layers above it, config, state."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from display_service.matrix.headless import HeadlessMatrix
from display_service.plugins.display_manager import DisplayManager
from display_service.vegas import VegasMode
from tests.display_service.helpers import (
    ColorPlugin,
    FakeHost,
    make_display,
    running_loop,
    state,
    wait_until,
)
from tests.display_service.loop.test_render_loop_rotation import LivePlugin
from tests.display_service.vegas.fakes import vegas_config

WIDTH, HEIGHT = 16, 8
GREEN = (0, 255, 0)


class TickerPlugin(ColorPlugin):
    """Its Vegas content is a 200 px strip whose every column differs: (x, 0, 255)."""

    def get_vegas_content(self) -> Image.Image:
        strip = Image.new("RGB", (200, HEIGHT))
        for x in range(200):
            strip.paste((x, 0, 255), (x, 0, x + 1, HEIGHT))
        return strip


class Recorder:
    """Keep every frame the display pushes to the (headless) panel, in order."""

    def __init__(self, display: DisplayManager) -> None:
        self.frames: list[Image.Image] = []
        backend = panel(display)
        show = backend.show

        def record(image: Image.Image) -> None:
            show(image)
            assert backend.last_frame is not None
            self.frames.append(backend.last_frame)

        backend.show = record  # type: ignore[method-assign]

    def since(self, start: int) -> list[Image.Image]:
        return list(self.frames[start:])

    def after(self, color: tuple[int, int, int], count: int) -> list[Image.Image] | None:
        """Return the frames once ``count`` came after the last all-``color`` one."""
        frames = self.since(0)
        marked = [i for i, frame in enumerate(frames) if solid(frame, color)]
        return frames if marked and len(frames) > marked[-1] + count else None


def panel(display: DisplayManager) -> HeadlessMatrix:
    backend = display.backend
    assert isinstance(backend, HeadlessMatrix)
    return backend


def solid(image: Image.Image | None, color: tuple[int, int, int]) -> bool:
    return image is not None and image.getcolors(1) == [(WIDTH * HEIGHT, color)]


def ticker_columns(image: Image.Image) -> int:
    """Count the columns showing the ticker plugin's strip (blue 255)."""
    pixels = [image.getpixel((x, 0)) for x in range(WIDTH)]
    return sum(isinstance(p, tuple) and p[1:] == (0, 255) for p in pixels)


def _setup(**settings: Any) -> tuple[DisplayManager, FakeHost, dict[str, Any], VegasMode]:
    """A 16x8 panel; ``t`` joins the ticker, ``b`` (green) is only in the rotation."""
    display = make_display(WIDTH, HEIGHT)
    config: dict[str, Any] = {
        **vegas_config(**settings),
        "b": {"vegas_include": False}, "z": {"vegas_include": False, "live_priority": True},
        "display_durations": {"b": 60, "t": 60, "z": 60},
    }
    other = ColorPlugin("b", config["b"], display)
    other.color = GREEN
    host = FakeHost({"t": TickerPlugin("t", {}, display), "b": other})
    return display, host, config, VegasMode(display, lambda: host.instances, config)


def test_on_demand_shows_over_vegas_and_the_ticker_resumes_where_it_stopped(
        tmp_path: Path) -> None:
    display, host, config, vegas = _setup()
    recorder = Recorder(display)
    with running_loop(tmp_path, display, host, config, full_screen=vegas) as (_loop, bus):
        wait_until(lambda: any(ticker_columns(f) > 4 for f in recorder.since(0)))
        bus.request("display_on_demand_request", {"action": "start", "plugin_id": "b"})
        record = wait_until(lambda: state(bus).get("showing") == "on_demand" and state(bus))
        assert record["plugin_id"] == "b"
        wait_until(lambda: any(solid(f, GREEN) for f in recorder.since(0)))
        time.sleep(0.3)  # the ticker would have moved 15 px meanwhile
        bus.request("display_on_demand_request", {"action": "stop"})
        wait_until(lambda: state(bus).get("showing") == "full_screen")
        frames = wait_until(lambda: recorder.after(GREEN, 2))
    green = [i for i, f in enumerate(frames) if solid(f, GREEN)]
    before, after = frames[green[0] - 1], frames[green[-1] + 1]
    assert ticker_columns(before) > 0
    assert after.tobytes() == before.tobytes()  # resumed, not restarted or skipped ahead
    later = frames[green[-1] + 2]
    assert ticker_columns(later) > 0 and later.tobytes() != after.tobytes()  # scrolling on


@pytest.mark.parametrize("content", [True, False], ids=["scrolling", "blank"])
def test_a_brightness_change_is_applied_while_vegas_runs(tmp_path: Path, content: bool) -> None:
    display, host, config, vegas = _setup()
    if not content:
        host.instances.pop("t")
    current = {**config, "brightness": 80}
    with running_loop(tmp_path, display, host, dict(current), full_screen=vegas,
                      load_config=lambda: dict(current)) as (_loop, bus):
        wait_until(lambda: state(bus).get("showing") == "full_screen")
        wait_until(lambda: panel(display).brightness == 80)
        time.sleep(0.3)  # well into the ticker's pacing (or its idle wait)
        current["brightness"] = 30
        asked = time.monotonic()
        bus.publish("config_changed", {"seq": 2, "sections": ["brightness"]})
        wait_until(lambda: panel(display).brightness == 30, timeout=5)
        assert time.monotonic() - asked < 0.5  # at the loop's next wake, not the ticker's
        assert wait_until(lambda: state(bus).get("config_seq") == 2 and state(bus))[
            "showing"] == "full_screen"


def test_disabling_vegas_in_the_config_returns_to_the_rotation(tmp_path: Path) -> None:
    display, host, config, vegas = _setup()
    current = dict(config)
    with running_loop(tmp_path, display, host, dict(current), full_screen=vegas,
                      load_config=lambda: dict(current)) as (_loop, bus):
        wait_until(lambda: state(bus).get("showing") == "full_screen")
        current["vegas_scroll"] = {**config["vegas_scroll"], "enabled": False}
        bus.publish("config_changed", {"seq": 2, "sections": ["vegas_scroll"]})
        record = wait_until(lambda: state(bus).get("showing") == "rotation" and state(bus))
        assert record["plugin_id"] == "b"  # the rotation's first entry
        wait_until(lambda: solid(panel(display).last_frame, GREEN))


def test_display_state_names_the_ticker_not_the_paused_rotation(tmp_path: Path) -> None:
    display, host, config, vegas = _setup()
    with running_loop(tmp_path, display, host, config, full_screen=vegas) as (_loop, bus):
        record = wait_until(lambda: state(bus).get("plugin_id") == "t" and state(bus))
        assert record["showing"] == "full_screen" and record["mode"] == "vegas"
        record = wait_until(lambda: state(bus).get("fps", 0) > 10 and state(bus))
        assert record["mode"] == "vegas"  # never the rotation entry "b" underneath
        assert record["plugin_id"] in ("t", None)


def test_vegas_without_content_does_not_wake_every_frame(tmp_path: Path) -> None:
    display, host, config, vegas = _setup()
    host.instances.pop("t")
    renders: list[float] = []
    render = vegas.render

    def counting(now: float, force: bool) -> float:
        renders.append(now)
        return render(now, force)

    vegas.render = counting  # type: ignore[method-assign]
    with running_loop(tmp_path, display, host, config, full_screen=vegas) as (_loop, bus):
        wait_until(lambda: state(bus).get("showing") == "full_screen")
        time.sleep(1.5)
    assert 1 <= len(renders) <= 5  # the blank gap lasts 2 s: not 50 frames a second


def _live_setup(**settings: Any) -> tuple[DisplayManager, FakeHost, dict[str, Any],
                                          VegasMode, LivePlugin]:
    """``_setup`` plus ``z``, a live-priority plugin (green) that is not in the ticker."""
    display, host, config, vegas = _setup(**settings)
    live = LivePlugin("z", config["z"], display)
    host.instances["z"] = live
    host.manifests["z"] = {"update_interval": 1}
    return display, host, config, vegas, live


def test_live_content_interrupts_vegas_and_the_ticker_resumes(tmp_path: Path) -> None:
    display, host, config, vegas, live = _live_setup()
    recorder = Recorder(display)
    with running_loop(tmp_path, display, host, config, full_screen=vegas) as (_loop, bus):
        wait_until(lambda: any(ticker_columns(f) > 4 for f in recorder.since(0)))
        live.go_live = True
        record = wait_until(lambda: state(bus).get("showing") == "live" and state(bus), 5)
        assert record["plugin_id"] == "z"
        live.go_live = False
        wait_until(lambda: state(bus).get("showing") == "full_screen", 5)
        frames = wait_until(lambda: recorder.after(GREEN, 2))
    green = [i for i, f in enumerate(frames) if solid(f, GREEN)]
    assert frames[green[-1] + 1].tobytes() == frames[green[0] - 1].tobytes()


def test_with_live_priority_false_live_content_does_not_interrupt_vegas(
        tmp_path: Path) -> None:
    display, host, config, vegas, live = _live_setup(live_priority=False)
    live.go_live = True
    with running_loop(tmp_path, display, host, config, full_screen=vegas) as (_loop, bus):
        wait_until(lambda: state(bus).get("live_plugins") == ["z"], 5)
        time.sleep(0.3)
        assert state(bus).get("showing") == "full_screen"
        assert not solid(panel(display).last_frame, GREEN)


def test_with_live_interrupt_false_live_content_waits_for_the_next_cycle(
        tmp_path: Path) -> None:
    display, host, config, vegas, live = _live_setup(live_interrupt=False)
    recorder = Recorder(display)
    with running_loop(tmp_path, display, host, config, full_screen=vegas) as (_loop, bus):
        wait_until(lambda: any(ticker_columns(f) > 4 for f in recorder.since(0)))
        live.go_live = True  # mid-cycle: 200 px at 50 px/s, the next cycle enters at ~4 s
        wait_until(lambda: state(bus).get("live_plugins") == ["z"], 5)
        assert state(bus).get("showing") == "full_screen"
        wait_until(lambda: state(bus).get("showing") == "live", 8)
        # The state is written when the loop switches, the frame right after it.
        frames = wait_until(lambda: any(solid(f, GREEN) for f in recorder.since(0))
                            and recorder.since(0))
    first_live = next(i for i, f in enumerate(frames) if solid(f, GREEN))
    assert frames[first_live - 1].getpixel((WIDTH - 1, 0)) == (0, 0, 255)  # cycle 2 entered
