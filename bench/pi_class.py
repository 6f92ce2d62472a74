"""Both daemons on a Pi-class budget: a CPU quota and a memory limit (issue 17).

Targets under the quota: display start to first frame < 2 s, brightness save to applied
< 300 ms, web start to first answer < 3 s, first load of ``/`` < 1.5 s, under 1% of
frames dropped at 100 Hz while a plugin scrolls.

Run as root (it makes a cgroup, ``bench.cgroup_limit``): one eighth of a core
(``--quota 12500 --period 100000``) and 512 MB. By default both daemons share that one
group, as one core of a Pi 3 running both would, but eight times slower; ``--per-daemon``
gives each daemon its own eighth (a quad-core board, one core each). Each daemon is
spawned by a shell that joins the group and then ``exec``s Python, so its imports are
throttled too. The project is byte-compiled first, as every install leaves it.

The instance (temporary directory, headless, loopback only; the plugin store's address
points at a closed loopback port) has one plugin, a ticker that scrolls a long text with
the real ``ScrollHelper``, one pixel per frame, ``set_scrolling_state(True,
frame_hold=1)``: the render loop calls its ``display()`` every 10 ms
(``limit_refresh_rate_hz`` 100). The ticker appends ``time.monotonic()`` of each call to
a file (written every 100 calls; bounded).

Figures, in the order measured:

- display start to first frame: from spawning the display daemon until ``display_state``
  names the plugin and a ``first_frame_ms``;
- web start to first answer: from spawning the web daemon until ``GET /api/v3/health``
  answers 200;
- first load of ``/``: Chromium (``/usr/bin/chromium`` through Playwright, outside the
  cgroup) opens ``/`` in a fresh context: the navigation's ``loadEventEnd`` and the time
  (from the navigation's start) when the Overview partial is in the page and wired
  (``#display`` has its rows). The first load right after the web's start is printed
  apart from the later ones (each a fresh context too);
- brightness save to applied: ``POST /api/v3/config/main {"brightness": n}`` until
  ``display_state.brightness == n`` (the value on the matrix), alternating two values
  (``bench.brightness_latency.measure``) while the ticker scrolls;
- frames dropped while scrolling, over ``--window`` seconds (default 30) with nothing
  else asked of the daemons: each gap between two consecutive ``display()`` calls of
  ``g`` seconds counts ``round(g / 10 ms) - 1`` dropped frames; the share is dropped
  over dropped plus drawn.

With ``--per-daemon`` each group has its own memory limit too; the peak printed is the
sum of both groups' peaks. Also printed: the CPU time each daemon used until its first
frame or answer (user + system, from ``/proc``: little affected by other load on the
machine, so divided by the quota's share it says what the start would take on an
otherwise idle board), the groups' throttled periods and time, each daemon's resident
memory, the display's CPU while scrolling (share of one core, over the window and the
3 s after it), and the load average before and after. ``--quota 0`` runs without a CPU quota:
the machine's own figures, a baseline for a busy machine.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import requests

from bench.brightness_latency import measure as brightness_samples
from bench.cgroup_limit import Limit, limited
from bench.common import cpu_seconds, percentile, rss_mb
from bench.display_daemon import compile_project
from shared.bus import core as keys
from shared.bus.core import Bus
from tests.daemons import _LISTENING, ROOT, Daemon, Instance, wait_http

REFRESH_HZ = 100
INTERVAL = 1 / REFRESH_HZ
MB = 1024 * 1024
TICKER = '''
import os
import time

from shared.plugin_api.base_plugin import BasePlugin
from shared.plugin_api.common.scroll_helper import ScrollHelper

TEXT = " +++ ".join(f"Headline {i}: scrolling one pixel per frame" for i in range(1, 8))
LIMIT = 200_000


class Plugin(BasePlugin):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        dm = self.display_manager
        self.helper = ScrollHelper(dm.width, dm.height)
        self.helper.continuous = True
        self.helper.set_pixels_per_frame(1)
        self.helper.create_scrolling_image(TEXT, font=dm.regular_font, color=(255, 255, 0))
        self.times = []
        self.written = 0
        self.fd = os.open(self.config["times_file"], os.O_WRONLY | os.O_CREAT | os.O_APPEND)

    def update(self):
        pass

    def display(self, force_clear=False):
        if self.written < LIMIT:
            self.times.append(time.monotonic())
            if len(self.times) >= 100:
                os.write(self.fd, "".join(f"{t:.6f}\\n" for t in self.times).encode())
                self.written += len(self.times)
                self.times = []
        dm = self.display_manager
        dm.set_scrolling_state(True, frame_hold=1)
        self.helper.update_scroll_position()
        dm.image.paste(self.helper.get_visible_portion(), (0, 0))
        dm.update_display()
        return True
'''


def ticker_instance(base: Path) -> tuple[Instance, Path]:
    """Create an instance whose only plugin is the ticker; return it and the times file."""
    instance = Instance(base)
    times = base / "ticker-times.txt"
    config = json.loads((ROOT / "config" / "config.template.json").read_text())
    directory = instance.plugins_dir / "ticker"
    directory.mkdir(parents=True)
    (directory / "manifest.json").write_text(json.dumps({
        "id": "ticker", "name": "ticker", "version": "1.0.0", "author": "bench",
        "entry_point": "manager.py", "class_name": "Plugin", "display_modes": ["ticker"],
        "compatible_versions": [">=3.0.0"], "update_interval": 3600}))
    (directory / "config_schema.json").write_text(json.dumps({
        "type": "object", "properties": {
            "enabled": {"type": "boolean", "default": False},
            "times_file": {"type": "string", "default": ""}}}))
    (directory / "manager.py").write_text(TICKER)
    config["ticker"] = {"enabled": True, "times_file": str(times)}
    config["display_durations"]["ticker"] = 3600
    config["display"]["hardware"]["limit_refresh_rate_hz"] = REFRESH_HZ
    instance.write_config(config)
    return instance, times


def spawn(name: str, limit: Limit, args: list[str], instance: Instance) -> Daemon:
    """Start ``python <args>`` inside ``limit``'s cgroup, collecting its output."""
    env = {**os.environ, "PYTHONUNBUFFERED": "1",
           "LEDPANEL_ASSETS_DIR": str(instance.assets_dir),
           "LEDPANEL_RUNTIME_DIR": str(instance.runtime_dir),
           "LEDPANEL_REGISTRY_URL": "http://127.0.0.1:9/plugins.json",
           "LEDPANEL_REPOSITORY_API_URL": "http://127.0.0.1:9"}
    argv = limit.wrap([sys.executable, *args, *instance.dir_flags()])
    process = subprocess.Popen(argv, cwd=ROOT, env=env, text=True,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    daemon = Daemon(name, process)

    def pump() -> None:
        assert process.stdout is not None
        for line in process.stdout:
            daemon.lines.append(line)

    threading.Thread(target=pump, daemon=True).start()
    return daemon


def start_display(limit: Limit, instance: Instance, bus: Bus) -> tuple[Daemon, float, float]:
    """Spawn the display daemon; return it, seconds to its first frame and the CPU
    seconds it used until then."""
    bus.remove(keys.DISPLAY_STATE)
    started = time.perf_counter()
    display = spawn("display", limit, ["-m", "display_service", "--headless"], instance)
    state = bus.wait_for(keys.DISPLAY_STATE, lambda s: bool(
        s and s.get("plugin_id") == "ticker" and s.get("first_frame_ms") is not None), 60)
    if not state or state.get("first_frame_ms") is None:
        display.stop()
        raise SystemExit(f"no first frame within 60 s:\n{display.output()}")
    return display, time.perf_counter() - started, cpu_seconds(display.process.pid)


def start_web(limit: Limit, instance: Instance) -> tuple[Daemon, str, float, float]:
    """Spawn the web daemon; return it, its URL, seconds to its first 200 on /health and
    the CPU seconds it used until then."""
    started = time.perf_counter()
    web = spawn("web", limit, ["-m", "web_service", "--host", "127.0.0.1", "--port", "0"],
                instance)
    deadline = started + 60
    while not (match := _LISTENING.search(web.output())):
        if web.process.poll() is not None or time.perf_counter() > deadline:
            web.stop()
            raise SystemExit(f"web daemon did not start:\n{web.output()}")
        time.sleep(0.005)
    url = f"http://127.0.0.1:{match.group(1)}"
    wait_http(f"{url}/api/v3/health", deadline - time.perf_counter())
    return web, url, time.perf_counter() - started, cpu_seconds(web.process.pid)


OVERVIEW_WIRED = "() => !!document.querySelector('#display dt')"


def page_loads(url: str, loads: int) -> list[tuple[float, float]]:
    """Open ``/`` ``loads`` times in fresh contexts; return (load event, Overview) ms."""
    from playwright.sync_api import sync_playwright

    from tests.browser.conftest import CHROMIUM, LAUNCH_ARGS

    results = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=LAUNCH_ARGS)
        try:
            for _ in range(loads):
                context = browser.new_context(viewport={"width": 1000, "height": 800})
                try:
                    page = context.new_page()
                    page.goto(url, wait_until="load", timeout=60_000)
                    page.wait_for_function(OVERVIEW_WIRED, timeout=60_000, polling=10)
                    wired = float(page.evaluate("performance.now()"))
                    load = float(page.evaluate(
                        "performance.getEntriesByType('navigation')[0].loadEventEnd"))
                    results.append((load, wired))
                finally:
                    context.close()
        finally:
            browser.close()
    return results


