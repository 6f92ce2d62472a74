"""A notification in a render loop run in this process: nothing a plugin presents from
another thread covers it."""

from __future__ import annotations

import threading
from pathlib import Path

from PIL import Image

from display_service.loop.compose import NOTIFICATION
from display_service.loop.render_loop import RenderLoop
from shared.bus.core import NOTIFICATIONS
from shared.notify.fields import parse_notification
from shared.notify.requests import submit_notification
from tests.display_service.helpers import (
    ColorPlugin,
    EmptyPlugin,
    FakeHost,
    make_display,
    running_loop,
    state,
    wait_until,
)

RED = (255, 0, 0)
GREEN = (0, 255, 0)


def passes(loop: RenderLoop, count: int) -> None:
    """Wait until the loop has begun ``count`` more passes (each sets ``beat``)."""
    for _ in range(count):
        before = loop.beat
        loop.wake.set()
        wait_until(lambda before=before: loop.beat != before)  # type: ignore[misc]


def colors(frame: Image.Image | None) -> set[tuple[int, int, int]]:
    assert frame is not None
    return {color for _count, color in frame.getcolors(1 << 16) or []}


def test_a_frame_presented_from_another_thread_does_not_cover_a_notification(
        tmp_path: Path) -> None:
    display = make_display(64, 32)
    plugin = ColorPlugin("red", {}, display)
    with running_loop(tmp_path, display, FakeHost({"red": plugin})) as (loop, bus):
        wait_until(lambda: display.backend.last_frame is not None)
        checked, _ = parse_notification({"text": "Hi", "color": [0, 0, 255], "behavior": "now",
                                         "duration": 60})
        assert checked is not None
        submit_notification(bus, checked, "http")
        loop.notify("notify_request")
        wait_until(lambda: loop.layer() == NOTIFICATION)
        wait_until(lambda: (0, 0, 255) in colors(display.backend.last_frame))

        def present_green() -> None:
            display.image.paste(GREEN, (0, 0, 64, 32))
            display.update_display()

        worker = threading.Thread(target=present_green)
        worker.start()
        worker.join()
        passes(loop, 3)
        shown = colors(display.backend.last_frame)
        assert GREEN not in shown and (0, 0, 255) in shown


def test_over_a_blank_rotation_the_reason_names_the_notification_only(tmp_path: Path) -> None:
    display = make_display(64, 32)
    host = FakeHost({"empty": EmptyPlugin("empty", {}, display)})
    with running_loop(tmp_path, display, host) as (loop, bus):
        wait_until(lambda: "blank" in (state(bus).get("reason") or ""))
        checked, _ = parse_notification({"text": "Hi", "behavior": "now", "duration": 60})
        assert checked is not None
        submit_notification(bus, checked, "mqtt")
        loop.notify("notify_request")
        shown = wait_until(lambda: state(bus).get("showing") == NOTIFICATION and state(bus))
        assert shown["reason"] == "notification from mqtt (normal priority)"


def test_a_notification_waiting_too_long_expires_unshown(tmp_path: Path) -> None:
    display = make_display(64, 32)
    host = FakeHost({"red": ColorPlugin("red", {}, display)})
    config = {"display_durations": {"red": 60}}
    with running_loop(tmp_path, display, host, config) as (loop, bus):
        wait_until(lambda: state(bus).get("showing") == "rotation")
        loop.notifier.queue.max_wait = 0.5  # the setting's floor is 10 s; the rule is the same
        checked, _ = parse_notification({"text": "later", "behavior": "next"})
        assert checked is not None
        nid = submit_notification(bus, checked, "http")
        loop.notify("notify_request")
        record = wait_until(lambda: (bus.read(NOTIFICATIONS) or {}).get("recent"), 5)
        assert record[-1]["id"] == nid and record[-1]["state"] == "expired"
        assert (bus.read(NOTIFICATIONS) or {})["queue"] == []
        assert state(bus).get("showing") == "rotation"
