"""Display CPU with nobody watching the live preview, then with one stream client.

Target (issue 9): the added display CPU while one browser watches is < 1% of a core at
128x32, and zero when nobody watches. Both daemons run as subprocesses over a temporary
directory with ONE clock-like plugin (``bench.common.DEMO_PLUGIN``: a new picture each
second, the panel's own pace for a clock); the config template's panel is 128x32. CPU
(user + system, all threads, from /proc) of the display daemon is measured over the
same span twice: nobody watching, then one ``/stream/preview`` client reading every
frame; the web daemon's CPU is printed too. Whether the display wrote preview frames in
each span is read from its bus (the ``preview_frame`` file exists only while watched).
"""

from __future__ import annotations

import argparse
import tempfile
import threading
import time
from pathlib import Path

import requests

from bench.common import cpu_seconds, demo_instance
from shared.bus import core as keys
from shared.bus.core import Bus
from tests.daemons import running

WARM_UP = 5.0
SECONDS = 30.0


def _watch(url: str, stop: threading.Event, frames: list[str]) -> None:
    with requests.get(f"{url}/stream/preview", stream=True, timeout=(5, 30)) as response:
        response.raise_for_status()
        for line in response.iter_lines(decode_unicode=True):  # bounded by `stop`
            if line.startswith("id: "):
                frames.append(line[4:])
            if stop.is_set():
                return


def _span(pids: tuple[int, int], seconds: float) -> tuple[float, float, float]:
    before = [cpu_seconds(pid) for pid in pids]
    started = time.perf_counter()
    time.sleep(seconds)
    wall = time.perf_counter() - started
    display, web = (100 * (cpu_seconds(pid) - spent) / wall
                    for pid, spent in zip(pids, before, strict=True))
    return display, web, wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=SECONDS)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        instance = demo_instance(Path(tmp), plugins=1)
        bus = Bus(instance.cache_dir)
        with running(instance) as (display, web, url):
            bus.wait_for(keys.DISPLAY_STATE, lambda s: bool(s and s.get("plugin_id")), 15)
            time.sleep(WARM_UP)
            pids = (display.process.pid, web.process.pid)
            frame_file = instance.cache_dir / f"{keys.PREVIEW_FRAME}.json"
            idle_display, idle_web, wall = _span(pids, args.seconds)
            idle_frames = frame_file.exists()
            stop, frames = threading.Event(), []
            watcher = threading.Thread(target=_watch, args=(url, stop, frames), daemon=True)
            watcher.start()
            time.sleep(2)  # the first frame, the viewer mark
            seen_before = len(frames)
            watched_display, watched_web, _ = _span(pids, args.seconds)
            received = len(frames) - seen_before
            stop.set()
            watcher.join(40)
    print(f"nobody watching:  display {idle_display:.2f}% of one core, web "
          f"{idle_web:.2f}% over {wall:.0f} s (preview frames written: "
          f"{'yes' if idle_frames else 'none'})")
    print(f"one stream watch: display {watched_display:.2f}% of one core, web "
          f"{watched_web:.2f}% ({received} frames received, "
          f"{received / args.seconds:.1f}/s)")
    print(f"added by the watcher: display {watched_display - idle_display:+.2f}% of one core")


if __name__ == "__main__":
    main()
