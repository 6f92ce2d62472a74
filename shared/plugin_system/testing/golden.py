"""Golden images: a plugin's expected frames, compared with a tolerance.

A golden frame lives at ``<plugin>/test/golden/<label>/<W>x<H>.png``, where the label
is the display mode, or ``mode@variant`` for a ``variants`` entry of harness.json. A
pixel differs when one of its channels differs by more than ``tolerance``; a frame
matches when at most ``max_pixels`` pixels differ and the sizes agree.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PIL import Image, ImageChops

from shared.plugin_system.testing.findings import ERROR, Finding
from shared.plugin_system.testing.sizes import Size, size_label

GOLDEN_DIR = Path("test") / "golden"


def golden_path(plugin_dir: Path, label: str, size: Size) -> Path:
    """Return where the golden frame of ``label`` at ``size`` is kept."""
    return Path(plugin_dir) / GOLDEN_DIR / label / f"{size_label(size)}.png"


def compare_images(actual: Image.Image, expected: Image.Image, tolerance: int = 0,
                   max_pixels: int = 0) -> dict[str, Any]:
    """Return ``{"ok", "differing", "size_match"}`` for two frames."""
    if actual.size != expected.size:
        return {"ok": False, "differing": None, "size_match": False}
    diff = ImageChops.difference(actual.convert("RGB"), expected.convert("RGB"))
    red, green, blue = diff.split()
    worst = ImageChops.lighter(ImageChops.lighter(red, green), blue)
    differing = worst.point(lambda v: 255 if v > tolerance else 0).histogram()[255]
    return {"ok": differing <= max_pixels, "differing": differing, "size_match": True}


def compare_to_golden(plugin_dir: Path, label: str, image: Image.Image, tolerance: int = 0,
                      max_pixels: int = 0) -> list[Finding]:
    """Return an error finding when a golden frame exists for ``label`` and differs."""
    path = golden_path(plugin_dir, label, image.size)
    if not path.is_file():
        return []
    with Image.open(path) as stored:
        result = compare_images(image, stored, tolerance, max_pixels)
    if result["ok"]:
        return []
    what = ("size differs" if not result["size_match"]
            else f"{result['differing']} pixels differ by more than {tolerance}")
    return [Finding("golden", ERROR, f"{label} at {size_label(image.size)}: {what} "
                    f"from {path.relative_to(plugin_dir)}",
                    {"golden": str(path), "differing": result["differing"]})]


def write_golden(plugin_dir: Path, label: str, image: Image.Image) -> Path:
    """Save ``image`` as the golden frame of ``label`` at its size; return the path."""
    path = golden_path(plugin_dir, label, image.size)
    path.parent.mkdir(parents=True, exist_ok=True)
    image.convert("RGB").save(path)
    return path
