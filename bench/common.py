"""Shared benchmark helpers: statistics, process figures, a demo instance."""

from __future__ import annotations

import json
import os
import statistics
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from shared.bus import core as keys
from shared.bus.core import Bus
from tests.daemons import ROOT, Instance, running

CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
PAGE = os.sysconf("SC_PAGE_SIZE")

DEMO_PLUGIN = '''
import time

from PIL import ImageDraw

from shared.plugin_api.base_plugin import BasePlugin


class Plugin(BasePlugin):
    def update(self):
        pass

    def display(self, force_clear=False):
        dm = self.display_manager
        dm.clear()
        ImageDraw.Draw(dm.image).text((1, 1), time.strftime("%H:%M:%S"), fill=(255, 255, 255))
        dm.update_display()
        return True

    def on_config_change(self, new_config):
        super().on_config_change(new_config)
'''


def percentile(values: list[float], pct: float) -> float:
    """Return the ``pct`` percentile (nearest rank) of ``values``."""
    ordered = sorted(values)
    rank = max(0, min(len(ordered) - 1, round(pct / 100 * len(ordered) + 0.5) - 1))
    return ordered[rank]


def summary(values_ms: list[float]) -> str:
    """Format p50/p95/p99/max of millisecond samples."""
    return (f"n={len(values_ms)} p50={statistics.median(values_ms):.2f} ms "
            f"p95={percentile(values_ms, 95):.2f} ms p99={percentile(values_ms, 99):.2f} ms "
            f"max={max(values_ms):.2f} ms")


def rss_mb(pid: int) -> float:
    """Return the resident set size of ``pid`` in MB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


def cpu_seconds(pid: int) -> float:
    """Return user+system CPU seconds consumed by ``pid`` (all threads)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


def demo_instance(base: Path, plugins: int = 3) -> Instance:
    """Create config and ``plugins`` clock-like plugins in ``base``."""
    instance = Instance(base)
    config = json.loads((ROOT / "config" / "config.template.json").read_text())
    for index in range(plugins):
        plugin_id = f"demo{index}"
        directory = instance.plugins_dir / plugin_id
        directory.mkdir(parents=True)
        (directory / "manifest.json").write_text(json.dumps({
            "id": plugin_id, "name": plugin_id, "version": "1.0.0", "author": "bench",
            "entry_point": "manager.py", "class_name": "Plugin", "display_modes": [plugin_id],
            "compatible_versions": [">=3.0.0"], "update_interval": 3600}))
        (directory / "config_schema.json").write_text(json.dumps({
            "type": "object", "properties": {
                "enabled": {"type": "boolean", "default": False},
                "message": {"type": "string", "default": "hi"}}}))
        (directory / "manager.py").write_text(DEMO_PLUGIN)
        config[plugin_id] = {"enabled": True}
        config["display_durations"][plugin_id] = 10
    instance.write_config(config)
    return instance


@contextmanager
def running_demo() -> Iterator[tuple[Bus, str]]:
    """Run both daemons over a demo instance; yield its bus and the web's base URL."""
    with tempfile.TemporaryDirectory() as tmp:
        instance = demo_instance(Path(tmp))
        bus = Bus(instance.cache_dir)
        with running(instance) as (_display, _web, url):
            bus.wait_for(keys.DISPLAY_STATE, lambda s: bool(s and s.get("plugin_id")), 10)
            yield bus, url
