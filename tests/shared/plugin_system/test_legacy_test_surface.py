"""The existing system's test helpers: mocks, ``VisualTestDisplayManager``,
``PluginTestCase`` and the size helpers, under their ``src.*`` names too."""

from __future__ import annotations

import base64
import importlib
import io
import unittest
from pathlib import Path

import pytest
from PIL import Image

from shared.plugin_api import compat
from shared.plugin_api.base_plugin import BasePlugin
from shared.plugin_system import testing
from shared.plugin_system.testing import (
    BoundsCheckingDisplayManager,
    MockCacheManager,
    MockConfigManager,
    MockDisplayManager,
    MockPluginManager,
    PluginTestCase,
    VisualTestDisplayManager,
)


class Greeter(BasePlugin):
    def update(self) -> None:
        self.cache_manager.set("greeting", "Hi")

    def display(self, force_clear: bool = False) -> bool:
        self.display_manager.clear()
        self.display_manager.draw_text(self.cache_manager.get("greeting"), 0, 0)
        self.display_manager.draw_image(Image.new("RGB", (2, 2), (9, 9, 9)), 1, 1)
        self.display_manager.update_display()
        return True


def test_the_mock_display_manager_records_without_drawing() -> None:
    dm = MockDisplayManager(width=64, height=16)
    assert (dm.width, dm.display_height, dm.image.size) == (64, 16, (64, 16))
    dm.clear()
    dm.draw_text("a", 1, 2)
    dm.update_display()
    assert dm.clear_called and dm.update_called and dm.image.getbbox() is None
    assert dm.draw_calls == [{"type": "text", "text": "a", "x": 1, "y": 2,
                              "color": (255, 255, 255), "font": None}]
    dm.reset()
    assert (dm.clear_called, dm.update_called, dm.draw_calls) == (False, False, [])


def test_the_mock_cache_honours_max_age_and_records(monkeypatch: pytest.MonkeyPatch) -> None:
    clock = [1000.0]
    monkeypatch.setattr("shared.plugin_system.testing.mocks.time.time", lambda: clock[0])
    cache = MockCacheManager()
    cache.set("k", 1)
    clock[0] += 30
    assert (cache.get("k"), cache.get("k", max_age=60), cache.get("k", max_age=10)) == (1, 1, None)
    cache.delete("k")
    assert cache.get("k") is None and cache.delete_calls == ["k"]
    assert [c["key"] for c in cache.get_calls] == ["k"] * 4 and len(cache.set_calls) == 1
    cache.reset()
    assert cache.get_calls == [] and cache.set_calls == []


def test_the_mock_config_and_plugin_managers() -> None:
    config = MockConfigManager({"a": 1})
    loaded = config.load_config()
    loaded["a"] = 2
    assert config.get_config("a") == 1 and config.get_config("b", 5) == 5
    config.save_config({"b": 2})
    assert config.load_config() == {"b": 2} and len(config.load_config_calls) == 2
    plugins = MockPluginManager()
    plugins.plugin_manifests["x"] = {"name": "X"}
    assert plugins.get_plugin_info("x") == {"name": "X", "loaded": False}
    plugins.plugins["x"] = type("P", (), {"get_info": lambda self: {"n": 1}})()
    assert plugins.get_plugin_info("x") == {"name": "X", "loaded": True,
                                            "runtime_info": {"n": 1}}
    assert plugins.get_plugin("x") is plugins.plugins["x"] and plugins.get_plugin_calls == ["x"]


def test_the_visual_display_manager_draws_real_pixels_and_records() -> None:
    dm = VisualTestDisplayManager(width=32, height=16)
    assert (dm.width, dm.height, dm.matrix.width) == (32, 16, 32)
    dm.clear()
    dm.draw_text("X", x=0, y=0, color=[255, 0, 0])
    dm.draw_image(Image.new("RGB", (4, 4), (0, 0, 255)), 28, 12)
    dm.update_display()
    image = dm.get_image()
    assert image.getpixel((31, 15)) == (0, 0, 255)
    assert (255, 0, 0) in {image.getpixel((x, y)) for x in range(8) for y in range(10)}
    assert [c["type"] for c in dm.draw_calls] == ["text", "image"]
    assert dm.clear_called and dm.update_called
    dm.reset()
    assert dm.draw_calls == [] and dm.get_image().getbbox() is None


