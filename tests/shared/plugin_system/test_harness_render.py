"""The safety harness renders real plugin folders through the device's loader and
display manager, and records what the plugin drew outside the panel."""

from __future__ import annotations

import importlib
from pathlib import Path

from PIL import Image

from shared.plugin_api import compat
from shared.plugin_system import testing
from shared.plugin_system.testing import (
    DEFAULT_TEST_SIZES,
    BoundsCheckingDisplayManager,
    plugin_modes,
    render_plugin,
)
from tests.shared.plugin_system.harness_plugins import FRAMED, drawing, make_plugin


def test_the_default_sizes_include_96x48_and_the_common_panels() -> None:
    assert (96, 48) in DEFAULT_TEST_SIZES
    assert {(64, 32), (128, 32), (64, 64)} <= set(DEFAULT_TEST_SIZES)


def test_a_plugin_renders_at_the_size_asked_with_nothing_found(tmp_path: Path) -> None:
    result = render_plugin(make_plugin(tmp_path, "framed", FRAMED), (96, 48))
    assert result.error_class is None, result.error
    assert result.problems == []
    image = result.images[0]
    assert image.size == (96, 48)
    assert image.getpixel((0, 0)) == (0, 200, 0) and image.getpixel((95, 47)) == (0, 200, 0)
    assert image.getpixel((40, 20)) == (0, 0, 0)


def test_negative_and_off_panel_draws_are_recorded_with_the_call_and_box(tmp_path: Path) -> None:
    source = drawing("""
        dm.draw.rectangle((-3, 2, 10, 8), fill=(255, 0, 0))
        dm.draw.line([(5, 5), (70, 5)], fill=(0, 255, 0))
        dm.image.paste(Image.new("RGB", (8, 8), (0, 0, 255)), (60, 28))
        dm.draw_text("A very long line of text", x=2, y=12)
        dm.draw.point((1, 1), fill=(255, 255, 255))
    """).replace("from src", "from PIL import Image\nfrom src")
    result = render_plugin(make_plugin(tmp_path, "spill", source), (64, 32))
    found = [(p.details["call"], tuple(p.details["box"]), p.details["kind"])
             for p in result.problems if p.check == "bounds"]
    assert found[:3] == [("draw.rectangle", (-3, 2, 11, 9), "negative"),
                         ("draw.line", (5, 5, 71, 6), "off_panel"),
                         ("image.paste", (60, 28, 68, 36), "off_panel")]
    assert found[3][0] == "draw.text" and found[3][2] == "off_panel" and found[3][1][2] > 64
    assert len(found) == 4  # the point inside the panel is not recorded
    assert "leaves the 64x32 panel" in result.problems[0].message


def test_the_bounds_manager_is_the_real_display_manager_underneath() -> None:
    display = BoundsCheckingDisplayManager(32, 16)
    assert (display.width, display.height) == (32, 16)
    assert (display.matrix.width, display.matrix.height) == (32, 16)
    assert type(display.inner).__name__ == "DisplayManager"
    display.image = Image.new("RGB", (32, 16))  # a plugin replacing the canvas stays watched
    display.image.paste(Image.new("RGB", (4, 4)), (-1, 0))
    assert [p.details["kind"] for p in display.problems] == ["negative"]
    assert display.check_overflow() == (-1, 0, 3, 4)
    assert BoundsCheckingDisplayManager(8, 8).check_overflow() is None


def test_a_drawing_object_the_plugin_makes_itself_is_checked_too(tmp_path: Path) -> None:
    source = drawing("""
        own = ImageDraw.Draw(dm.image)
        own.ellipse((50, 20, 70, 40), outline=(255, 0, 0))
    """).replace("from src", "from PIL import ImageDraw\nfrom src")
    result = render_plugin(make_plugin(tmp_path, "own", source), (64, 32))
    assert [(p.details["call"], p.details["box"]) for p in result.problems] == [
        ("draw.ellipse", [50, 20, 71, 41])]
    assert result.images[0].getpixel((60, 20)) == (255, 0, 0)  # it still drew


def test_display_raising_gives_only_its_class_and_load_failure_is_a_plugin_error(
        tmp_path: Path) -> None:
    broken = make_plugin(tmp_path, "broken", drawing("raise ValueError('no data')"))
    result = render_plugin(broken, (64, 32))
    assert (result.error_class, result.images) == ("ValueError", [])
    missing = make_plugin(tmp_path, "missing", FRAMED, class_name="Absent")
    result = render_plugin(missing, (64, 32))
    assert result.error_class == "PluginError" and "Absent" in (result.error or "")


def test_config_is_prepared_from_the_schema_as_on_the_device(tmp_path: Path) -> None:
    schema = {"type": "object", "properties": {
        "color": {"type": "array", "items": {"type": "integer"}, "default": [9, 9, 200]}}}
    plugin = make_plugin(tmp_path, "colored", FRAMED, schema=schema)
    assert render_plugin(plugin, (64, 32)).images[0].getpixel((0, 0)) == (9, 9, 200)
    overlay = {"color": [200, 1, 1], "enabled": False}  # the harness renders it anyway
    assert render_plugin(plugin, (64, 32), overlay).images[0].getpixel((0, 0)) == (200, 1, 1)


def test_modes_come_from_the_instance_then_the_manifest_then_the_id(tmp_path: Path) -> None:
    class Own:
        modes = ["a", "b"]

    assert plugin_modes(Own(), {"display_modes": ["m"]}, "p") == ["a", "b"]
    assert plugin_modes(object(), {"display_modes": ["m"]}, "p") == ["m"]
    assert plugin_modes(object(), {}, "p") == ["p"]
    assert testing.list_modes is plugin_modes  # the existing system's name
    source = drawing("dm.draw_text(str(display_mode), x=0, y=0)").replace(
        "display(self, force_clear=False)", "display(self, display_mode=None, force_clear=False)")
    plugin = make_plugin(tmp_path, "moded", source, display_modes=["one", "two"])
    result = render_plugin(plugin, (64, 32), mode="two")
    assert (result.modes, result.mode) == (["one", "two"], "two")


COUNTING = """
from src.plugin_system.base_plugin import BasePlugin


class Framed(BasePlugin):
    frame = 0

    def update(self):
        self.updates = getattr(self, "updates", 0) + 1

    def display(self, force_clear=False):
        dm = self.display_manager
        dm.clear()
        dm.draw.point((self.frame, 0), fill=(255, 255, 255))
        dm.draw.point((0, 5 + self.updates), fill=(255, 0, 0))
        self.frame += 1
        dm.update_display()
"""


def test_frames_run_display_again_and_update_once(tmp_path: Path) -> None:
    result = render_plugin(make_plugin(tmp_path, "frames", COUNTING), (64, 32), frames=3)
    assert result.error_class is None, result.error
    assert len(result.images) == 3 and len(result.frame_seconds) == 3
    for index, image in enumerate(result.images):
        assert image.getpixel((index, 0)) == (255, 255, 255)
        assert image.getpixel((0, 6)) == (255, 0, 0)  # update() ran once


def test_the_harness_is_importable_under_the_existing_systems_name() -> None:
    compat.install()
    alias = importlib.import_module("src.plugin_system.testing")
    # A package alias now (it has sub-modules): the very same objects, lent out.
    assert alias.render_plugin is testing.render_plugin
    assert alias.DEFAULT_TEST_SIZES is testing.DEFAULT_TEST_SIZES
