"""``self.layout``, ``draw_fit`` and ``draw_image`` as a plugin written for the existing
system uses them: loaded from its folder by the real PluginManager, drawing on a
headless display manager."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from display_service.matrix.headless import HeadlessMatrix
from display_service.plugins.display_manager import DisplayManager
from display_service.vegas.content import resolve_mode
from display_service.vegas.settings import read_settings
from shared.fonts import FontManager
from shared.paths import Paths
from shared.plugin_api import layout_api
from shared.plugin_api.base_plugin import BasePlugin, VegasDisplayMode
from shared.plugin_api.common.adaptive_layout import (
    DEFAULT_DESIGN_SIZE,
    LADDER_ARCADE,
    LayoutContext,
    Region,
)
from shared.plugin_system.manager import PluginManager

MakePlugin = Callable[..., Path]

BOARD = """
from PIL import Image

from src.plugin_system.base_plugin import BasePlugin, VegasDisplayMode
from src.adaptive_layout import LADDER_ARCADE, Region
from src.adaptive_images import RESAMPLE_NEAREST


class Board(BasePlugin):
    def __init__(self, plugin_id, config, display_manager, cache_manager, plugin_manager):
        super().__init__(plugin_id, config, display_manager, cache_manager, plugin_manager)
        self.logo = Image.new("RGBA", (8, 8), (255, 0, 0, 255))

    def update(self):
        pass

    def get_vegas_display_mode(self):
        return VegasDisplayMode.SCROLL

    def display(self, force_clear=False):
        self.display_manager.clear()
        left, right = self.layout.bounds.split_h(1, 2)
        self.image_fit = self.draw_image(self.logo, left, resample=RESAMPLE_NEAREST,
                                         cache_key="logo")
        self.text_fit = self.draw_fit("GO", right, color=(0, 255, 0), ladder=LADDER_ARCADE)
        self.display_manager.update_display()
        return True
