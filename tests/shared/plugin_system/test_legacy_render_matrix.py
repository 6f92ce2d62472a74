"""``render_plugin_matrix``: real plugin folders rendered at every size and mode."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

from shared.plugin_api import compat
from shared.plugin_system.testing import harness
from shared.plugin_system.testing.harness import render_plugin_matrix
from tests.shared.plugin_system.harness_plugins import drawing, make_plugin

TWO_MODES = drawing("dm.draw.rectangle((0, 0, dm.width - 1, dm.height - 1), fill=(0, 90, 0))")


@pytest.fixture(autouse=True)
def _finder() -> None:
    compat.install()


def test_every_size_and_mode_gets_a_result_with_its_frame(tmp_path: Path) -> None:
    plugin = make_plugin(tmp_path, "two", TWO_MODES, display_modes=["one", "two"])
    results = render_plugin_matrix("two", plugin, sizes=[(64, 32), (96, 48)])
    assert [(r.size_label, r.mode) for r in results] == [
        ("64x32", "one"), ("64x32", "two"), ("96x48", "one"), ("96x48", "two")]
    for r in results:
        assert r.ok and r.image is not None and r.image.size == (r.width, r.height)
        assert r.image.getpixel((r.width - 1, r.height - 1)) == (0, 90, 0)
        assert r.display_returned is True and r.overflow is None


def test_a_draw_past_the_edge_is_the_overflow(tmp_path: Path) -> None:
    plugin = make_plugin(tmp_path, "wide", drawing(
        "dm.draw.rectangle((0, 0, dm.width + 9, 3), fill=(255, 0, 0))"))
    (result,) = render_plugin_matrix("wide", plugin, sizes=[(64, 32)])
    assert result.overflow == (0, 0, 74, 4) and not result.ok


def test_update_failures_connectivity_tolerated_others_fatal(tmp_path: Path) -> None:
    offline = TWO_MODES.replace("pass", "raise ConnectionError('no network')", 1)
    broken = TWO_MODES.replace("pass", "raise KeyError('score')", 1)
    (tolerated,) = render_plugin_matrix("off", make_plugin(tmp_path, "off", offline),
                                        sizes=[(64, 32)])
    assert tolerated.update_error == "ConnectionError('no network')" and tolerated.ok
    (fatal,) = render_plugin_matrix("bad", make_plugin(tmp_path, "bad", broken),
                                    sizes=[(64, 32)])
    assert fatal.error == "KeyError('score')" and not fatal.ok


def test_a_display_crash_and_a_load_failure_are_errors(tmp_path: Path) -> None:
    crash = make_plugin(tmp_path, "crash", drawing("raise ValueError('x')"))
    (crashed,) = render_plugin_matrix("crash", crash, sizes=[(64, 32)])
    assert crashed.error == "ValueError: x" and crashed.image is None
    missing = make_plugin(tmp_path, "gone", TWO_MODES, class_name="Nowhere")
    (failed,) = render_plugin_matrix("gone", missing, sizes=[(64, 32)])
    assert (failed.mode, failed.ok) == ("<load>", False) and "Nowhere" in (failed.error or "")


def test_mock_data_is_in_the_cache_before_update(tmp_path: Path) -> None:
    source = drawing("dm.draw.rectangle((0, 0, 3, 3), fill=tuple(self.seen))").replace(
        "pass", "self.seen = self.cache_manager.get('scores')", 1)
    plugin = make_plugin(tmp_path, "seeded", source)
    (result,) = render_plugin_matrix("seeded", plugin, mock_data={"scores": [1, 2, 250]},
                                     sizes=[(64, 32)])
    assert result.error is None and result.image is not None
    assert result.image.getpixel((0, 0)) == (1, 2, 250)


def test_freeze_time_without_freezegun_says_so(tmp_path: Path) -> None:
    plugin = make_plugin(tmp_path, "two", TWO_MODES)
    if importlib.util.find_spec("freezegun") is not None:
        pytest.skip("freezegun is installed here")
    with pytest.raises(RuntimeError, match="freezegun"):
        render_plugin_matrix("two", plugin, sizes=[(64, 32)], freeze_time="2025-08-01 15:25")


def test_the_harness_module_has_the_existing_systems_name() -> None:
    alias = importlib.import_module("src.plugin_system.testing.harness")
    assert alias is harness
    from src.plugin_system.testing.harness import list_modes  # type: ignore[import-not-found]
    assert list_modes(object(), {"display_modes": ["a"]}, "p") == ["a"]
    assert list_modes(object(), {}, "p") == ["p"]


def test_a_blank_first_frame_is_rendered_on_until_something_is_lit(tmp_path: Path) -> None:
    late = drawing("""
        self.frames = getattr(self, "frames", 0) + 1
        if self.frames >= 5:
            dm.draw.rectangle((0, 0, dm.width - 1, dm.height - 1), fill=(0, 0, 200))
    """)
    (result,) = render_plugin_matrix("late", make_plugin(tmp_path, "late", late),
                                     sizes=[(64, 32)])
    assert result.image is not None and result.image.getpixel((10, 10)) == (0, 0, 200)
    never = drawing("pass")
    (blank,) = render_plugin_matrix("never", make_plugin(tmp_path, "never", never),
                                    sizes=[(64, 32)])
    assert blank.image is not None and blank.image.getbbox() is None
    harness.check_empty_claimed([blank])
    assert blank.empty_claimed is True
