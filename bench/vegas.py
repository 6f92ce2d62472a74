"""Vegas mode figures, headless, in process: CPU while scrolling, memory over 100,000 frames.

Targets (issue 3), the existing system's figure in brackets:
- Vegas scrolling of five plugins at 50 distinct frames per second: CPU < 5% of one
  core (5.2%). The ticker runs on a deadline loop (sleep until ``next_frame_due``) and
  pushes each new frame to the headless backend with ``show``.
- Resident memory over 100,000 frames run as fast as possible (a fake clock moves one
  frame, one pixel, per call): no growth beyond 5 MB after warm-up (5,000 frames).

Template ``vegas_scroll`` settings (50 px/s, frame based, 20 ms per frame) except: the
minimum cycle is 10 s instead of 60 s, so content is collected again, with new images,
many times during the runs; and the static plugin's hold is 0 s (it scrolls by like a
fixed segment), so every 20 ms shows a new frame. Panel: the template's 128x32.
"""

from __future__ import annotations

import argparse
import copy
import gc
import json
import os
import time
from typing import Any

from PIL import Image, ImageDraw

from bench.common import cpu_seconds, rss_mb
from display_service.matrix.headless import HeadlessMatrix
from display_service.plugins.display_manager import DisplayManager
from display_service.vegas import Segment, VegasTicker, collect_segments
from shared.plugin_api.base_plugin import BasePlugin
from tests.daemons import ROOT

WIDTH, HEIGHT = 128, 32
CPU_SECONDS = 20.0
FRAMES = 100_000
WARM_UP = 5_000


class _Plugin(BasePlugin):
    """Counts its renders so every cycle gets freshly drawn images."""

    renders = 0

    def update(self) -> None:
        pass

    def display(self, force_clear: bool = False) -> bool:
        dm = self.display_manager
        if force_clear:
            dm.clear()
        type(self).renders += 1
        dm.draw_text(f"{self.plugin_id} {type(self).renders}", y=10, color=(255, 200, 0))
        dm.update_display()
        return True

    def _text(self, text: str, color: tuple[int, int, int]) -> Image.Image:
        width = int(self.display_manager.regular_font.getlength(text)) + 8
        image = Image.new("RGB", (width, HEIGHT))
        ImageDraw.Draw(image).text((4, 10), text, font=self.display_manager.regular_font,
                                   fill=color)
        return image


class Headlines(_Plugin):
    def get_vegas_content(self) -> list[Image.Image]:
        type(self).renders += 1
        return [self._text(f"Headline {i}: {type(self).renders}", (255, 255, 255))
                for i in range(3)]


class Scores(_Plugin):
    def get_vegas_content(self) -> Image.Image:
        type(self).renders += 1
        return self._text(f"HOME {type(self).renders % 9} - AWAY 3  FINAL", (0, 255, 0))


class Weather(_Plugin):
    def get_vegas_display_mode(self) -> str:
        return "fixed"


class Alert(_Plugin):
    def get_vegas_display_mode(self) -> str:
        return "static"


class Clock(_Plugin):
    pass  # no Vegas hooks: its display() is captured


def _setup(clock: Any) -> tuple[VegasTicker, HeadlessMatrix]:
    template = json.loads((ROOT / "config" / "config.template.json").read_text())
    config: dict[str, Any] = {"vegas_scroll": copy.deepcopy(template["vegas_scroll"])}
    config["vegas_scroll"].update(enabled=True, vegas_min_cycle_duration=10,
                                  static_hold_duration=0)
    backend = HeadlessMatrix(WIDTH, HEIGHT)
    display = DisplayManager(backend)
    plugins = {cls.__name__.lower(): cls(cls.__name__.lower(), {"enabled": True}, display,
                                         None, None)
               for cls in (Headlines, Scores, Weather, Alert, Clock)}
    for plugin_id in plugins:
        config[plugin_id] = {"enabled": True}

    def content() -> list[Segment]:
        return collect_segments(plugins, config, WIDTH, HEIGHT, fonts=display)

    return VegasTicker(config, WIDTH, HEIGHT, content, clock), backend


def cpu_run(seconds: float) -> None:
    """Scroll for ``seconds`` on a deadline loop and print the CPU share of one core."""
    ticker, backend = _setup(time.monotonic)
    pid = os.getpid()
    cpu_before, started = cpu_seconds(pid), time.monotonic()
    end, last, pushed = started + seconds, None, 0
    while (now := time.monotonic()) < end:
        image = ticker.frame(now)
        if image is not last:
            backend.show(image)
            last, pushed = image, pushed + 1
        delay = min(ticker.next_frame_due(now), end) - time.monotonic()
        if delay > 0:
            time.sleep(delay)
    wall = time.monotonic() - started
    cpu = cpu_seconds(pid) - cpu_before
    print(f"vegas scrolling CPU: {100 * cpu / wall:.2f}% of one core over {wall:.1f} s, "
          f"{pushed / wall:.1f} distinct frames/s pushed, {ticker.cycles_started} cycles "
          f"(5 plugins, {WIDTH}x{HEIGHT}, headless)")


def memory_run(frames: int) -> None:
    """Run ``frames`` frames as fast as possible; print resident memory and its growth."""
    now = [0.0]
    ticker, backend = _setup(lambda: now[0])
    pid = os.getpid()
    warm = 0.0
    started = time.perf_counter()
    for index in range(1, frames + 1):
        now[0] += 0.02
        backend.show(ticker.frame(now[0]))
        if index == WARM_UP:
            gc.collect()
            warm = rss_mb(pid)
    elapsed = time.perf_counter() - started
    gc.collect()
    end = rss_mb(pid)
    print(f"vegas memory over {frames:,} frames ({elapsed:.1f} s, "
          f"{elapsed / frames * 1e6:.0f} us per frame, {ticker.cycles_started} cycles): "
          f"RSS {warm:.1f} MB after {WARM_UP:,} frames, {end:.1f} MB at the end, "
          f"growth {end - warm:+.2f} MB; held {ticker.segments_held} segment images, "
          f"{ticker.pixels_held:,} px")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=CPU_SECONDS)
    parser.add_argument("--frames", type=int, default=FRAMES)
    args = parser.parse_args()
    cpu_run(args.seconds)
    memory_run(args.frames)


if __name__ == "__main__":
    main()