def count_dropped(calls: list[float], start: float, end: float,
                  interval: float = INTERVAL) -> tuple[int, int, float]:
    """Return frames drawn, frames dropped and the longest gap of the calls in
    [start, end]: a gap of ``g`` seconds between two calls dropped ``round(g / interval)
    - 1`` frames (a gap just over one interval, a late frame, drops none)."""
    inside = [t for t in calls if start <= t <= end]
    if len(inside) < 2:
        return len(inside), 0, 0.0
    gaps = [b - a for a, b in zip(inside, inside[1:], strict=False)]
    dropped = sum(max(0, round(gap / interval) - 1) for gap in gaps)
    return len(inside), dropped, max(gaps)


def dropped_frames(times_file: Path, window: float) -> tuple[int, int, float]:
    """Scroll for ``window`` seconds; return frames drawn and dropped, and the longest gap."""
    start = time.monotonic()
    time.sleep(window)
    end = time.monotonic()
    time.sleep(3.0)  # the ticker writes its times every 100 calls (1 s at 100 Hz)
    calls = [float(line) for line in times_file.read_text().split()]
    drawn, dropped, gap = count_dropped(calls, start, end)
    if drawn < 2:
        raise SystemExit(f"the ticker drew {drawn} frames in {window} s")
    return drawn, dropped, gap


