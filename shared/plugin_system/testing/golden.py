"""Golden images: a plugin's expected frames, compared with a tolerance.

A golden frame lives at ``<golden dir>/<W>x<H>/<mode>.png`` (the layout the existing
system's harness uses): the golden dir is ``<plugin>/test/golden``, or a variant's own
(``test/golden-<name>`` unless harness.json names one); a mode name is made a safe file
name first. A pixel differs when one of its channels differs by more than ``tolerance``; a frame
matches when at most ``max_pixels`` pixels differ and the sizes agree.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from PIL import Image, ImageChops

from shared.plugin_system.testing.findings import ERROR, Finding
from shared.plugin_system.testing.sizes import Size, label_of

UNSAFE = re.compile(r"[^\w-]")


def safe_mode_filename(mode: str) -> str:
    """Return ``mode`` as a file name that stays in its folder: every character but
    letters, digits, ``-`` and ``_`` becomes ``_`` (``mode`` when empty)."""
    return UNSAFE.sub("_", mode) or "mode"


def golden_path(golden_dir: Path, size: Size, mode: str) -> Path:
    """Return where the golden frame of ``mode`` at ``size`` is kept in ``golden_dir``."""
    return Path(golden_dir) / label_of(size) / f"{safe_mode_filename(mode)}.png"


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


def compare_to_golden(golden_dir: Path, mode: str, image: Image.Image, tolerance: int = 0,
                      max_pixels: int = 0) -> list[Finding]:
    """Return an error finding when ``golden_dir`` holds a frame for ``mode`` that differs."""
    path = golden_path(golden_dir, image.size, mode)
    if not path.is_file():
        return []
    with Image.open(path) as stored:
        result = compare_images(image, stored, tolerance, max_pixels)
    if result["ok"]:
        return []
    what = ("size differs" if not result["size_match"]
            else f"{result['differing']} pixels differ by more than {tolerance}")
    return [Finding("golden", ERROR, f"{what} from {path}",
                    {"golden": str(path), "differing": result["differing"]})]


def write_golden(golden_dir: Path, mode: str, image: Image.Image) -> Path:
    """Save ``image`` as the golden frame of ``mode`` at its size; return the path."""
    path = golden_path(golden_dir, image.size, mode)
    path.parent.mkdir(parents=True, exist_ok=True)
    image.convert("RGB").save(path)
    return path
