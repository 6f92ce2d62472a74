"""The render loop with a headless backend and tiny in-memory plugins."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from display_service.control.on_demand import STALE_AFTER
from tests.display_service.helpers import (
    BlockingUpdatePlugin,
    ColorPlugin,
    EmptyPlugin,
    FakeHost,
    FastPlugin,
    RaisingPlugin,
    make_display,
    running_loop,
    state,
    wait_until,
)


def test_a_raising_plugin_is_recorded_and_skipped_not_fatal(tmp_path: Path) -> None:
    display = make_display()
    good = ColorPlugin("good", {}, display)
    bad = RaisingPlugin("bad", {}, display)
    host = FakeHost({"good": good, "bad": bad})
    config = {"display_durations": {"good": 0.2, "bad": 0.2}}
    with running_loop(tmp_path, display, host, config) as (_loop, bus):
        wait_until(lambda: bad.displays >= 2 and good.displays >= 3)
        errors = wait_until(lambda: (bus.read("plugin_errors") or {}).get("bad"))
    assert errors["count"] >= 2
    assert errors["last_error"] == "ValueError: boom"
    assert errors["where"] == "display"


def test_update_runs_off_the_render_thread_before_display_needs_it(tmp_path: Path) -> None:
    display = make_display()
    plugin = ColorPlugin("solo", {}, display)
    with running_loop(tmp_path, display, FakeHost({"solo": plugin})):
        wait_until(lambda: plugin.updates >= 1 and plugin.displays >= 1)
    assert plugin.update_threads and plugin.display_threads
    assert not plugin.update_threads & plugin.display_threads
    assert len(plugin.display_threads) == 1


def test_identical_frames_are_not_pushed_again(tmp_path: Path) -> None:
    display = make_display()
    plugin = FastPlugin("fast", {}, display)
    with running_loop(tmp_path, display, FakeHost({"fast": plugin})):
        wait_until(lambda: plugin.displays >= 20)
    assert display.backend.frames_pushed == 1  # type: ignore[attr-defined]


def test_high_fps_plugins_render_faster_than_static_ones(tmp_path: Path) -> None:
    display = make_display()
    fast, static = FastPlugin("fast", {}, display), ColorPlugin("static", {}, display)
    host = FakeHost({"fast": fast, "static": static})
    config = {"display_durations": {"fast": 0.5, "static": 0.5}}
    with running_loop(tmp_path, display, host, config):
        wait_until(lambda: static.displays >= 2, timeout=5)
    assert fast.displays > 5 * static.displays


def test_a_plugin_that_enables_scrolling_renders_at_the_full_frame_rate(tmp_path: Path) -> None:
    class Ticker(ColorPlugin):  # as tickers written for the existing system declare it
        def __init__(self, *args: Any) -> None:
            super().__init__(*args)
            self.enable_scrolling = True

    display = make_display()
    ticker, static = Ticker("ticker", {}, display), ColorPlugin("static", {}, display)
    host = FakeHost({"ticker": ticker, "static": static})
    config = {"display_durations": {"ticker": 0.5, "static": 0.5}}
    with running_loop(tmp_path, display, host, config):
        wait_until(lambda: static.displays >= 2, timeout=5)
    assert ticker.displays > 5 * static.displays


def test_on_demand_request_wakes_the_loop_at_once(tmp_path: Path) -> None:
    display = make_display()
    plugins = {"a": ColorPlugin("a", {}, display), "b": ColorPlugin("b", {}, display)}
    host = FakeHost(plugins, modes={"b": ["b_main", "b_alt"]})
    with running_loop(tmp_path, display, host) as (_loop, bus):
        wait_until(lambda: state(bus).get("plugin_id") == "a")
        started = time.monotonic()
        request_id = bus.request(
            "display_on_demand_request",
            {"action": "start", "plugin_id": "b", "mode": "b_alt", "pinned": True},
        )
        acked = bus.wait_for(
            "display_state", lambda s: (s or {}).get("last_request_id") == request_id, 5
        ) or {}
        elapsed = time.monotonic() - started
        assert acked["on_demand"]["state"] == "active"
        assert (acked["plugin_id"], acked["mode"]) == ("b", "b_alt")
        # Generous bound: without the wake the loop would sleep up to a full second.
        assert elapsed < 0.5, elapsed
        assert (bus.read("display_on_demand_config") or {}).get("request_id") == request_id
        wait_until(lambda: "b_alt" in plugins["b"].modes_seen)
        assert bus.pending("display_on_demand_request") == []  # consumed

        stop_id = bus.request("display_on_demand_request", {"action": "stop"})
        stopped = bus.wait_for(
            "display_state", lambda s: (s or {}).get("last_request_id") == stop_id, 5
        ) or {}
        assert stopped["on_demand"]["state"] == "stopped"
        assert stopped["plugin_id"] == "a"
        wait_until(lambda: bus.read("display_on_demand_config") is None)


def test_refused_request_is_acknowledged_with_an_error(tmp_path: Path) -> None:
    display = make_display()
    host = FakeHost({"a": ColorPlugin("a", {}, display)})
    with running_loop(tmp_path, display, host) as (_loop, bus):
        request_id = bus.request(
            "display_on_demand_request", {"action": "start", "plugin_id": "ghost"}
        )
        acked = bus.wait_for(
            "display_state", lambda s: (s or {}).get("last_request_id") == request_id, 5
        ) or {}
    assert acked["on_demand"]["state"] == "error"
    assert "ghost" in acked["on_demand"]["error"]


def test_requests_handled_in_one_wake_each_get_their_own_outcome(tmp_path: Path) -> None:
    display = make_display()
    plugins = {"a": ColorPlugin("a", {}, display), "b": ColorPlugin("b", {}, display)}
    # No bus watcher: the loop wakes only when told, so both requests are waiting then.
    with running_loop(tmp_path, display, FakeHost(plugins), watch=False) as (loop, bus):
        wait_until(lambda: state(bus).get("plugin_id") == "a")
        start_id = bus.request("display_on_demand_request",
                               {"action": "start", "plugin_id": "b", "pinned": True})
        stop_id = bus.request("display_on_demand_request", {"action": "stop"})
        loop.notify("display_on_demand_request")
        answered = bus.wait_for(
            "display_state", lambda s: stop_id in ((s or {}).get("requests") or {}), 5
        ) or {}
    requests = answered["requests"]
    assert requests[start_id]["state"] == "active"
    assert (requests[start_id]["plugin_id"], requests[start_id]["action"]) == ("b", "start")
    assert requests[stop_id]["state"] == "stopped"
    assert requests[stop_id]["action"] == "stop"
    assert answered["last_request_id"] == stop_id
    assert answered["on_demand"]["state"] == "stopped"
    assert bus.pending("display_on_demand_request") == []


def test_a_request_older_than_a_minute_is_answered_stale_and_not_applied(
        tmp_path: Path) -> None:
    display = make_display()
    plugins = {"a": ColorPlugin("a", {}, display), "b": ColorPlugin("b", {}, display)}

    def wall() -> float:  # the loop's wall clock, a little over a minute ahead
        return time.time() + STALE_AFTER + 5

    with running_loop(tmp_path, display, FakeHost(plugins), wall=wall) as (_loop, bus):
        wait_until(lambda: state(bus).get("plugin_id") == "a")
        request_id = bus.request("display_on_demand_request",
                                 {"action": "start", "plugin_id": "b", "pinned": True})
        answered = bus.wait_for(
            "display_state", lambda s: request_id in ((s or {}).get("requests") or {}), 5
        ) or {}
        time.sleep(0.2)  # a frame or two later: still not shown
        assert state(bus).get("showing") == "rotation"
    outcome = answered["requests"][request_id]
    assert outcome["state"] == "error"
    assert "stale" in outcome["error"]
    assert outcome["plugin_id"] is None
    assert answered["on_demand"]["state"] != "active"
    assert answered["plugin_id"] == "a"
    assert plugins["b"].displays == 0
    assert bus.read("display_on_demand_config") is None


def test_an_overrunning_update_skips_the_plugin_until_it_returns(tmp_path: Path) -> None:
    display = make_display()
    slow = BlockingUpdatePlugin("slow", {}, display)
    other = ColorPlugin("other", {}, display)
    host = FakeHost({"slow": slow, "other": other})
    config = {"display_durations": {"slow": 0.2, "other": 0.2}}
    with running_loop(tmp_path, display, host, config, update_budget=0.3) as (loop, bus):
        wait_until(lambda: loop.updates.is_overrun("slow"))
        before = slow.displays
        shown = other.displays
        wait_until(lambda: other.displays >= shown + 3)
        assert slow.displays == before
        record = wait_until(lambda: (bus.read("plugin_errors") or {}).get("slow"))
        assert "still running" in record["last_error"]
        slow.release.set()
        wait_until(lambda: slow.displays > before)


def test_a_rotation_without_content_does_not_spin(tmp_path: Path) -> None:
    display = make_display()
    plugins = {"e1": EmptyPlugin("e1", {}, display), "e2": EmptyPlugin("e2", {}, display)}
    with running_loop(tmp_path, display, FakeHost(plugins)):
        time.sleep(1.0)
    calls = sum(p.displays for p in plugins.values())
    assert 2 <= calls <= 10


def test_config_change_is_applied_between_frames(tmp_path: Path) -> None:
    display = make_display()
    host = FakeHost({"a": ColorPlugin("a", {}, display)})
    current: dict[str, Any] = {"brightness": 80}
    with running_loop(tmp_path, display, host, dict(current),
                      load_config=lambda: dict(current)) as (_loop, bus):
        wait_until(lambda: state(bus).get("brightness") == 80)
        current["brightness"] = 35
        bus.publish("config_changed", {"seq": 4, "sections": ["brightness"]})
        reloaded = wait_until(lambda: state(bus).get("config_seq") == 4 and state(bus))
    assert reloaded["brightness"] == 35
    assert display.backend.brightness == 35
    assert host.applied and host.applied[-1]["brightness"] == 35


def test_preview_frames_only_while_a_viewer_watches(tmp_path: Path) -> None:
    display = make_display()
    host = FakeHost({"a": ColorPlugin("a", {}, display)})
    with running_loop(tmp_path, display, host) as (_loop, bus):
        wait_until(lambda: state(bus).get("plugin_id") == "a")
        time.sleep(0.2)
        assert bus.read("preview_frame") is None
        bus.publish("preview_viewer", {"until": time.time() + 0.8})
        frame = wait_until(lambda: bus.read("preview_frame"))
        assert (frame["width"], frame["height"]) == (16, 8)
        assert frame["png_base64"]
        wait_until(lambda: bus.read("preview_frame") is None, timeout=5)


def test_stop_unloads_plugins_blanks_and_says_stopped(tmp_path: Path) -> None:
    display = make_display()
    host = FakeHost({"a": ColorPlugin("a", {}, display)})
    with running_loop(tmp_path, display, host) as (_loop, bus):
        wait_until(lambda: state(bus).get("plugin_id") == "a")
    final = state(bus)
    assert final["service"] == "stopped"
    assert host.unloaded
    assert display.backend.closed  # type: ignore[attr-defined]


def test_the_loop_turns_the_collector_back_on_after_the_start(tmp_path: Path) -> None:
    # The daemon starts with the collector off (display_service/__main__.py); a loop
    # that forgot to turn it on again would leak every cycle a plugin makes.
    import gc

    display = make_display()
    host = FakeHost({"good": ColorPlugin("good", {}, display)})
    gc.disable()
    try:
        with running_loop(tmp_path, display, host) as (_loop, bus):
            wait_until(lambda: state(bus).get("plugin_id") == "good")
            assert gc.isenabled()
    finally:
        gc.enable()
        gc.unfreeze()