def memory_peak_mb(limit: Limit) -> float:
    """Return the memory group's peak usage in MB (v1 or v2)."""
    directory = limit.directories[-1]
    for name in ("memory.peak", "memory.max_usage_in_bytes"):
        if (directory / name).exists():
            return int((directory / name).read_text()) / MB
    return float("nan")


def loadavg() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def ms(values: list[float]) -> str:
    return (f"median {statistics.median(values):.0f} ms, p95 {percentile(values, 95):.0f} "
            f"ms, max {max(values):.0f} ms (n={len(values)})")


@contextmanager
def groups(args: argparse.Namespace) -> Iterator[tuple[Limit, Limit]]:
    """Yield the display's and the web's limits (the same one unless --per-daemon)."""
    memory = args.memory_mb * MB
    with ExitStack() as stack:
        display = stack.enter_context(limited("ledpanel-pi", args.quota, args.period, memory))
        web = display
        if args.per_daemon:
            web = stack.enter_context(limited("ledpanel-pi-web", args.quota, args.period,
                                              memory))
        yield display, web


def run(args: argparse.Namespace, base: Path) -> dict[str, Any]:
    """Measure everything once over a fresh instance in ``base``; return the figures."""
    instance, times_file = ticker_instance(base)
    bus = Bus(instance.cache_dir)
    figures: dict[str, Any] = {"load_before": loadavg()}
    with groups(args) as (display_limit, web_limit), ExitStack() as daemons:
        display, figures["first_frame"], figures["first_cpu"] = start_display(
            display_limit, instance, bus)
        display.stop()  # again, as every boot after the first does
        display, figures["restart_frame"], figures["restart_cpu"] = start_display(
            display_limit, instance, bus)
        daemons.callback(display.stop)
        web, url, figures["web_start"], figures["web_cpu"] = start_web(web_limit, instance)
        daemons.callback(web.stop)
        figures["loads"] = page_loads(url, args.loads)
        figures["brightness"] = brightness_samples(bus, requests.Session(), url, args.saves)
        before, cpu = display_limit.throttled(), cpu_seconds(display.process.pid)
        scrolled = dropped_frames(times_file, args.window)
        figures["scroll_cpu"] = (cpu_seconds(display.process.pid) - cpu) / (args.window + 3)
        figures["drawn"], figures["dropped"], figures["gap"] = scrolled
        figures["window_throttled"] = display_limit.throttled()[0] - before[0]
        figures["fps"] = (bus.read(keys.DISPLAY_STATE) or {}).get("fps")
        figures["rss"] = (rss_mb(display.process.pid), rss_mb(web.process.pid))
        limits = [display_limit] if web_limit is display_limit else [display_limit, web_limit]
        figures["peak"] = sum(memory_peak_mb(limit) for limit in limits)
        figures["throttled"] = [limit.throttled() for limit in limits]
    figures["load_after"] = loadavg()
    return figures