"""


@pytest.fixture(scope="module")
def fonts() -> FontManager:
    return FontManager({})


def load_board(paths: Paths, plugins_dir: Path, make_plugin: MakePlugin, fonts: FontManager,
               size: tuple[int, int], manifest: dict[str, Any] | None = None) -> Any:
    make_plugin(plugins_dir, "board", class_name="Board", code=BOARD,
                manifest_overrides=manifest or {})
    display = DisplayManager(HeadlessMatrix(*size), font_manager=fonts)
    manager = PluginManager(paths, {"board": {"enabled": True}}, display_manager=display)
    assert list(manager.load_enabled()) == ["board"], manager.load_errors
    return manager.instances["board"]


def lit_box(plugin: Any, color: tuple[int, int, int]) -> tuple[int, int, int, int] | None:
    """Return the bounding box of the panel pixels of exactly ``color``."""
    pixels = plugin.display_manager.image.convert("RGB").load()
    width, height = plugin.display_manager.width, plugin.display_manager.height
    mask = Image.new("L", (width, height))
    for y in range(height):
        for x in range(width):
            if pixels[x, y] == color:
                mask.putpixel((x, y), 255)
    return mask.getbbox()


def test_the_manifest_design_size_reaches_the_layout(
    paths: Paths, plugins_dir: Path, make_plugin: MakePlugin, fonts: FontManager
) -> None:
    plugin = load_board(paths, plugins_dir, make_plugin, fonts, (192, 48),
                        {"display": {"design_size": {"width": 64, "height": 32}}})

    layout = plugin.layout
    assert (layout.width, layout.height, layout.design_size) == (192, 48, (64, 32))
    assert layout.scale == min(192 / 64, 48 / 32) == 1.5
    assert plugin.layout is layout  # built once, then reused
    still = read_settings({"vegas_scroll": {"default_vegas_mode": "static"}})
    assert resolve_mode(plugin, {}, still) == "scroll"  # its own Vegas hook decides


def test_without_a_design_size_the_layout_is_authored_for_128x32(
    paths: Paths, plugins_dir: Path, make_plugin: MakePlugin, fonts: FontManager
) -> None:
    plugin = load_board(paths, plugins_dir, make_plugin, fonts, (64, 32))

    assert plugin.layout.design_size == DEFAULT_DESIGN_SIZE == (128, 32)
    assert plugin.layout.scale == min(64 / 128, 32 / 32) == 0.5
    assert layout_api._DEFAULT_DESIGN_SIZE == DEFAULT_DESIGN_SIZE


def test_draw_image_and_draw_fit_land_in_their_regions(
    paths: Paths, plugins_dir: Path, make_plugin: MakePlugin, fonts: FontManager
) -> None:
    plugin = load_board(paths, plugins_dir, make_plugin, fonts, (192, 48))

    assert plugin.display() is True

    # split_h(1, 2) of 192 columns: 64 and 128. The 8x8 logo, contained in 64x48, is
    # 48x48 (scaled up 6 times), centred: columns 8..55, every row.
    assert plugin.image_fit.width == plugin.image_fit.height == 48
    assert lit_box(plugin, (255, 0, 0)) == (8, 0, 56, 48)
    # The text is in an arcade step, inside the right region, its ink centred there.
    fit = plugin.text_fit
    assert fit.fits and fit.size_px in {step.size_px for step in LADDER_ARCADE}
    left, top, right, bottom = lit_box(plugin, (0, 255, 0)) or (0, 0, 0, 0)
    assert 64 <= left and right <= 192 and 0 <= top and bottom <= 48
    assert (left, top) == (64 + (128 - fit.width) // 2, (48 - fit.height) // 2)


def test_the_layout_follows_the_surface_and_the_fonts(
    paths: Paths, plugins_dir: Path, make_plugin: MakePlugin, fonts: FontManager
) -> None:
    plugin = load_board(paths, plugins_dir, make_plugin, fonts, (128, 32))
    first = plugin.layout

    panel = plugin.display_manager
    plugin.display_manager = DisplayManager(HeadlessMatrix(64, 32), font_manager=fonts)
    narrowed = plugin.layout
    assert narrowed is not first and (narrowed.width, narrowed.height) == (64, 32)
    plugin.display_manager = panel  # back from a Vegas capture: the panel's context again
    assert plugin.layout is first
    for width in range(8, 8 + 8 * layout_api.LAYOUTS_KEPT, 8):  # only the last few are kept
        plugin.display_manager = DisplayManager(HeadlessMatrix(width, 32), font_manager=fonts)
        assert plugin.layout.width == width
    plugin.display_manager = panel
    assert plugin.layout is not first and plugin.layout.width == 128
    plugin.display_manager = DisplayManager(HeadlessMatrix(64, 32), font_manager=fonts)
    narrowed = plugin.layout

    plugin.plugin_manager.font_manager.clear_cache()  # cache_generation goes up
    assert plugin.layout is not narrowed


class Bare(BasePlugin):
    def update(self) -> None:
        return None

    def display(self, force_clear: bool = False) -> bool:
        return True


class Static(Bare):
    def get_vegas_display_mode(self) -> VegasDisplayMode:
        return VegasDisplayMode.STATIC


def test_vegas_hooks_default_to_no_opinion_so_the_core_decides() -> None:
    plugin = Bare("bare", {}, None, None, None)
    settings = read_settings({"vegas_scroll": {"default_vegas_mode": "static"}})

    assert plugin.get_vegas_content() is None
    assert plugin.get_vegas_content_type() is None
    assert plugin.get_vegas_display_mode() is None
    assert plugin.get_vegas_segment_width() is None
    assert resolve_mode(plugin, {}, settings) == "static"
    assert resolve_mode(plugin, {"vegas_mode": "scroll"}, settings) == "scroll"
    scrolling = read_settings({})
    assert resolve_mode(Static("static", {}, None, None, None), {}, scrolling) == "static"


def test_a_surface_without_a_size_falls_back_to_its_matrix_then_the_design_size() -> None:
    class Matrix:
        width, height = 96, 48

    class Surface:
        width = None
        matrix = Matrix()

    assert layout_api.panel_size(Surface()) == (96, 48)
    assert layout_api.panel_size(None) == (128, 32)


@pytest.mark.parametrize(
    ("manifest", "expected"),
    [
        ({"display": {"design_size": {"width": 64, "height": 32}}}, (64, 32)),
        ({"display": {"design_size": {"width": 64}}}, (128, 32)),
        ({"display": {"design_size": {"width": True, "height": 32}}}, (128, 32)),
        ({"display": "wide"}, (128, 32)),
        (None, (128, 32)),
    ],
)
def test_design_size_of_reads_only_a_whole_declaration(
    manifest: dict[str, Any] | None, expected: tuple[int, int]
) -> None:
    assert layout_api.design_size_of(manifest) == expected


def test_a_manager_keeping_manifests_in_a_dict_also_gives_the_design_size() -> None:
    class OldManager:
        plugin_manifests = {"bare": {"display": {"design_size": {"width": 32, "height": 16}}}}

    plugin = Bare("bare", {}, DisplayManager(HeadlessMatrix(64, 32)), None, OldManager())
    assert plugin.layout.design_size == (32, 16) and plugin.layout.scale == 2.0


def test_a_plugin_may_assign_its_own_layout(fonts: FontManager) -> None:
    class Own(Bare):
        def __init__(self, *args: Any) -> None:
            super().__init__(*args)
            self.layout = LayoutContext(32, 16, fonts)  # as plugins before the property did

    display = DisplayManager(HeadlessMatrix(64, 32), font_manager=fonts)
    plugin = Own("own", {}, display, None, None)
    assert (plugin.layout.width, plugin.layout.height) == (32, 16)
    fit = plugin.draw_fit("8", Region(0, 0, 32, 16))  # fitted with the plugin's own layout
    assert fit is plugin.layout.fit_text("8", Region(0, 0, 32, 16))
    del plugin.layout
    assert (plugin.layout.width, plugin.layout.height) == (64, 32)
