"""A plugin folder with tests written for the existing system's harness, unmodified.

``hello`` reads its greeting from the cache (else its config), stores it, fills the
panel with its ``background`` and writes the greeting. Its ``test/`` folder is the
existing system's style: a ``PluginTestCase`` test, a ``render_plugin_matrix`` test
comparing with goldens (base and the ``night`` variant of harness.json), and one in the
style of its published matrix test (``loading`` helpers, harness.json's ``mock_data``).
"""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

MANAGER = """
from src.plugin_system.base_plugin import BasePlugin


class HelloPlugin(BasePlugin):
    message = "Hello"

    def update(self):
        cached = self.cache_manager.get("hello_greeting")
        self.message = cached or self.config.get("message", "Hello")
        self.cache_manager.set("hello_greeting", self.message)

    def display(self, force_clear=False):
        dm = self.display_manager
        dm.clear()
        background = tuple(self.config.get("background", [0, 0, 160]))
        dm.image.paste(background, (0, 0, dm.width, dm.height))
        dm.draw_text(self.message, x=1, y=1, color=(255, 255, 255))
        dm.update_display()
        return True
"""

UNIT_TEST = """
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from manager import HelloPlugin
from src.plugin_system.testing import PluginTestCase, VisualTestDisplayManager


class TestHello(PluginTestCase):
    def test_update_caches_and_display_draws_the_greeting(self):
        plugin = self.create_plugin_instance(HelloPlugin,
                                             config=self.get_mock_config(message="Hi"))
        plugin.update()
        plugin.display(force_clear=True)
        self.assert_cache_get("hello_greeting")
        self.assert_cache_set("hello_greeting")
        self.assert_display_cleared()
        self.assert_text_drawn("Hi")
        self.assert_display_updated()

    def test_real_pixels_on_a_visual_display_manager(self):
        self.display_manager = VisualTestDisplayManager(width=64, height=32)
        plugin = self.create_plugin_instance(HelloPlugin)
        plugin.display(force_clear=True)
        image = self.display_manager.get_image()
        self.assertEqual(image.size, (64, 32))
        self.assertEqual(image.getpixel((63, 31)), (0, 0, 160))
"""

MATRIX_TEST = """
import json
from pathlib import Path

import pytest

from src.plugin_system.testing import resolve_test_sizes
from src.plugin_system.testing.harness import (
    check_empty_claimed, check_scale_up, compare_to_goldens, render_plugin_matrix)

PLUGIN_DIR = Path(__file__).resolve().parent.parent
SPEC = json.loads((PLUGIN_DIR / "test" / "harness.json").read_text())
RUNS = [({}, "test/golden")] + [(v["config"], v.get("golden_dir", "test/golden-" + v["name"]))
                                 for v in SPEC.get("variants", [])]


@pytest.mark.parametrize("overlay,golden_dir", RUNS)
def test_every_size_and_mode_matches_its_golden(overlay, golden_dir):
    results = render_plugin_matrix("hello", PLUGIN_DIR, config={**SPEC["config"], **overlay},
                                   sizes=resolve_test_sizes(SPEC.get("sizes")))
    check_empty_claimed(results)
    check_scale_up(results, strict=True)
    compare_to_goldens(results, PLUGIN_DIR / golden_dir)
    assert results
    for r in results:
        assert r.golden_checked, f"no golden for {r.mode} at {r.size_label}"
        assert r.ok, (r.mode, r.size_label, r.error, r.overflow, r.golden_diff_pixels)
"""

CHECK_TEST = """
from pathlib import Path

from src.plugin_system.testing import resolve_test_sizes
from src.plugin_system.testing.harness import compare_to_goldens, render_plugin_matrix
from src.plugin_system.testing.loading import build_full_config, load_harness_spec

PLUGIN_DIR = Path(__file__).resolve().parent.parent


def test_renders_across_sizes_and_screens():
    spec = load_harness_spec(PLUGIN_DIR)
    results = render_plugin_matrix(
        plugin_id="hello", plugin_dir=PLUGIN_DIR, config=build_full_config(PLUGIN_DIR, spec),
        mock_data=spec.get("mock_data_contents", {}), sizes=resolve_test_sizes(spec.get("sizes")),
        run_update=not spec.get("skip_update", False), freeze_time=spec.get("freeze_time"))
    compare_to_goldens(results, PLUGIN_DIR / "test" / "golden")
    failures = [f"{r.size_label} {r.mode}: {r.error} {r.overflow} {r.golden_diff_pixels}"
                for r in results if not r.ok or not r.golden_checked]
    assert not failures, failures
"""

HARNESS_JSON = {"sizes": [[64, 32], [128, 64]], "config": {"message": "Hi"},
                "mock_data": "test/fixtures/mock.json",
                "variants": [{"name": "night", "config": {"background": [60, 0, 0]}}]}


def write_legacy_plugin(parent: Path) -> Path:
    """Write the ``hello`` plugin and its existing-style ``test/`` folder; return it."""
    directory = parent / "hello"
    (directory / "test").mkdir(parents=True)
    manifest = {"id": "hello", "name": "Hello", "version": "1.0.0", "author": "t",
                "entry_point": "manager.py", "class_name": "HelloPlugin",
                "compatible_versions": [">=3.0.0"], "display_modes": ["hello"]}
    (directory / "manifest.json").write_text(json.dumps(manifest))
    (directory / "manager.py").write_text(textwrap.dedent(MANAGER))
    (directory / "test" / "harness.json").write_text(json.dumps(HARNESS_JSON))
    (directory / "test" / "test_manager.py").write_text(textwrap.dedent(UNIT_TEST))
    (directory / "test" / "test_harness_matrix.py").write_text(textwrap.dedent(MATRIX_TEST))
    (directory / "test" / "test_plugin_check.py").write_text(textwrap.dedent(CHECK_TEST))
    (directory / "test" / "fixtures").mkdir()
    (directory / "test" / "fixtures" / "mock.json").write_text(json.dumps({"hello_greeting": "Hi"}))
    return directory
