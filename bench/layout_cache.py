"""Layout cache hit rate in a rotation of plugins that use the layout API.

Three plugins, loaded from their folders by the real PluginManager onto a headless
panel: the scoreboard of docs/PLUGINS.md's "Layout API" example (two logos, a score,
a status line), a clock (``draw_fit`` of HH:MM:SS, a new text every second) and a
headline card (three headlines in turn, ``draw_fit`` and ``draw_image``). The
rotation shows each for a 15 s turn, drawn once a second (static content), for
``--turns`` rounds, at each panel size given. Reported: text and image fit lookups
answered from each plugin's layout cache, and the mean ``display()`` time.
"""

from __future__ import annotations

import argparse
import re
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from display_service.matrix.headless import HeadlessMatrix
from display_service.plugins.display_manager import DisplayManager
from shared.fonts import FontManager
from shared.paths import Paths
from shared.plugin_system.manager import PluginManager
from tests.shared.conftest import write_plugin

ROOT = Path(__file__).resolve().parents[1]
TURN_FRAMES = 15

CLOCK = '''
from shared.plugin_api.base_plugin import BasePlugin


class Clock(BasePlugin):
    seconds = 0

    def update(self):
        pass

    def display(self, force_clear=False):
        self.seconds += 1
        h, rest = divmod(self.seconds + 12 * 3600, 3600)
        self.display_manager.clear()
        self.draw_fit("%02d:%02d:%02d" % (h % 24, rest // 60, rest % 60), self.layout.bounds)
        self.display_manager.update_display()
        return True
'''

HEADLINES = '''
from PIL import Image

from shared.plugin_api.base_plugin import BasePlugin
from shared.plugin_api.common.adaptive_layout import media_row

TITLES = ["Rain by noon", "Markets up 2%", "Bridge reopens Monday"]


class Headlines(BasePlugin):
    shown = 0

    def update(self):
        self.icon = Image.new("RGBA", (12, 12), (0, 120, 255, 255))

    def display(self, force_clear=False):
        self.shown += 1
        row = media_row(self.layout.bounds, ctx=self.layout)
        self.display_manager.clear()
        self.draw_image(self.icon, row.art, cache_key="icon")
        self.draw_fit(TITLES[(self.shown // 5) % 3], row.body)
        self.display_manager.update_display()
        return True
'''


def scoreboard_code() -> str:
    text = (ROOT / "docs" / "PLUGINS.md").read_text(encoding="utf-8")
    section = text.split("## Layout API", 1)[1]
    found = re.search(r"```python\n(.*?)```", section, re.DOTALL)
    if found is None:
        raise SystemExit("docs/PLUGINS.md has no Layout API example")
    return found.group(1)


def load(base: Path, size: tuple[int, int], fonts: FontManager) -> PluginManager:
    paths = Paths(root=base, config_dir=base / "config", cache_dir=base / "cache")
    plugins = paths.plugins_dir()
    write_plugin(plugins, "score", class_name="Score", code=scoreboard_code())
    write_plugin(plugins, "clock", class_name="Clock", code=CLOCK)
    write_plugin(plugins, "headlines", class_name="Headlines", code=HEADLINES)
    config = {pid: {"enabled": True} for pid in ("score", "clock", "headlines")}
    display = DisplayManager(HeadlessMatrix(*size), font_manager=fonts)
    manager = PluginManager(paths, config, display_manager=display, font_manager=fonts)
    if sorted(manager.load_enabled()) != ["clock", "headlines", "score"]:
        raise SystemExit(f"plugins did not load: {manager.load_errors}")
    return manager


def rotate(manager: PluginManager, turns: int) -> tuple[dict[str, Any], list[float]]:
    timings: list[float] = []
    for _ in range(turns):
        for instance in manager.instances.values():
            instance.update()
            for _ in range(TURN_FRAMES):
                started = time.perf_counter()
                instance.display()
                timings.append((time.perf_counter() - started) * 1000)
    totals: dict[str, Any] = {kind: {"hits": 0, "misses": 0} for kind in ("text", "image")}
    for instance in manager.instances.values():
        for kind, counts in instance.layout.cache_info().items():
            totals[kind]["hits"] += counts["hits"]
            totals[kind]["misses"] += counts["misses"]
    return totals, timings


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=8)
    parser.add_argument("--sizes", default="64x32,128x32,192x48")
    args = parser.parse_args()
    fonts = FontManager({})
    for token in args.sizes.split(","):
        width, height = (int(v) for v in token.split("x"))
        with tempfile.TemporaryDirectory() as tmp:
            manager = load(Path(tmp), (width, height), fonts)
            totals, timings = rotate(manager, args.turns)
        rates = []
        for kind, counts in totals.items():
            looked = counts["hits"] + counts["misses"]
            rates.append(f"{kind} {100 * counts['hits'] / max(1, looked):.1f}% "
                         f"of {looked}")
        print(f"{token}: layout cache hits: {', '.join(rates)}; display() mean "
              f"{statistics.fmean(timings):.2f} ms over {len(timings)} frames")


if __name__ == "__main__":
    main()
