"""A ticker written the way published tickers drive ScrollHelper, in the real display daemon.

Those tickers switch the helper to frame-based pacing (one pixel every ``scroll_delay``),
set ``enable_scrolling``, assign ``display_duration`` in ``__init__``, check
``cached_array`` after ``set_scrolling_image`` and log ``get_scroll_info()``. The test
reads what the ticker logs and checks the scroll runs at the speed it asked for.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from shared.bus.core import Bus
from tests.daemons import ROOT, Instance, start_display
from tests.display_service.helpers import wait_until

pytestmark = pytest.mark.timeout(120)

MANAGER = '''
import json
import time

from PIL import Image, ImageDraw

from src.plugin_system.base_plugin import BasePlugin
from src.common.scroll_helper import ScrollHelper


class TickerPlugin(BasePlugin):
    def __init__(self, plugin_id, config, display_manager, cache_manager, plugin_manager):
        super().__init__(plugin_id, config, display_manager, cache_manager, plugin_manager)
        self.display_duration = 45
        self.enable_scrolling = True
        self.scroll_helper = ScrollHelper(display_manager.width, display_manager.height,
                                          logger=self.logger)
        if hasattr(self.scroll_helper, "set_frame_based_scrolling"):
            self.scroll_helper.set_frame_based_scrolling(True)
        self.scroll_helper.set_scroll_speed(1.0)      # pixels per step
        self.scroll_helper.set_scroll_delay(0.02)     # a step every 20 ms: 50 px/s
        if hasattr(self.scroll_helper, "set_target_fps"):
            self.scroll_helper.set_target_fps(120)
        self.reported = 0.0

    def update(self):
        pass

    def display(self, force_clear=False):
        helper = self.scroll_helper
        if helper.cached_image is None:
            width, height = self.display_manager.width, self.display_manager.height
            strip = Image.new("RGB", (6000, height))
            ImageDraw.Draw(strip).rectangle((width, 0, 5999, height - 1), outline=(0, 255, 0))
            helper.set_scrolling_image(strip)
            if helper.cached_array is None:
                self.logger.error("ScrollHelper cached_array is None after set_scrolling_image")
        helper.update_scroll_position()
        self.display_manager.image.paste(helper.get_visible_portion(), (0, 0))
        self.display_manager.update_display()
        helper.log_frame_rate()
        now = time.monotonic()
        if now - self.reported >= 0.5:
            self.reported = now
            info = helper.get_scroll_info()
            self.logger.warning("ticker info %s", json.dumps(
                {"position": info["scroll_position"], "elapsed": info["elapsed_time"],
                 "duration": self.get_display_duration()}))
'''

MANIFEST = {"id": "ticker", "name": "Ticker", "version": "1.0.0", "author": "community",
            "class_name": "TickerPlugin", "entry_point": "manager.py",
            "display_modes": ["ticker"]}
INFO = re.compile(r"ticker info (\{.*\})")


def _reports(output: str) -> list[dict]:
    return [json.loads(m.group(1)) for m in INFO.finditer(output)]


def test_a_frame_based_ticker_scrolls_at_the_speed_it_asked_for(tmp_path: Path) -> None:
    instance = Instance(tmp_path)
    directory = instance.plugins_dir / "ticker"
    directory.mkdir(parents=True)
    (directory / "manifest.json").write_text(json.dumps(MANIFEST))
    (directory / "manager.py").write_text(MANAGER)
    config = json.loads((ROOT / "config" / "config.template.json").read_text())
    config["ticker"] = {"enabled": True}
    instance.write_config(config)
    display = start_display(instance)
    try:
        wait_until(lambda: any((r["elapsed"] or 0) >= 4 for r in _reports(display.output())),
                   timeout=60)
        errors = Bus(instance.cache_dir).read("plugin_errors") or {}
    finally:
        assert display.stop() == 0, display.output()
    output = display.output()
    report = max(_reports(output), key=lambda r: r["elapsed"] or 0)
    speed = report["position"] / report["elapsed"]
    # 50 px/s asked for (read as 1 px/s before, or once a second without the frame rate):
    # a busy machine may drop steps (one step per frame at most), never add them.
    assert 20 <= speed <= 52, (report, output[-3000:])
    assert report["duration"] == 45.0
    assert "cached_array is None" not in output
    # No raise; a frame over the display budget on a machine busy with other work (the
    # full suite's) is that machine's, not the ticker's.
    ticker = errors.get("ticker")
    assert ticker is None or (ticker["last_error"].startswith("display() took")
                              and ticker["count"] == ticker["phases"].get("display")), errors
    assert "Traceback" not in output
