"""Lit-content measures of a rendered frame: ``fill_metrics``, ``check_scale_up``,
``check_empty_claimed``.

A pixel is lit when its brightest channel reaches ``LIT_THRESHOLD`` (16). A plugin made
for a small design size and drawn unchanged on a panel at least twice as large on one
axis leaves most of that axis dark: ``check_scale_up`` reports it when the lit extent
covers less than ``MIN_FILL_EXTENT`` (half) of that doubled axis.
"""

from __future__ import annotations

from typing import Any

from PIL import Image, ImageChops

from shared.plugin_system.testing.findings import ERROR, WARNING, Finding
from shared.plugin_system.testing.sizes import Size

LIT_THRESHOLD = 16
MIN_FILL_EXTENT = 0.5


def lit_mask(image: Image.Image) -> Image.Image:
    """Return a 1-bit-like L image: 255 where ``image`` is lit, else 0."""
    rgb = image.convert("RGB")
    red, green, blue = rgb.split()
    brightest = ImageChops.lighter(ImageChops.lighter(red, green), blue)
    return brightest.point(lambda v: 255 if v >= LIT_THRESHOLD else 0)


def fill_metrics(image: Image.Image) -> dict[str, Any]:
    """Return the lit pixels, their fraction, bounding box and extent on each axis.

    ``bbox`` is (left, top, right, bottom), right and bottom exclusive, or None when
    nothing is lit; ``width_fraction`` and ``height_fraction`` are the box's share of
    the panel's width and height.
    """
    mask = lit_mask(image)
    width, height = image.size
    lit = mask.histogram()[255]
    bbox = mask.getbbox()
    box_w = bbox[2] - bbox[0] if bbox else 0
    box_h = bbox[3] - bbox[1] if bbox else 0
    return {
        "width": width,
        "height": height,
        "lit_pixels": lit,
        "lit_fraction": lit / float(width * height) if width and height else 0.0,
        "bbox": tuple(bbox) if bbox else None,
        "width_fraction": box_w / width if width else 0.0,
        "height_fraction": box_h / height if height else 0.0,
    }


def check_scale_up(image: Image.Image, design_size: Size, *, strict: bool = False,
                   label: str = "") -> list[Finding]:
    """Return findings for each axis at least 2x the design size that is under half lit.

    Nothing is reported for an image with nothing lit (``check_empty_claimed`` covers
    that) or on a panel less than twice the design size on both axes. ``strict`` makes
    the findings errors (``fill_check: strict``).
    """
    metrics = fill_metrics(image)
    if metrics["bbox"] is None:
        return []
    found = []
    axes = (("width", 0, "width_fraction"), ("height", 1, "height_fraction"))
    for axis, index, key in axes:
        panel, design = image.size[index], design_size[index]
        if design <= 0 or panel < 2 * design or metrics[key] >= MIN_FILL_EXTENT:
            continue
        found.append(Finding(
            "scale_up", ERROR if strict else WARNING,
            f"{label + ': ' if label else ''}content spans {metrics[key]:.0%} of the "
            f"{axis} ({panel} px, design {design} px); under {MIN_FILL_EXTENT:.0%} on a "
            f"panel at least twice the design size",
            {"axis": axis, "fraction": round(metrics[key], 4), "panel": panel,
             "design": design}))
    return found


def check_empty_claimed(image: Image.Image | None, claimed: bool, label: str = "") -> list[Finding]:
    """Return a finding when display() claimed to draw but the panel shows nothing lit."""
    if not claimed:
        return []
    if image is not None and fill_metrics(image)["lit_pixels"] > 0:
        return []
    return [Finding("empty_claimed", WARNING,
                    f"{label + ': ' if label else ''}display() did not return False "
                    f"but the panel is empty")]
