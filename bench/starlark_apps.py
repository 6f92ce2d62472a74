"""Scripted apps (issue 18): render time, memory of 10 loaded apps, CPU while one animates.

Method. All in-process, no daemon, no network (the sample apps under
``tests/shared/starlark/apps/`` need none). The pixlet binary cannot be installed
here (no internet), so the figures stand against the issue's targets: a typical app
renders in under 100 ms, 10 apps add under 30 MB.

1. Render time at 64x32, split as the runtime does it: *load* (``load_app``: read and
   check the source), *main* (``evaluate_main``: the Starlark run that builds the widget
   tree, modules loaded) and *frames* (``render_frames``: paint every frame with
   Pillow). Each app's first render is timed in a fresh subprocess (cold: modules
   imported, BDF fonts parsed, images decoded for the first time); then ``--runs``
   warm renders (default 30) in this process give the median and p95.
   The clocks: ``seasonclock`` (the typical clock: the time as ``render.Text`` over an
   image, 30 frames) and ``fullybinarytime`` (the time drawn as many small Boxes, 150
   frames: the heavy end). The animated apps: ``washer`` (147 frames, one image
   stepped) and ``jimothy`` (24 frames of an animated GIF).
2. Memory: a fresh subprocess reads its VmRSS (/proc/self/status), imports the runtime,
   reads it again, then loads and renders 10 different sample apps keeping every
   Frames object (as the display holds them) and reads it a third time.
3. CPU while an animated app shows: ``washer`` is rendered once, then its frames are
   pushed at the app's own delay for ``--seconds`` (default 10) into a 64x32 RGB
   buffer (``Image.paste``, what the display does with a frame before the panel). The
   process's CPU time (user + system) over wall time is the app's share of one core;
   the display's own cost per frame (matrix or emulator output) is measured by
   ``bench.frame_cost`` and ``bench.display_daemon``.
4. ``--survey``: every sample app that needs no network rendered once after a cold
   render, to show where a typical app stands and which ones are slow.

Apps run with a 60 s budget instead of the 1 s default so a slow one is timed, not
stopped. Every loop is bounded: ``--runs`` (at most 200), ``--seconds`` (at most 60),
the sample list.
"""

from __future__ import annotations

import argparse
import gc
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from bench.common import percentile

ROOT = Path(__file__).resolve().parent.parent
APPS = ROOT / "tests" / "shared" / "starlark" / "apps"
TIMED = ("seasonclock", "fullybinarytime", "washer", "jimothy")
TEN_APPS = ("seasonclock", "fullybinarytime", "washer", "jimothy", "exotic_clocks", "qlock",
            "paraland", "seinfeldquotes", "breakingbad", "constellations")
ANIMATED = "washer"
RUNS = 30
BUDGET = 60.0
SECONDS = 10.0


def render_parts(name: str) -> tuple[dict[str, float], Any]:
    """Load, run ``main`` and paint app ``name`` at 64x32; milliseconds of each part."""
    from shared.starlark.render.root import Root, render_frames
    from shared.starlark.runtime import Limits, load_app
    from shared.starlark.runtime.run import evaluate_main, services_for

    started = time.perf_counter()
    # A wide budget: the time is what is measured here, not the 1 s default check.
    app = load_app(APPS / name, Limits(seconds=BUDGET))
    loaded = time.perf_counter()
    services = services_for(app, 64, 32, app.limits, None, None, local_zone="UTC",
                            language="en")
    root = evaluate_main(app, {}, services, app.limits)
    if not isinstance(root, Root):
        raise TypeError(f"{name}: main did not return a render.Root")
    ran = time.perf_counter()
    frames = render_frames(root, width=64, height=32, max_frames=app.limits.max_frames,
                           refuse_over=app.limits.refuse_frames)  # as run_app
    painted = time.perf_counter()
    parts = {"load": loaded - started, "main": ran - loaded, "frames": painted - ran,
             "total": painted - started}
    return {key: 1000 * value for key, value in parts.items()}, frames


def cold(name: str) -> None:
    """Print the first render of ``name`` in this (fresh) process as JSON."""
    parts, frames = render_parts(name)
    print(json.dumps({**parts, "count": len(frames.images), "delay": frames.delay_ms}))