def report(args: argparse.Namespace, figures: dict[str, Any]) -> None:
    share = "own eighth each" if args.per_daemon else "one group for both"
    quota = (f"quota {args.quota}/{args.period} us ({args.quota / args.period:.3f} core, "
             f"{share})" if args.quota > 0 else "no CPU quota (baseline)")
    print(f"{quota}, "
          f"memory {args.memory_mb} MB; load average before {figures['load_before']}, "
          f"after {figures['load_after']}")
    print(f"display start to first frame: {figures['first_frame'] * 1000:.0f} ms on a fresh "
          f"instance, {figures['restart_frame'] * 1000:.0f} ms started again (target < 2 s); "
          f"CPU used until then {figures['first_cpu'] * 1000:.0f} / "
          f"{figures['restart_cpu'] * 1000:.0f} ms")
    print(f"web start to first answer: {figures['web_start'] * 1000:.0f} ms (target < 3 s); "
          f"CPU used until then {figures['web_cpu'] * 1000:.0f} ms")
    (first_load, first_wired), *later = figures["loads"]
    print(f"first load of / right after start: load event {first_load:.0f} ms, Overview "
          f"wired {first_wired:.0f} ms (target < 1.5 s)")
    if later:
        print(f"later fresh loads of /: load event {ms([a for a, _ in later])}; "
              f"Overview wired {ms([b for _, b in later])}")
    print(f"brightness save to applied, while scrolling: {ms(figures['brightness'])} "
          f"(target < 300 ms)")
    drawn, dropped = figures["drawn"], figures["dropped"]
    print(f"scrolling at {REFRESH_HZ} Hz for {args.window:.0f} s: {drawn} frames drawn, "
          f"{dropped} dropped ({100 * dropped / (drawn + dropped):.2f}%; target < 1%), "
          f"longest gap {figures['gap'] * 1000:.0f} ms; display_state fps {figures['fps']}; "
          f"the display's group was throttled in {figures['window_throttled']} periods of "
          f"the window; the display used {figures['scroll_cpu'] * 100:.1f}% of a core")
    throttled = ", ".join(f"{n} periods / {s:.1f} s" for n, s in figures["throttled"])
    print(f"throttled: {throttled}; memory peak {figures['peak']:.0f} MB; "
          f"resident: display {figures['rss'][0]:.1f} MB, web {figures['rss'][1]:.1f} MB")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quota", type=int, default=12500, help="CPU quota per period (us)")
    parser.add_argument("--period", type=int, default=100000, help="CPU period (us)")
    parser.add_argument("--memory-mb", type=int, default=512)
    parser.add_argument("--per-daemon", action="store_true",
                        help="each daemon in its own group (its own quota)")
    parser.add_argument("--window", type=float, default=30.0, help="seconds of scrolling")
    parser.add_argument("--saves", type=int, default=20)
    parser.add_argument("--loads", type=int, default=5)
    args = parser.parse_args()
    compile_project()
    with tempfile.TemporaryDirectory() as tmp:
        figures = run(args, Path(tmp))
    report(args, figures)


if __name__ == "__main__":
    main()
