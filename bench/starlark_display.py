"""The display daemon with scripted apps: its memory with 0 and 10 apps, its CPU while an
animated app shows.

The real display daemon runs as a subprocess (``--headless``, the template's 128x32
panel) over a temporary directory holding only the bundled ``starlark-apps`` plugin.
Memory: the daemon's RSS (its own process; the render worker is a separate process,
reported beside it; the plugin stops it when nothing is due within 60 s) with no app
installed, then with 10 sample apps (``bench.starlark_apps.TEN_APPS``) installed and
all rendered.
Target (issue 18): the 10 apps add under 30 MB. CPU: one animated app (``seasonclock``
by default) alone in the rotation, measured over 20 s after the first render.
"""

from __future__ import annotations

import argparse
import json
import shutil
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.common import cpu_seconds, rss_mb
from bench.starlark_apps import TEN_APPS
from shared.bus import core as keys
from shared.bus.core import Bus
from shared.paths import Paths
from shared.starlark.installed.folder import AppsFolder, apps_root
from shared.starlark.installed.package import from_folder_files
from tests.daemons import ROOT, Daemon, Instance, start_display

SAMPLES = ROOT / "tests" / "shared" / "starlark" / "apps"
SETTLE = 5.0


def sample_names(count: int) -> list[str]:
    """``bench.starlark_apps``'s ten apps first (its figures compare), then the index's."""
    index = json.loads((SAMPLES / "index.json").read_text(encoding="utf-8"))
    offline = [entry["name"] for entry in index if not entry["network_or_secret"]]
    return [*TEN_APPS, *(n for n in offline if n not in TEN_APPS)][:count]


def make_instance(base: Path, apps: list[str]) -> Instance:
    """An instance with only the starlark-apps plugin and ``apps`` installed."""
    instance = Instance(base)
    instance.plugins_dir.mkdir(parents=True)
    shutil.copytree(ROOT / "plugin-repos" / "starlark-apps",
                    instance.plugins_dir / "starlark-apps",
                    ignore=shutil.ignore_patterns("__pycache__", "tests"))
    folder = AppsFolder(apps_root(Paths(root=base, config_dir=instance.config_dir,
                                        cache_dir=instance.cache_dir,
                                        assets_dir_override=instance.assets_dir)))
    entries = {}
    for name in apps:
        source = SAMPLES / name
        files = {str(p.relative_to(source)): p.read_bytes()
                 for p in source.rglob("*") if p.is_file()}
        folder.install(from_folder_files(files, name), source="bench")
        entries[name] = {"enabled": True, "duration": 3600, "revision": 1, "config": {}}
    config = json.loads((ROOT / "config" / "config.template.json").read_text())
    config["web-ui-info"] = {"enabled": False}
    config["starlark-apps"] = {"render_seconds": 10, "apps": entries}
    instance.write_config(config)
    return instance


def rendered(bus: Bus, apps: list[str], timeout: float) -> dict[str, Any]:
    """Wait until every app rendered or failed; its record entries."""
    def done(record: dict[str, Any] | None) -> bool:
        found = (record or {}).get("apps", {})
        return all(a in found and (found[a]["rendered_at"] or found[a]["error"]) for a in apps)

    record = bus.wait_for(keys.STARLARK_APPS, done, timeout) or {}
    return dict(record.get("apps", {}))


def worker_rss(display: Daemon) -> float:
    """RSS of the display's child processes (the render worker), MB."""
    pids = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if int(fields[1]) == display.process.pid:
            pids.append(int(stat.parent.name))
    return sum(rss_mb(pid) for pid in pids)


def memory(apps: list[str]) -> tuple[float, float, dict[str, Any]]:
    with tempfile.TemporaryDirectory() as tmp:
        instance = make_instance(Path(tmp), apps)
        bus = Bus(instance.cache_dir)
        display = start_display(instance)
        try:
            bus.wait_for(keys.DISPLAY_STATE, lambda s: bool(s and s.get("service") == "running"),
                         30)
            found = rendered(bus, apps, 300) if apps else {}
            time.sleep(SETTLE)
            return rss_mb(display.process.pid), worker_rss(display), found
        finally:
            display.stop()


def animated_cpu(app: str, seconds: float) -> tuple[float, Any, dict[str, Any]]:
    with tempfile.TemporaryDirectory() as tmp:
        instance = make_instance(Path(tmp), [app])
        bus = Bus(instance.cache_dir)
        display = start_display(instance)
        try:
            found = rendered(bus, [app], 120)
            mode = f"starlark-{app}"
            bus.wait_for(keys.DISPLAY_STATE, lambda s: bool(s and s.get("mode") == mode), 30)
            time.sleep(1.0)
            pid = display.process.pid
            cpu_before, started = cpu_seconds(pid), time.perf_counter()
            time.sleep(seconds)
            cpu = cpu_seconds(pid) - cpu_before
            wall = time.perf_counter() - started
            fps = (bus.read(keys.DISPLAY_STATE) or {}).get("fps")
            return 100 * cpu / wall, fps, found.get(app, {})
        finally:
            display.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--apps", type=int, default=10)
    parser.add_argument("--animated", default="seasonclock")
    parser.add_argument("--seconds", type=float, default=20.0)
    args = parser.parse_args()
    empty, _, _ = memory([])
    names = sample_names(args.apps)
    full, worker, found = memory(names)
    failed = {a: e["error"] for a, e in found.items() if e["error"]}
    frames = {a: e["frames"] for a, e in found.items()}
    print(f"display RSS, no app: {empty:.1f} MB")
    beside = f"{worker:.1f} MB" if worker else "stopped: nothing due within 60 s"
    print(f"display RSS, {len(names)} apps rendered: {full:.1f} MB (+{full - empty:.1f} MB; "
          f"render worker: {beside}); frames: {frames}; "
          f"failed: {failed or 'none'}")
    cpu, fps, entry = animated_cpu(args.animated, args.seconds)
    print(f"{args.animated} ({entry.get('frames')} frames at {entry.get('delay_ms')} ms, "
          f"rendered in {entry.get('render_ms')} ms): display CPU {cpu:.1f}% of one core "
          f"over {args.seconds:g} s, {fps} frames/s")


if __name__ == "__main__":
    main()