def test_plugin_test_case_builds_a_plugin_on_the_mocks_and_its_asserts_fail() -> None:
    class Case(PluginTestCase):
        def test_it(self) -> None:
            plugin = self.create_plugin_instance(Greeter)
            self.assert_plugin_initialized(plugin)
            self.assertEqual(self.get_mock_config(x=1)["x"], 1)
            plugin.update()
            plugin.display()
            self.assert_cache_set("greeting")
            self.assert_cache_get("greeting")
            self.assert_text_drawn("Hi")
            self.assert_image_drawn()
            self.assert_display_cleared()
            self.assert_display_updated()

        def test_fails(self) -> None:
            self.assert_text_drawn("Hi")

    outcome = unittest.TestResult()
    unittest.defaultTestLoader.loadTestsFromTestCase(Case).run(outcome)
    assert outcome.testsRun == 2 and outcome.errors == []
    assert [str(f[1]).splitlines()[-1] for f in outcome.failures] == [
        "AssertionError: 0 not greater than 0 : No text was drawn"]


def test_the_existing_systems_names_are_all_there() -> None:
    compat.install()
    package = importlib.import_module("src.plugin_system.testing")
    for name in ("PluginTestCase", "VisualTestDisplayManager", "BoundsCheckingDisplayManager",
                 "MockDisplayManager", "MockCacheManager", "MockConfigManager",
                 "MockPluginManager", "DEFAULT_TEST_SIZES", "SUPPORTED_SIZES",
                 "resolve_test_sizes", "size_label", "parse_size_token", "coerce_sizes"):
        assert getattr(package, name) is getattr(testing, name)
    base = importlib.import_module("src.plugin_system.testing.plugin_test_base")
    assert base.PluginTestCase is PluginTestCase
    mocks = importlib.import_module("src.plugin_system.testing.mocks")
    assert mocks.MockCacheManager is MockCacheManager
    assert (96, 48) in package.SUPPORTED_SIZES


def test_sizes_environment_then_spec_then_default(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("LEDMATRIX_TEST_SIZES", raising=False)
    assert testing.resolve_test_sizes() == testing.DEFAULT_TEST_SIZES
    assert testing.resolve_test_sizes([[8, 16]]) == [(8, 16)]
    monkeypatch.setenv("LEDMATRIX_TEST_SIZES", "64x64, 32x16")
    assert testing.resolve_test_sizes([[8, 16]]) == [(64, 64), (32, 16)]
    assert testing.coerce_sizes(((8, 16),)) == [(8, 16)] and testing.coerce_sizes("") is None
    assert testing.size_label(128, 32) == "128x32"
    assert testing.parse_size_token(" 128X32 ") == (128, 32)
    for bad in ("128", "0x32", "axb"):
        with pytest.raises(ValueError):
            testing.parse_size_token(bad)


def test_bounds_checking_takes_the_existing_systems_arguments(tmp_path: Path) -> None:
    default = BoundsCheckingDisplayManager()
    assert (default.width, default.height) == (128, 32)
    dm = BoundsCheckingDisplayManager(width=64, height=32, overflow_extent=(256, 128))
    assert (dm.width, dm.matrix.height) == (64, 32)
    dm.draw_image(Image.new("RGB", (4, 4), (0, 0, 255)), 0, 0)
    assert dm.check_overflow() is None
    dm.draw_image(Image.new("RGB", (8, 4), (0, 0, 255)), 60, 30)
    assert dm.check_overflow() == (60, 30, 68, 34)
    image = dm.get_image()
    assert image.size == (64, 32) and image.getpixel((63, 31)) == (0, 0, 255)
    assert dm.declared_image().getpixel((3, 3)) == (0, 0, 255)
    dm.save_snapshot(str(tmp_path / "snap.png"))
    with Image.open(tmp_path / "snap.png") as saved:
        assert saved.size == (64, 32) and saved.getpixel((0, 0)) == (0, 0, 255)


def test_snapshots_of_the_visual_and_bounds_managers(tmp_path: Path) -> None:
    for dm in (VisualTestDisplayManager(width=16, height=8),
               BoundsCheckingDisplayManager(width=16, height=8)):
        dm.draw_image(Image.new("RGB", (2, 2), (250, 0, 0)), 14, 6)
        dm.save_snapshot(str(tmp_path / "s.png"))
        encoded = base64.b64decode(dm.get_image_base64())
        assert encoded == (tmp_path / "s.png").read_bytes()
        with Image.open(io.BytesIO(encoded)) as image:
            assert image.size == (16, 8) and image.getpixel((15, 7)) == (250, 0, 0)
