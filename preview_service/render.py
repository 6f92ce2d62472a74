"""Render one plugin at one size inside the worker process, with the safety harness.

``render_plugin`` (``shared.plugin_system.testing``) loads the plugin as the device does
(the real plugin manager, the loader, the device's config preparation of the overlay,
fresh modules each time, so an edited file is what runs) on a bounds-checking surface
and runs update() then display() per frame. Here its result becomes JSON: each frame a
base64 PNG; a failure in update() or display() by its exception class name only; a load
failure only as ``load_failed`` (never its text); each harness finding with, for a draw
that left the panel, the part of the panel to mark (``x``, ``y``, ``width``, ``height``).
"""

from __future__ import annotations

import base64
import io
from pathlib import Path
from typing import Any

from PIL import Image

from shared.plugin_system.testing import Finding, render_plugin

LOAD_FAILURES = ("PluginError", "ManifestError")


def png_base64(image: Image.Image) -> str:
    """Return the image as a base64 PNG."""
    buffer = io.BytesIO()
    image.convert("RGB").save(buffer, format="PNG")
    return base64.b64encode(buffer.getvalue()).decode("ascii")


def problem_json(finding: Finding, size: tuple[int, int]) -> dict[str, Any]:
    """Return a finding as JSON; a bounds finding gets the panel area to mark."""
    shown: dict[str, Any] = {"check": finding.check, "severity": finding.severity,
                             "message": finding.message}
    box = finding.details.get("box") if isinstance(finding.details, dict) else None
    if isinstance(box, list) and len(box) == 4:
        width, height = size
        left = min(max(0, int(box[0])), width - 1)
        top = min(max(0, int(box[1])), height - 1)
        right = max(left + 1, min(width, int(box[2])))
        bottom = max(top + 1, min(height, int(box[3])))
        shown.update(x=left, y=top, width=right - left, height=bottom - top)
    return shown


def render_size(plugin_dir: Path, size: tuple[int, int], overlay: dict[str, Any],
                mode: str | None, frames: int) -> dict[str, Any]:
    """Return ``{"size", "image", "frames", "error_class", "mode", "modes", "problems"}``
    (``image``: the first frame, None when nothing rendered)."""
    result = render_plugin(plugin_dir, size, overlay, mode=mode, frames=max(1, frames))
    failed = result.error_class
    frames_png = [png_base64(image) for image in result.images]
    return {"size": list(size), "image": frames_png[0] if frames_png else None,
            "frames": frames_png,
            "error_class": "load_failed" if failed in LOAD_FAILURES else failed,
            "mode": result.mode, "modes": result.modes,
            "problems": [problem_json(f, size) for f in result.problems]}
