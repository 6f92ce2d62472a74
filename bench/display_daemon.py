"""Display daemon figures, headless: start to first plugin frame, memory, idle CPU, writes.

Targets, the existing system's figures in brackets:

- start to first plugin frame: median < 0.3 s (1.1 s; ours measured 0.35-0.52 s side by
  side while the existing system ran), reported with its spread on an idle machine and
  with one core kept busy by another process;
- resident memory < 50 MB (70 MB);
- idle rotation CPU below 0.16% of one core (0.16-0.17%, one-plugin rotation), and no
  disk writes at all while idle.

"Start" is the moment the daemon process is spawned; the first frame is seen when
``display_state`` names a plugin and a first-frame time. The project's modules are
byte-compiled first, as ``scripts/setup-env`` (and so every install) leaves them.

Idle is measured over ``--seconds`` (default 60) after a 10 s settle (the frame rate is
measured over 5 s windows), for three rotations: the default install (``web-ui-info``
alone), one clock-like plugin redrawn every second (``bench.common.DEMO_PLUGIN``: it
clears, draws the time with Pillow's default font and presents the frame) and three of
them switching every 10 s. Writes are counted with inotify on the bus and config
directories (each file created, modified or renamed into place) and, from
``/proc/<pid>/io``, as bytes the daemon sent to storage.
"""

from __future__ import annotations

import argparse
import compileall
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from bench.common import cpu_seconds, demo_instance, percentile, rss_mb
from shared.bus import core as keys
from shared.bus.core import Bus
from tests.daemons import ROOT, Daemon, Instance, start_display

STARTS = 9
SETTLE = 10.0
LOAD_SECONDS = 120  # the busy process never outlives this


def compile_project() -> None:
    """Byte-compile the project as scripts/setup-env does."""
    for package in ("shared", "display_service", "web_service", "plugin-repos"):
        compileall.compile_dir(ROOT / package, quiet=1, workers=0)


def first_frame(instance: Instance, bus: Bus) -> tuple[float, Daemon]:
    """Spawn the daemon; return seconds until its first plugin frame, and the daemon."""
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


def spread(label: str, times: list[float]) -> str:
    ms = [t * 1000 for t in times]
    return (f"{label}: median {statistics.median(ms):.0f} ms, p90 {percentile(ms, 90):.0f} ms, "
            f"min {min(ms):.0f} ms, max {max(ms):.0f} ms over {len(ms)} starts")


def start_times(instance: Instance, bus: Bus) -> list[float]:
    times = []
    for _ in range(STARTS):
        elapsed, display = first_frame(instance, bus)
        times.append(elapsed)
        display.stop()
    return times


@contextmanager
def one_core_busy() -> Iterator[None]:
    """Keep one core busy with another process (bounded to LOAD_SECONDS)."""
    spin = subprocess.Popen([sys.executable, "-c", (
        f"import time\nend = time.time() + {LOAD_SECONDS}\n"
        "while time.time() < end:\n    pass\n")])
    try:
        time.sleep(0.5)
        yield
    finally:
        spin.kill()
        spin.wait()


class WriteCounter:
    """Count files created, modified or renamed into place under some directories."""

    def __init__(self, *directories: Path) -> None:
        from watchdog.events import FileSystemEventHandler
        from watchdog.observers import Observer

        self.events: list[str] = []
        counter = self

        class Handler(FileSystemEventHandler):
            def on_any_event(self, event: Any) -> None:
                if not event.is_directory and event.event_type in (
                        "created", "modified", "moved", "closed"):
                    counter.events.append(f"{event.event_type} {event.src_path}")

        self.observer = Observer()
        for directory in directories:
            self.observer.schedule(Handler(), str(directory), recursive=True)

    def __enter__(self) -> WriteCounter:
        self.observer.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.observer.stop()
        self.observer.join(5)

    def files_written(self) -> int:
        """Renames into place plus in-place writes, each once (not the temp file's events)."""
        return sum(1 for e in self.events
                   if e.startswith("moved") or (e.startswith("closed") and not e.endswith(".tmp")))


def storage_bytes(pid: int) -> int:
    for line in Path(f"/proc/{pid}/io").read_text().splitlines():
        if line.startswith("write_bytes:"):
            return int(line.split()[1])
    return 0


def idle(label: str, instance: Instance, seconds: float) -> None:
    bus = Bus(instance.cache_dir)
    _, display = first_frame(instance, bus)
    pid = display.process.pid
    try:
        time.sleep(SETTLE)
        with WriteCounter(instance.cache_dir, instance.config_dir) as writes:
            cpu, wall, written = cpu_seconds(pid), time.perf_counter(), storage_bytes(pid)
            time.sleep(seconds)
            cpu, wall = cpu_seconds(pid) - cpu, time.perf_counter() - wall
            written = storage_bytes(pid) - written
        per_minute = writes.files_written() * 60 / wall
        print(f"idle, {label}: CPU {100 * cpu / wall:.3f}% of one core over {wall:.0f} s; "
              f"files written {per_minute:.1f} per minute, {written} bytes to storage; "
              f"RSS {rss_mb(pid):.1f} MB")
    finally:
        display.stop()


def default_install(base: Path) -> Instance:
    """The rotation of a fresh install: the bundled web-ui-info plugin alone."""
    instance = demo_instance(base, plugins=0)
    instance.plugins_dir.mkdir(parents=True, exist_ok=True)
    os.symlink(ROOT / "plugin-repos" / "web-ui-info", instance.plugins_dir / "web-ui-info")
    return instance


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60.0, help="each idle window")
    args = parser.parse_args()
    compile_project()
    with tempfile.TemporaryDirectory() as tmp:
        instance = demo_instance(Path(tmp) / "three")
        bus = Bus(instance.cache_dir)
        first_frame(instance, bus)[1].stop()  # warm the file cache
        print(spread("start to first plugin frame, idle machine", start_times(instance, bus)))
        with one_core_busy():
            print(spread("start to first plugin frame, one core busy",
                         start_times(instance, bus)))
        idle("default install (web-ui-info)", default_install(Path(tmp) / "default"),
             args.seconds)
        idle("one clock plugin at 1 Hz", demo_instance(Path(tmp) / "one", plugins=1),
             args.seconds)
        idle("three clock plugins, 10 s each", instance, args.seconds)


if __name__ == "__main__":
    main()
