"""Display daemon figures, headless: start to first plugin frame, memory, idle CPU.

Targets (issue 2), the existing system's figures in brackets: start to first plugin
frame < 0.4 s (1.1 s); resident memory < 50 MB (70 MB); idle rotation CPU < 0.5% of
one core (0.33%, static frames skipped). Three clock-like plugins redraw once a second.
"""

from __future__ import annotations

import statistics
import tempfile
import time
from pathlib import Path

from bench.common import cpu_seconds, demo_instance, rss_mb
from shared import bus as keys
from shared.bus import Bus
from tests.daemons import start_display

STARTS = 5
IDLE_SECONDS = 30


def _first_frame(instance, bus: Bus) -> tuple[float, object]:
    bus.remove(keys.DISPLAY_STATE)
    started = time.perf_counter()
    display = start_display(instance)
    state = bus.wait_for(keys.DISPLAY_STATE, lambda s: bool(
        s and s.get("plugin_id") and s.get("first_frame_ms") is not None), 10)
    elapsed = time.perf_counter() - started
    if not state:
        display.stop()
        raise SystemExit(f"no frame:\n{display.output()}")
    return elapsed, display


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        instance = demo_instance(Path(tmp))
        bus = Bus(instance.cache_dir)
        _, warm = _first_frame(instance, bus)
        warm.stop()
        times = []
        for _ in range(STARTS):
            elapsed, display = _first_frame(instance, bus)
            times.append(elapsed)
            display.stop()
        print(f"display start to first plugin frame: median "
              f"{statistics.median(times) * 1000:.0f} ms, max {max(times) * 1000:.0f} ms "
              f"over {STARTS} starts")
        _, display = _first_frame(instance, bus)
        try:
            time.sleep(3)
            cpu_before, wall_before = cpu_seconds(display.process.pid), time.perf_counter()
            time.sleep(IDLE_SECONDS)
            cpu = cpu_seconds(display.process.pid) - cpu_before
            wall = time.perf_counter() - wall_before
            print(f"display idle rotation CPU: {100 * cpu / wall:.2f}% of one core over "
                  f"{wall:.0f} s (3 clock plugins, 1 Hz)")
            print(f"display resident memory: {rss_mb(display.process.pid):.1f} MB")
        finally:
            display.stop()


if __name__ == "__main__":
    main()