def vm_rss_mb() -> float:
    """This process's resident memory in MB (VmRSS)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


def memory() -> None:
    """Print RSS before import, after import and with 10 apps rendered and held, as JSON."""
    gc.collect()
    before = vm_rss_mb()
    import shared.starlark.render.root  # noqa: F401
    import shared.starlark.runtime  # noqa: F401
    gc.collect()
    imported = vm_rss_mb()
    held = [render_parts(name)[1] for name in TEN_APPS]
    gc.collect()
    after = vm_rss_mb()
    frames = sum(len(f.images) for f in held)
    print(json.dumps({"before": before, "imported": imported, "after": after,
                      "frames": frames}))


def in_subprocess(*args: str) -> dict[str, Any]:
    """Run this script with ``args`` in a fresh interpreter; its JSON answer."""
    done = subprocess.run([sys.executable, "-m", "bench.starlark_apps", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=120, check=False)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(args)} failed:\n{done.stderr}")
    answer: dict[str, Any] = json.loads(done.stdout.splitlines()[-1])
    return answer


def timing(name: str, runs: int) -> str:
    """One table line: cold first render, then median and p95 of ``runs`` warm ones."""
    first = in_subprocess("--cold", name)
    render_parts(name)  # warm this process for the app
    samples: dict[str, list[float]] = {"load": [], "main": [], "frames": [], "total": []}
    for _ in range(runs):
        parts, _frames = render_parts(name)
        for key, value in parts.items():
            samples[key].append(value)
    warm = "  ".join(f"{key} {statistics.median(values):.1f}/{percentile(values, 95):.1f}"
                     for key, values in samples.items())
    return (f"{name:16} {first['count']:3d} frames @{first['delay']} ms  "
            f"cold total {first['total']:.1f} (load {first['load']:.1f} main "
            f"{first['main']:.1f} frames {first['frames']:.1f})  warm p50/p95 ms: {warm}")


def survey() -> list[str]:
    """Each sample app that needs no network, rendered once warm: (ms, frames, name) lines."""
    lines = []
    index = json.loads((APPS / "index.json").read_text())
    for entry in index:
        if entry.get("network_or_secret"):
            continue
        name = entry["name"]
        try:
            render_parts(name)  # cold: fonts, images, modules
            parts, frames = render_parts(name)
        except Exception as error:  # an app that cannot render here is listed, not timed
            lines.append(f"{name:26} -- {str(error)[:70]}")
            continue
        lines.append(f"{name:26} {parts['total']:8.1f} ms  main {parts['main']:7.1f}  "
                     f"frames {parts['frames']:7.1f}  ({len(frames.images)} frames)")
    return lines


def cpu_share(seconds: float) -> str:
    """Push the animated app's frames at its delay for ``seconds``; CPU % of one core."""
    from PIL import Image

    _parts, frames = render_parts(ANIMATED)
    buffer = Image.new("RGB", (64, 32))
    delay = frames.delay_ms / 1000
    pushed = 0
    gc.collect()
    cpu_before, started = time.process_time(), time.perf_counter()
    deadline = started + seconds
    next_at = started
    while next_at < deadline:
        buffer.paste(frames.images[pushed % len(frames.images)])
        pushed += 1
        next_at += delay
        time.sleep(max(0.0, next_at - time.perf_counter()))
    wall = time.perf_counter() - started
    cpu = time.process_time() - cpu_before
    return (f"{ANIMATED} shown: {100 * cpu / wall:.2f}% of one core over {wall:.1f} s "
            f"({pushed} frames pushed at {frames.delay_ms} ms)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=RUNS)
    parser.add_argument("--seconds", type=float, default=SECONDS)
    parser.add_argument("--survey", action="store_true",
                        help="also render every sample app once (about 2 minutes)")
    parser.add_argument("--cold", metavar="APP", choices=TIMED + TEN_APPS, help=argparse.SUPPRESS)
    parser.add_argument("--memory", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.cold:
        cold(args.cold)
        return
    if args.memory:
        memory()
        return
    runs = max(1, min(args.runs, 200))
    print(f"render at 64x32, cold first run then {runs} warm runs:")
    for name in TIMED:
        print("  " + timing(name, runs))
    mem = in_subprocess("--memory")
    print(f"memory: RSS {mem['before']:.1f} MB before import, {mem['imported']:.1f} MB with "
          f"the runtime imported (+{mem['imported'] - mem['before']:.1f}), {mem['after']:.1f} MB "
          f"with 10 apps rendered and {mem['frames']} frames held "
          f"(+{mem['after'] - mem['before']:.1f} in all)")
    print("CPU: " + cpu_share(max(1.0, min(args.seconds, 60.0))))
    if args.survey:
        print("every sample app without network, one warm render each:")
        for line in survey():
            print("  " + line)


if __name__ == "__main__":
    main()
