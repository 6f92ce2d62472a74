"""The "Layout API" example in docs/PLUGINS.md works as written: its manifest snippet and
plugin code, put in a plugin folder, load with the real PluginManager and draw a card
that stays on the panel at the design size and at a larger one."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from PIL import Image

from display_service.matrix.headless import HeadlessMatrix
from display_service.plugins.display_manager import DisplayManager
from shared.paths import Paths
from shared.plugin_api.common.adaptive_layout import Region, scoreboard_regions
from shared.plugin_system.manager import PluginManager

ROOT = Path(__file__).resolve().parents[3]
MakePlugin = Callable[..., Path]


def layout_section() -> str:
    text = (ROOT / "docs" / "PLUGINS.md").read_text(encoding="utf-8")
    match = re.search(r"^## Layout API\n(.*?)(?=^## )", text, re.DOTALL | re.MULTILINE)
    assert match, "docs/PLUGINS.md has no 'Layout API' section"
    return match.group(1)


def example(language: str) -> str:
    blocks = re.findall(rf"```{language}\n(.*?)```", layout_section(), re.DOTALL)
    assert len(blocks) == 1, f"expected one {language} example in the Layout API section"
    return str(blocks[0])


@pytest.mark.parametrize("size", [(64, 32), (192, 48)])
def test_the_layout_example_draws_a_whole_card(
    paths: Paths, plugins_dir: Path, make_plugin: MakePlugin, size: tuple[int, int]
) -> None:
    code = example("python")
    class_name = re.search(r"^class (\w+)\(BasePlugin\)", code, re.MULTILINE)
    assert class_name
    make_plugin(plugins_dir, "score", class_name=class_name.group(1), code=code,
                manifest_overrides=json.loads(example("json")))
    display = DisplayManager(HeadlessMatrix(*size))
    manager = PluginManager(paths, {"score": {"enabled": True}}, display_manager=display)
    assert list(manager.load_enabled()) == ["score"], manager.load_errors
    plugin = manager.instances["score"]

    plugin.update()
    assert plugin.display() is True

    width, height = size
    assert plugin.layout.design_size == (64, 32)
    assert plugin.layout.scale == min(width / 64, height / 32)
    image = display.image
    card = scoreboard_regions(plugin.layout.bounds, ctx=plugin.layout)
    red, white = (200, 30, 30), (255, 255, 255)
    # A logo (red) in each slot and nowhere else; the score's ink (white) only in the
    # score box.
    away, home = lit(image, red, card.away_slot), lit(image, red, card.home_slot)
    assert away > 0 and home > 0 and away + home == lit(image, red, card.bounds)
    assert lit(image, white, card.score_box) == lit(image, white, card.bounds) > 0


def lit(image: Image.Image, color: tuple[int, int, int], box: Region) -> int:
    """Count the pixels of exactly ``color`` inside ``box``."""
    return sum(1 for y in range(box.y, box.bottom) for x in range(box.x, box.right)
               if image.getpixel((x, y)) == color)
