"""The preview server's page in a real Chromium: sizes, gallery, config editor, live reload."""

from __future__ import annotations

import base64
import io
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from tests.preview_service.server import PreviewServer, write_plugin

pytestmark = [pytest.mark.browser, pytest.mark.timeout(240)]

FILL = """
def update(self):
    self.shade = 50 + int(self.config.get("level", 100))

def display(self, force_clear=False):
    dm = self.display_manager
    dm.image.paste(COLOR, (0, 0, dm.width, dm.height))
    dm.update_display()
"""
SCHEMA = {"type": "object", "properties": {"level": {"type": "integer", "default": 100}}}


def _plugin(plugins: Path, color: str) -> None:
    write_plugin(plugins, "fill", FILL.replace("COLOR", color), SCHEMA)


def _pixel(page: Any, selector: str = "#gallery figure img") -> tuple[int, int, int]:
    src = page.eval_on_selector(selector, "img => img.src")
    data = base64.b64decode(src.split(",", 1)[1])
    return Image.open(io.BytesIO(data)).convert("RGB").getpixel((0, 0))


def _wait_for_pixel(page: Any, expected: tuple[int, int, int]) -> None:
    page.wait_for_function(
        """([r, g, b]) => {
             const img = document.querySelector('#gallery figure img');
             if (!img || !img.complete || !img.naturalWidth) return false;
             const c = document.createElement('canvas');
             c.width = 1; c.height = 1;
             const ctx = c.getContext('2d');
             ctx.drawImage(img, 0, 0);
             const d = ctx.getImageData(0, 0, 1, 1).data;
             return d[0] === r && d[1] === g && d[2] === b;
           }""", arg=list(expected), timeout=15000)


def test_pick_a_size_gallery_edit_config_and_live_reload(page: Any, tmp_path: Path,
                                                          shoot: Any) -> None:
    plugins = tmp_path / "plugins"
    _plugin(plugins, "(self.shade, 0, 0)")
    with PreviewServer(plugins) as server:
        page.goto(server.url + "/")
        sizes = server.get("/api/sizes").json()["sizes"]
        page.wait_for_function(f"document.querySelectorAll('#gallery figure').length === "
                               f"{len(sizes)}")
        shown = page.eval_on_selector_all("#gallery figure", "fs => fs.map(f => f.dataset.size)")
        assert shown == [f"{w}x{h}" for w, h in sizes]
        shoot(page, "gallery")

        page.select_option("#size", "64x32")
        page.wait_for_function("document.querySelectorAll('#gallery figure').length === 1")
        assert page.get_attribute("#gallery figure", "data-size") == "64x32"
        page.wait_for_function("document.querySelector('#gallery figure img').naturalWidth "
                               "=== 64")
        assert _pixel(page) == (150, 0, 0)

        page.fill("#config-fields input[name=level]", "10")
        page.press("#config-fields input[name=level]", "Tab")
        _wait_for_pixel(page, (60, 0, 0))
        assert '"level": 10' in page.input_value("#config-json")

        _plugin(plugins, "(0, self.shade, 0)")  # the author saves the plugin file
        _wait_for_pixel(page, (0, 60, 0))
        assert _pixel(page) == (0, 60, 0)
        shoot(page, "reloaded")


STEPS = """
def display(self, force_clear=False, display_mode=None):
    dm = self.display_manager
    if force_clear:
        self.step = 0
    self.step += 1
    color = (0, 0, 200) if display_mode == "blue" else (200, 0, 0)
    dm.image.paste(color, (0, 0, self.step, 4))
    dm.draw.rectangle((dm.width - 2, 0, dm.width + 5, 3), fill=(9, 9, 9))
    dm.update_display()
"""


def test_modes_frame_stepping_and_bounds_problems_drawn_over_the_image(
        page: Any, tmp_path: Path, shoot: Any) -> None:
    plugins = tmp_path / "plugins"
    write_plugin(plugins, "steps", STEPS + "\nmodes = ['red', 'blue']\n", modes=["manifest"])
    with PreviewServer(plugins) as server:
        page.goto(server.url + "/")
        page.wait_for_function("document.querySelectorAll('#gallery figure').length > 1")
        # The instance's own modes outrank the manifest's once the plugin has run.
        page.wait_for_function("[...document.querySelectorAll('#mode option')]"
                               ".map(o => o.value).join() === 'red,blue'")
        page.select_option("#size", "64x32")
        page.fill("#frames", "3")
        page.press("#frames", "Tab")  # leaving the field is what changes it
        page.wait_for_selector("#gallery figure .next-frame")
        assert "frame 1/3" in page.inner_text("#gallery figcaption")
        box = page.eval_on_selector(
            "#gallery figure .problem",
            "b => [b.style.left, b.style.top, b.style.width, b.title]")
        assert box[:3] == ["248px", "0px", "8px"] and "off_panel" in box[3]
        assert "off_panel" in page.inner_text("#gallery figcaption .problems")
        first = page.get_attribute("#gallery figure img", "src")
        page.click("#gallery figure .next-frame")
        assert "frame 2/3" in page.inner_text("#gallery figcaption")
        assert page.get_attribute("#gallery figure img", "src") != first

        page.select_option("#mode", "blue")
        _wait_for_pixel(page, (0, 0, 200))
        shoot(page, "steps")
