"""Idle CPU of the display daemon showing one clock-like plugin redrawn once a second.

Target (issue 3): < 1% of one core. The real display daemon runs as a subprocess
(``python -m display_service --headless``) over a temporary directory with ONE plugin,
``bench.common.DEMO_PLUGIN`` (clears, draws the time as HH:MM:SS, ``update_display()``):
static content, so the render loop calls it once a second and the display manager
pushes each new second. CPU (user + system, all threads, from /proc) is measured over
30 s after a 5 s warm-up.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from bench.common import cpu_seconds, demo_instance, rss_mb
from shared.bus import core as keys
from shared.bus.core import Bus
from tests.daemons import start_display

WARM_UP = 10.0
SECONDS = 30.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=SECONDS)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        instance = demo_instance(Path(tmp), plugins=1)
        bus = Bus(instance.cache_dir)
        display = start_display(instance)
        try:
            state = bus.wait_for(keys.DISPLAY_STATE,
                                 lambda s: bool(s and s.get("first_frame_ms") is not None), 15)
            if not state or state.get("plugin_id") != "demo0":
                raise SystemExit(f"no frame from demo0:\n{display.output()}")
            time.sleep(WARM_UP)
            pid = display.process.pid
            cpu_before, started = cpu_seconds(pid), time.perf_counter()
            time.sleep(args.seconds)
            cpu = cpu_seconds(pid) - cpu_before
            wall = time.perf_counter() - started
            fps = (bus.read(keys.DISPLAY_STATE) or {}).get("fps")
            print(f"clock idle CPU: {100 * cpu / wall:.2f}% of one core over {wall:.0f} s "
                  f"(1 clock plugin, {fps} frames/s; RSS {rss_mb(pid):.1f} MB)")
        finally:
            display.stop()


if __name__ == "__main__":
    main()
