"""The harness's checks on what a plugin drew: fill and scale-up, empty claims, golden
frames with tolerance, variants, the render budget, and harness.json."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image

from shared.plugin_system.testing import (
    DEFAULT_TEST_SIZES,
    SUPPORTED_SIZES,
    check_scale_up,
    fill_metrics,
    golden_path,
    render_plugin,
    resolve_test_sizes,
    run_harness,
)
from tests.shared.plugin_system.harness_plugins import FRAMED, drawing, make_plugin, write_spec

SMALL_BOX = drawing("dm.draw.rectangle((0, 0, 20, 10), fill=(200, 200, 0))")
DESIGN_64 = {"display": {"design_size": {"width": 64, "height": 32}}}


def test_fill_metrics_measures_lit_pixels_and_their_extent() -> None:
    image = Image.new("RGB", (100, 50))
    image.paste((255, 0, 0), (10, 5, 60, 30))   # 50 x 25 lit
    image.putpixel((90, 45), (15, 15, 15))      # under the lit threshold
    metrics = fill_metrics(image)
    assert metrics["lit_pixels"] == 50 * 25
    assert metrics["bbox"] == (10, 5, 60, 30)
    assert (metrics["width_fraction"], metrics["height_fraction"]) == (0.5, 0.5)
    assert fill_metrics(Image.new("RGB", (8, 8)))["bbox"] is None


def test_scale_up_warns_on_the_doubled_axis_under_half_covered() -> None:
    image = Image.new("RGB", (128, 64))
    image.paste((255, 255, 255), (0, 0, 128, 20))  # full width, 31% of the height
    found = check_scale_up(image, (64, 32))
    assert [(f.details["axis"], f.severity) for f in found] == [("height", "warning")]
    assert check_scale_up(image, (64, 32), strict=True)[0].severity == "error"
    assert check_scale_up(image, (65, 33)) == []         # not twice the design size
    image.paste((255, 255, 255), (0, 0, 128, 32))         # exactly half: enough
    assert check_scale_up(image, (64, 32)) == []


def test_a_small_layout_on_a_big_panel_is_a_warning_or_with_strict_an_error(
        tmp_path: Path) -> None:
    plugin = make_plugin(tmp_path, "small", SMALL_BOX, **DESIGN_64)
    result = render_plugin(plugin, (128, 64))
    assert sorted(f.details["axis"] for f in result.problems) == ["height", "width"]
    assert render_plugin(plugin, (64, 32)).problems == []
    report = run_harness(plugin, sizes=[(64, 32), (128, 64)])
    assert not report.failed and {f.check for f in report.findings} == {"scale_up"}
    write_spec(plugin, {"fill_check": "strict"})
    report = run_harness(plugin, sizes=[(64, 32), (128, 64)])
    assert report.failed
    assert all(f.severity == "error" and "128x64" in f.message for f in report.findings)


@pytest.mark.parametrize(("returns", "found"), [("True", ["empty_claimed"]), ("None",
                         ["empty_claimed"]), ("False", [])])
def test_claiming_to_draw_on_an_empty_panel_is_reported(tmp_path: Path, returns: str,
                                                       found: list[str]) -> None:
    plugin = make_plugin(tmp_path, "empty", drawing("pass", returns=returns))
    assert [f.check for f in render_plugin(plugin, (64, 32)).problems] == found


def test_goldens_are_written_then_compared_with_a_tolerance(tmp_path: Path) -> None:
    plugin = make_plugin(tmp_path, "gold", FRAMED)
    sizes = [(64, 32), (96, 48)]
    assert run_harness(plugin, sizes=sizes, update_goldens=True).findings == []
    stored = golden_path(plugin / "test" / "golden", (96, 48), "gold")
    assert stored == plugin / "test" / "golden" / "96x48" / "gold.png" and stored.is_file()
    assert run_harness(plugin, sizes=sizes).findings == []
    manager = plugin / "manager.py"
    manager.write_text(manager.read_text().replace("[0, 200, 0]", "[0, 204, 0]"))
    report = run_harness(plugin, sizes=sizes)
    assert report.failed and [f.check for f in report.findings] == ["golden", "golden"]
    assert "pixels differ by more than 0" in report.findings[0].message
    write_spec(plugin, {"golden_tolerance": 4})
    assert run_harness(plugin, sizes=sizes).findings == []
    write_spec(plugin, {"golden_tolerance": 3, "golden_max_pixels": 10})
    assert run_harness(plugin, sizes=sizes).failed  # the whole border differs


def test_variants_render_with_their_overlay_into_their_own_golden_folder(
        tmp_path: Path) -> None:
    plugin = make_plugin(tmp_path, "var", FRAMED, display_modes=["main"])
    write_spec(plugin, {"sizes": ["64x32"], "config": {"color": [0, 0, 99]}, "variants": [
        {"name": "red", "config": {"color": [255, 0, 0]}},
        {"name": "night", "config": {}, "golden_dir": "test/dark"}]})
    report = run_harness(plugin, update_goldens=True)
    assert report.labels == ["main", "main@red", "main@night"] and report.renders == 3
    expected = {"test/golden": (0, 0, 99), "test/golden-red": (255, 0, 0),
                "test/dark": (0, 0, 99)}
    for folder, color in expected.items():
        with Image.open(golden_path(plugin / folder, (64, 32), "main")) as golden:
            assert golden.getpixel((0, 0)) == color, folder
    write_spec(plugin, {"variants": [{"name": "x", "golden_dir": "../elsewhere"}]})
    assert "golden_dir must be a folder inside the plugin" in run_harness(
        plugin).findings[0].message


def test_a_failing_update_is_a_warning_and_display_still_runs(tmp_path: Path) -> None:
    source = FRAMED.replace("    def update(self):\n        pass",
                            "    def update(self):\n        raise ConnectionError('offline')")
    plugin = make_plugin(tmp_path, "offline", source)
    result = render_plugin(plugin, (64, 32))
    assert (result.error_class, result.update_error_class) == (None, "ConnectionError")
    assert [(f.check, f.severity) for f in result.problems] == [("update_error", "warning")]
    assert result.problems[0].message == "update() raised ConnectionError"  # no text
    assert result.update_error == "ConnectionError: offline"
    assert result.images[0].getpixel((0, 0)) == (0, 200, 0)
    (finding,) = run_harness(plugin, sizes=[(64, 32)]).findings
    assert finding.message == "offline at 64x32: update() raised ConnectionError: offline"
    write_spec(plugin, {"skip_update": True, "sizes": ["64x32"]})
    assert run_harness(plugin).findings == []


def test_mode_names_become_safe_golden_file_names(tmp_path: Path) -> None:
    assert golden_path(tmp_path, (64, 32), "../a/b") == tmp_path / "64x32" / "___a_b.png"
    assert golden_path(tmp_path, (8, 8), "") == tmp_path / "8x8" / "mode.png"


def test_sizes_come_from_the_environment_then_harness_json_then_the_default(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("LEDMATRIX_TEST_SIZES", raising=False)
    assert resolve_test_sizes() == DEFAULT_TEST_SIZES and SUPPORTED_SIZES == DEFAULT_TEST_SIZES
    assert resolve_test_sizes([[8, 16], "64x64"]) == [(8, 16), (64, 64)]
    plugin = make_plugin(tmp_path, "sized", FRAMED)
    write_spec(plugin, {"sizes": [[32, 16]]})
    assert run_harness(plugin).renders == 1
    monkeypatch.setenv("LEDMATRIX_TEST_SIZES", "16x8, 24x12")
    assert resolve_test_sizes([[8, 16]]) == [(16, 8), (24, 12)]
    report = run_harness(plugin, update_goldens=True)
    assert report.renders == 2 and (plugin / "test" / "golden" / "24x12").is_dir()


def test_a_frame_over_the_render_budget_fails(tmp_path: Path) -> None:
    slow = drawing("""
        import time
        time.sleep(0.3)
        dm.draw.rectangle((0, 0, dm.width - 1, dm.height - 1), outline=(9, 90, 9))
    """)
    plugin = make_plugin(tmp_path, "slow", slow)
    write_spec(plugin, {"sizes": ["64x32"], "render_budget_s": 0.1})
    report = run_harness(plugin)
    assert report.failed and [f.check for f in report.findings] == ["budget"]
    write_spec(plugin, {"sizes": ["64x32"], "render_budget_s": 5})
    assert not run_harness(plugin).failed


def test_a_crash_and_a_bad_harness_file_are_errors(tmp_path: Path) -> None:
    plugin = make_plugin(tmp_path, "crash", drawing("raise KeyError('x')"))
    report = run_harness(plugin, sizes=[(64, 32)])
    assert [(f.check, f.details["error_class"]) for f in report.findings] == [
        ("crash", "KeyError")]
    write_spec(plugin, {"fill_check": "sometimes"})
    report = run_harness(plugin)
    assert report.failed and "fill_check" in report.findings[0].message
