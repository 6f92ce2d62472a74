"""The existing system's harness checks, each against its documented behaviour."""

from __future__ import annotations

from pathlib import Path

from PIL import Image

from shared.plugin_system.testing.harness import (
    RenderResult,
    check_empty_claimed,
    check_scale_up,
    compare_images,
    compare_to_goldens,
    fill_metrics,
    golden_path,
    write_goldens,
)


def _result(size: tuple[int, int], image: Image.Image | None, mode: str = "m",
            **fields: object) -> RenderResult:
    result = RenderResult("p", size[0], size[1], mode, image=image)
    for name, value in fields.items():
        setattr(result, name, value)
    return result


def _lit(size: tuple[int, int], box: tuple[int, int, int, int],
         color: tuple[int, int, int] = (255, 255, 255)) -> Image.Image:
    image = Image.new("RGB", size)
    image.paste(color, box)
    return image


def test_compare_images_counts_pixels_over_the_delta_and_the_largest_difference() -> None:
    golden = Image.new("RGB", (4, 2))
    rendered = golden.copy()
    rendered.putpixel((0, 0), (10, 0, 0))
    rendered.putpixel((1, 0), (0, 3, 0))
    assert compare_images(golden, golden.copy()) == (True, 0, 0)
    assert compare_images(rendered, golden) == (False, 2, 10)
    assert compare_images(rendered, golden, max_delta=3) == (False, 1, 10)
    assert compare_images(rendered, golden, max_delta=3, max_diff_pixels=1) == (True, 1, 10)
    assert compare_images(Image.new("RGB", (3, 2)), golden) == (False, 6, 255)


def test_golden_path_is_size_folder_and_safe_mode_name(tmp_path: Path) -> None:
    assert golden_path(tmp_path, 64, 32, "a/../b") == tmp_path / "64x32" / "a____b.png"


def test_goldens_written_then_compared_and_missing_ones_left_unchecked(tmp_path: Path) -> None:
    good = _result((8, 4), _lit((8, 4), (0, 0, 8, 4)))
    failed = _result((8, 4), _lit((8, 4), (0, 0, 2, 2)), mode="broken", error="ValueError()")
    assert write_goldens([good, failed], tmp_path) == 1
    assert not golden_path(tmp_path, 8, 4, "broken").exists()
    again = _result((8, 4), _lit((8, 4), (0, 0, 8, 4)))
    other = _result((16, 4), _lit((16, 4), (0, 0, 1, 1)))
    compare_to_goldens([again, other], tmp_path)
    assert (again.golden_checked, again.golden_ok, again.ok) == (True, True, True)
    assert (other.golden_checked, other.golden_ok, other.ok) == (False, None, True)
    drifted = _result((8, 4), _lit((8, 4), (0, 0, 8, 4), (200, 255, 255)))
    compare_to_goldens([drifted], tmp_path, max_delta=10)
    assert (drifted.golden_ok, drifted.golden_diff_pixels, drifted.golden_max_delta) == (
        False, 32, 55)
    assert not drifted.ok


def test_fill_metrics_is_extent_on_each_axis_and_lit_share() -> None:
    assert fill_metrics(Image.new("RGB", (10, 10))) == (0.0, 0.0, 0.0)
    assert fill_metrics(_lit((10, 10), (0, 0, 5, 2))) == (0.5, 0.2, 0.1)
    assert fill_metrics(_lit((10, 10), (0, 0, 5, 2), (15, 15, 15))) == (0.0, 0.0, 0.0)
    assert fill_metrics(_lit((10, 10), (0, 0, 5, 2), (16, 0, 0)))[0] == 0.5


def test_empty_claimed_flags_a_blank_frame_unless_display_returned_false() -> None:
    blank = _result((8, 4), Image.new("RGB", (8, 4)))
    declined = _result((8, 4), Image.new("RGB", (8, 4)), display_returned=False)
    drawn = _result((8, 4), _lit((8, 4), (0, 0, 1, 1)))
    check_empty_claimed([blank, declined, drawn])
    assert (blank.empty_claimed, blank.empty_ok, blank.ok) == (True, None, True)
    assert declined.empty_claimed is None and drawn.empty_claimed is None
    strict = _result((8, 4), Image.new("RGB", (8, 4)))
    check_empty_claimed([strict], strict=True)
    assert (strict.empty_ok, strict.ok) == (False, False)


def test_scale_up_measures_only_axes_twice_the_design_size() -> None:
    small = _result((128, 32), _lit((128, 32), (0, 0, 10, 10)))
    corner = _result((256, 64), _lit((256, 64), (0, 0, 127, 31)))
    half = _result((256, 64), _lit((256, 64), (0, 0, 128, 32)))
    check_scale_up([small, corner, half])
    assert small.fill_checked is False
    assert (corner.fill_checked, corner.fill_ok, corner.fill_extent) == (True, None, (0.496, 0.484))
    assert (half.fill_ok, half.fill_extent) == (True, (0.5, 0.5))
    strict = _result((256, 64), _lit((256, 64), (0, 0, 127, 31)))
    check_scale_up([strict], strict=True)
    assert (strict.fill_ok, strict.ok) == (False, False)
    lenient = _result((256, 64), _lit((256, 64), (0, 0, 127, 31)))
    check_scale_up([lenient], design_size=(64, 32), min_extent=0.4, strict=True)
    assert lenient.fill_ok is True


def test_a_result_is_not_ok_with_an_error_or_an_overflow() -> None:
    assert _result((8, 4), None).ok
    assert not _result((8, 4), None, error="boom").ok
    assert not _result((8, 4), None, overflow=(0, 0, 9, 4)).ok
    assert _result((96, 48), None).size_label == "96x48"
