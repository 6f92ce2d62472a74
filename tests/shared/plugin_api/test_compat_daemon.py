"""A plugin written for the existing system loads unchanged in the real display daemon."""

from __future__ import annotations

import base64
import io
import json
import time
from pathlib import Path

import pytest
from PIL import Image

from shared.bus.core import Bus
from tests.daemons import ROOT, Instance, start_display

pytestmark = pytest.mark.timeout(120)

# Written as published plugins are: src.* imports, a sibling module imported as a
# top-level name, type hints from src.display_manager, drawing on display_manager.image.
MANAGER = '''
import logging
from typing import Any, Dict

from src.plugin_system.base_plugin import BasePlugin
from src.common import ScrollHelper
from src.display_manager import DisplayManager
from src.cache_manager import CacheManager

from colors import ACCENT

logger = logging.getLogger(__name__)


class BannerPlugin(BasePlugin):
    def __init__(self, plugin_id: str, config: Dict[str, Any],
                 display_manager: DisplayManager, cache_manager: CacheManager,
                 plugin_manager) -> None:
        super().__init__(plugin_id, config, display_manager, cache_manager, plugin_manager)
        self.scroll_helper = ScrollHelper(display_manager.width, display_manager.height)

    def update(self) -> None:
        pass

    def display(self, force_clear: bool = False) -> None:
        if force_clear:
            self.display_manager.clear()
        width, height = self.display_manager.width, self.display_manager.height
        self.display_manager.draw.rectangle((0, 0, width // 2, height - 1), fill=ACCENT)
        self.display_manager.update_display()
'''

MANIFEST = {
    "id": "banner",
    "name": "Banner",
    "version": "1.0.0",
    "author": "community",
    "class_name": "BannerPlugin",
    "entry_point": "manager.py",
    "display_modes": ["banner"],
    "icon": "fas fa-flag",
    "screenshot": "screenshot.png",
    "category": "custom",
    "requirements_file": "requirements.txt",
    "versions": [{"released": "2025-03-01", "version": "1.0.0", "ledmatrix_min": "2.0.0"}],
    "web_ui_actions": [{"id": "ping", "type": "script", "script": "scripts/ping.py",
                        "success_message": "ok"}],
}
ACCENT = (0, 200, 120)


def _instance(base: Path) -> Instance:
    instance = Instance(base)
    directory = instance.plugins_dir / "banner"
    directory.mkdir(parents=True)
    (directory / "manifest.json").write_text(json.dumps(MANIFEST))
    (directory / "manager.py").write_text(MANAGER)
    (directory / "colors.py").write_text(f"ACCENT = {ACCENT!r}\n")
    (directory / "requirements.txt").write_text("")
    config = json.loads((ROOT / "config" / "config.template.json").read_text())
    config["banner"] = {"enabled": True}
    instance.write_config(config)
    return instance


def _accent_pixels(frame: dict) -> int:
    image = Image.open(io.BytesIO(base64.b64decode(frame["png_base64"]))).convert("RGB")
    return dict((color, count) for count, color in image.getcolors(1 << 16)).get(ACCENT, 0)


def test_a_community_style_plugin_draws_with_zero_errors(tmp_path: Path) -> None:
    instance = _instance(tmp_path)
    display = start_display(instance)
    bus = Bus(instance.cache_dir)
    drawn = 0
    try:
        state = bus.wait_for(
            "display_state", lambda s: bool(s and s.get("plugin_id") == "banner"), timeout=30)
        assert state is not None, display.output()
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and not drawn:
            bus.publish("preview_viewer", {"until": time.time() + 30})
            frame = bus.read("preview_frame")
            drawn = _accent_pixels(frame) if frame else 0
            time.sleep(0.1)
        state = bus.read("display_state") or {}
        errors = bus.read("plugin_errors") or {}
    finally:
        assert display.stop() == 0, display.output()
    assert state.get("load_errors") == {}, state.get("load_errors")
    assert "banner" not in errors, errors
    assert drawn > 0, "the plugin's drawing never reached the preview"
    assert "banner: compatible_versions: is required" in display.output()
