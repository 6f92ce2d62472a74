"""Display daemon figures with the nine community-style plugins enabled (headless).

Targets (issue 8): start to first plugin frame < 0.5 s; resident memory < 60 MB; idle
rotation CPU below the existing system's on the same rotation; plugin load time per
plugin (the ``src.*`` import hook included) p95 < 20 ms.

The plugins are ``tests/community_plugins``, copied unchanged; ``http-weather`` and
``scoreboard`` call a loopback server. "Idle" is the rotation (15 s per plugin) running
with no viewer and no request, over ``--seconds`` after a 10 s settle; the rotation
includes a scrolling ticker, which draws at the panel's frame rate while it is shown.
Load time is measured in this process: each plugin's entry point imported afresh (its
package unloaded first) and its class constructed on a headless display manager,
``--loads`` times per plugin.

Usage: python -m bench.community_plugins [--seconds 30] [--loads 20]
"""

from __future__ import annotations

import argparse
import copy
import json
import logging
import statistics
import tempfile
import time
from http.server import ThreadingHTTPServer
from pathlib import Path
from threading import Thread

from bench.common import cpu_seconds, percentile, rss_mb
from bench.display_daemon import SETTLE, compile_project, first_frame
from shared.bus.core import Bus
from tests.system.test_community_plugins import PLUGINS, _Services, make_instance


def load_times(base: Path, loads: int) -> list[float]:
    """Return milliseconds per plugin load (import afresh + construct)."""
    from display_service.matrix.select import open_backend
    from display_service.plugins.display_manager import DisplayManager
    from shared.paths import resolve_paths
    from shared.plugin_system.loader import load_plugin_class
    from shared.plugin_system.manager import PluginManager

    instance = make_instance(base, "http://127.0.0.1:9", switched_off=None, duration=None)
    paths = resolve_paths(config_dir=str(instance.config_dir), cache_dir=str(instance.cache_dir),
                          plugins_dir=str(instance.plugins_dir))
    config = json.loads((instance.config_dir / "config.json").read_text())
    backend, _ = open_backend(config, force_headless=True)
    display = DisplayManager(backend)
    manager = PluginManager(paths, config, display_manager=display,
                            font_manager=display.font_manager)
    times = []
    logging.disable(logging.WARNING)  # each load repeats the manifests' advisories
    for _ in range(loads):
        for info in manager.discover():
            started = time.perf_counter()
            cls = load_plugin_class(info)
            cls(info.id, copy.deepcopy(config.get(info.id, {})), display,
                manager.cache_manager, manager)
            times.append((time.perf_counter() - started) * 1000)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--loads", type=int, default=20)
    args = parser.parse_args()
    compile_project()
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Services)
    Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}"
    try:
        with tempfile.TemporaryDirectory() as base:
            instance = make_instance(Path(base), url, switched_off=None, duration=None)
            bus = Bus(instance.cache_dir)
            starts = []
            for _ in range(5):
                elapsed, display = first_frame(instance, bus)
                starts.append(elapsed * 1000)
                display.stop()
            print(f"start to first plugin frame: median {statistics.median(starts):.0f} ms, "
                  f"max {max(starts):.0f} ms over {len(starts)} starts")
            _, display = first_frame(instance, bus)
            pid = display.process.pid
            try:
                time.sleep(SETTLE)
                cpu, wall = cpu_seconds(pid), time.perf_counter()
                time.sleep(args.seconds)
                cpu, wall = cpu_seconds(pid) - cpu, time.perf_counter() - wall
                print(f"rotation of {len(PLUGINS)} plugins: CPU {100 * cpu / wall:.2f}% of "
                      f"one core over {wall:.0f} s; RSS {rss_mb(pid):.1f} MB")
            finally:
                display.stop()
        with tempfile.TemporaryDirectory() as base:
            times = load_times(Path(base), args.loads)
            print(f"plugin load (import afresh + construct): n={len(times)} "
                  f"p50 {statistics.median(times):.1f} ms, p95 {percentile(times, 95):.1f} ms, "
                  f"max {max(times):.1f} ms")
    finally:
        server.shutdown()


if __name__ == "__main__":
    main()
