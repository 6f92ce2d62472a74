"""Frame pacing while scrolling at 100 Hz: the real render loop, headless, in process.

Target (issue 3): p99 deviation from the deadline < 2 ms.

The real ``RenderLoop`` runs on its own thread (as in the display daemon, with its bus
writer and a bus watcher) over a headless 128x32 panel, with one plugin (through the
tests' ``FakeHost``) that scrolls a long text with the real ``ScrollHelper``: it calls
``set_scrolling_state(True, frame_hold=1)``, so the loop calls ``display()`` every
10 ms (refresh 100 Hz). ``display()`` records ``time.monotonic()`` on entry.

Deviation of a call from its deadline: the loop paces against a grid, each deadline
the previous one plus 10 ms, re-anchored at the call when a frame is more than one
interval late (``compose.Compositor.render``). The same rule is applied to the recorded
times: intended(0) = t(0), intended(k) = intended(k-1) + 10 ms, and when
t(k) - intended(k) > 10 ms the call counts as a miss (its lateness is a sample) and
intended(k) = t(k). Also printed: inter-frame intervals minus 10 ms, and fps achieved.

``--baseline`` first runs a bare deadline loop for the same time in the same process
(``threading.Event().wait`` until each 10 ms deadline, nothing else): the timer and
scheduling jitter of the machine itself, which no render loop can pace below.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from bench.common import cpu_seconds, percentile
from shared.plugin_api.common.scroll_helper import ScrollHelper
from tests.display_service.helpers import ColorPlugin, FakeHost, make_display, running_loop

WIDTH, HEIGHT = 128, 32
REFRESH_HZ = 100.0
SECONDS = 10.0
WARM_UP = 1.0
TEXT = " +++ ".join(f"Headline {i}: scrolling at one pixel per frame, 100 frames a second"
                    for i in range(1, 6))


class Scroller(ColorPlugin):
    """Scrolls one pixel per call at the full refresh rate; records each call's time."""

    def __init__(self, plugin_id: str, config: dict[str, Any], display_manager: Any,
                 limit: int) -> None:
        super().__init__(plugin_id, config, display_manager)
        dm = display_manager
        self.helper = ScrollHelper(dm.width, dm.height)
        self.helper.continuous = True
        self.helper.set_pixels_per_frame(1)
        self.helper.create_scrolling_image(TEXT, font=dm.regular_font, color=(255, 255, 255))
        self.times: list[float] = []
        self.limit = limit

    def display(self, force_clear: bool = False, display_mode: str | None = None) -> bool:
        if len(self.times) < self.limit:  # bounded: ~2x the expected count
            self.times.append(time.monotonic())
        dm = self.display_manager
        dm.set_scrolling_state(True, frame_hold=1)
        self.helper.update_scroll_position()
        dm.image.paste(self.helper.get_visible_portion(), (0, 0))
        dm.update_display()
        return True


def deviations(times: list[float], interval: float) -> tuple[list[float], int]:
    """Return |actual - intended| in ms for each call after the first, and the misses."""
    result, misses = [], 0
    intended = times[0]
    for actual in times[1:]:
        intended += interval
        result.append(abs(actual - intended) * 1000)
        if actual - intended > interval:
            misses += 1
            intended = actual
    return result, misses


def run(seconds: float) -> tuple[list[float], int, float]:
    """Scroll for ``seconds`` after warm-up; return call times, frames pushed, CPU share."""
    display = make_display(WIDTH, HEIGHT)
    display.refresh_hz = REFRESH_HZ
    plugin = Scroller("scroller", {}, display, limit=int((seconds + WARM_UP) * REFRESH_HZ * 2))
    config = {"display_durations": {"scroller": 3600},
              "display": {"hardware": {"limit_refresh_rate_hz": REFRESH_HZ}}}
    with tempfile.TemporaryDirectory() as tmp, \
            running_loop(Path(tmp), display, FakeHost({"scroller": plugin}), config):
        time.sleep(WARM_UP)
        first = len(plugin.times)
        pushed = display.frames_pushed
        cpu = cpu_seconds(os.getpid())
        time.sleep(seconds)
        cpu = cpu_seconds(os.getpid()) - cpu
        times = plugin.times[first:]
        pushed = display.frames_pushed - pushed
    return times, pushed, cpu / seconds


def bare_loop(seconds: float, interval: float) -> list[float]:
    """Wait on an event until each deadline of a 10 ms grid; return the wake times."""
    event, times = threading.Event(), []
    due = time.monotonic() + interval
    for _ in range(int(seconds / interval)):
        delay = due - time.monotonic()
        if delay > 0:
            event.wait(delay)
        now = time.monotonic()
        times.append(now)
        late = not due <= now < due + interval  # the render loop's rule: re-anchor
        due = (now if late else due) + interval
    return times


def ms(values: list[float]) -> str:
    return (f"p50 {percentile(values, 50):.3f} ms, p99 {percentile(values, 99):.3f} ms, "
            f"max {max(values):.3f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=SECONDS)
    parser.add_argument("--baseline", action="store_true",
                        help="first measure a bare deadline loop (the machine's own jitter)")
    args = parser.parse_args()
    interval = 1 / REFRESH_HZ
    if args.baseline:
        bare = bare_loop(args.seconds, interval)
        devs, misses = deviations(bare, interval)
        print(f"baseline, bare Event.wait deadline loop at {REFRESH_HZ:.0f} Hz: "
              f"deviation {ms(devs)}; {misses} re-anchored, {sum(d > 2 for d in devs)} over 2 ms")
    times, pushed, cpu = run(args.seconds)
    wall = times[-1] - times[0]
    devs, misses = deviations(times, interval)
    gaps = [(b - a - interval) * 1000 for a, b in zip(times, times[1:], strict=False)]
    print(f"frame pacing at {REFRESH_HZ:.0f} Hz, {WIDTH}x{HEIGHT} scrolling: "
          f"{len(times):,} display() calls over {wall:.2f} s = {(len(times) - 1) / wall:.2f} fps "
          f"({pushed:,} frames pushed, process CPU {100 * cpu:.1f}% of one core)")
    print(f"  deviation from deadline: {ms(devs)}; {misses} re-anchored (> 1 interval late), "
          f"{sum(d > 2 for d in devs)} over 2 ms")
    print(f"  inter-frame interval - {interval * 1000:.0f} ms: "
          f"p1 {percentile(gaps, 1):+.3f} ms, p50 {percentile(gaps, 50):+.3f} ms, "
          f"p99 {percentile(gaps, 99):+.3f} ms, min {min(gaps):+.3f} ms, max {max(gaps):+.3f} ms")

if __name__ == "__main__":
    main()
