"""The existing system's harness checks, over lists of its per-render results.

Each takes and returns ``harness.RenderResult``s (mutating their fields), as that
harness does: ``compare_images(rendered, golden, max_delta=0, max_diff_pixels=0)`` ->
``(ok, differing pixels, largest channel difference)``; ``golden_path(golden_dir,
width, height, mode)``; ``compare_to_goldens`` (a result with no golden file is left
unchecked); ``write_goldens`` (the count written, failed renders skipped);
``fill_metrics(image)`` -> ``(extent_x, extent_y, ink_ratio)``; ``check_empty_claimed``
and ``check_scale_up`` (an axis at least twice the design size must be lit over at
least ``min_extent``, 0.5, of its length; a pixel is lit when a channel reaches 16).
Warn-only by default: ``strict=True`` makes the result fail. The checks themselves are
ours (``golden``, ``metrics``).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Protocol, cast

from PIL import Image, ImageChops

from shared.plugin_system.testing import golden, metrics
from shared.plugin_system.testing.sizes import Size


class Rendered(Protocol):
    """What the checks read and set on a result (``harness.RenderResult``)."""

    width: int
    height: int
    mode: str
    image: Image.Image | None
    error: str | None
    display_returned: object
    golden_checked: bool
    golden_ok: bool | None
    golden_diff_pixels: int
    golden_max_delta: int
    empty_claimed: bool | None
    empty_ok: bool | None
    fill_checked: bool
    fill_ok: bool | None
    fill_extent: tuple[float, float] | None


def compare_images(rendered: Image.Image, golden_image: Image.Image, max_delta: int = 0,
                   max_diff_pixels: int = 0) -> tuple[bool, int, int]:
    """Return (ok, pixels differing by more than ``max_delta``, largest difference)."""
    if rendered.size != golden_image.size:
        return False, rendered.size[0] * rendered.size[1], 255
    found = golden.compare_images(rendered, golden_image, max_delta, max_diff_pixels)
    diff = ImageChops.difference(rendered.convert("RGB"), golden_image.convert("RGB"))
    bands = cast(tuple[tuple[int, int], ...], diff.getextrema())
    largest = max(high for _low, high in bands)
    return bool(found["ok"]), int(found["differing"]), int(largest)


def golden_path(golden_dir: Path | str, width: int, height: int, mode: str) -> Path:
    """Return ``<golden_dir>/<W>x<H>/<mode>.png`` (the mode made a safe file name)."""
    return golden.golden_path(Path(golden_dir), (width, height), mode)


def compare_to_goldens(results: Sequence[Rendered], golden_dir: Path | str, max_delta: int = 0,
                       max_diff_pixels: int = 0) -> Sequence[Rendered]:
    """Compare each rendered frame with its golden file, when there is one."""
    for result in results:
        if result.image is None:
            continue
        path = golden_path(golden_dir, result.width, result.height, result.mode)
        if not path.exists():
            continue
        with Image.open(path) as stored:
            ok, differing, largest = compare_images(result.image, stored, max_delta,
                                                    max_diff_pixels)
        result.golden_checked, result.golden_ok = True, ok
        result.golden_diff_pixels, result.golden_max_delta = differing, largest
    return results


def write_goldens(results: Sequence[Rendered], golden_dir: Path | str) -> int:
    """Save each successful render as its golden frame; return how many were written."""
    written = 0
    for result in results:
        if result.image is None or result.error is not None:
            continue
        path = golden_path(golden_dir, result.width, result.height, result.mode)
        path.parent.mkdir(parents=True, exist_ok=True)
        result.image.save(path, format="PNG")
        written += 1
    return written


def fill_metrics(image: Image.Image) -> tuple[float, float, float]:
    """Return the lit box's share of the width and of the height, and the lit share."""
    found = metrics.fill_metrics(image)
    if found["bbox"] is None:
        return (0.0, 0.0, 0.0)
    return (found["width_fraction"], found["height_fraction"], found["lit_fraction"])


def check_empty_claimed(results: Sequence[Rendered], strict: bool = False) -> Sequence[Rendered]:
    """Mark a render that drew nothing lit although display() did not return False."""
    for result in results:
        if result.image is None or result.error is not None:
            continue
        if result.display_returned is False or fill_metrics(result.image)[0] > 0:
            continue
        result.empty_claimed = True
        if strict:
            result.empty_ok = False
    return results


def check_scale_up(results: Sequence[Rendered], design_size: Size = (128, 32),
                   min_extent: float = metrics.MIN_FILL_EXTENT,
                   strict: bool = False) -> Sequence[Rendered]:
    """Measure renders on panels at least twice ``design_size`` on an axis."""
    design_w, design_h = design_size
    for result in results:
        if result.image is None or result.error is not None:
            continue
        check_x, check_y = result.width >= 2 * design_w, result.height >= 2 * design_h
        if not (check_x or check_y):
            continue
        extent_x, extent_y, _ink = fill_metrics(result.image)
        result.fill_checked = True
        result.fill_extent = (round(extent_x, 3), round(extent_y, 3))
        under = (check_x and extent_x < min_extent) or (check_y and extent_y < min_extent)
        if not under:
            result.fill_ok = True
        elif strict:
            result.fill_ok = False
    return results
