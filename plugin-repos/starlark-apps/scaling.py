"""Fitting an app's frames (made for 64x32) to the panel, once after each render.

- ``magnify``: the largest whole-pixel factor at which the frame fits the panel (at
  least 1), centred, black around. 64x32 on 128x64 is x2; on 96x48 x1 with 16 and 8
  black pixels either side; on 192x64 x2, 32 black columns either side.
- ``2x``: the app renders at 128x64 itself (its ``canvas.is2x()`` is true) when the
  panel is at least that large and the app says it supports it; then that frame is
  magnified as above. Otherwise as ``magnify``.
- ``none``: 1:1, centred.

A frame larger than the panel (a panel under 64x32) is cut around its centre.
Identical frames share one scaled image, so a clock's repeated frames cost once.
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image

BASE_SIZE = (64, 32)
DOUBLE_SIZE = (128, 64)


def render_size(scale: str, panel: tuple[int, int], supports2x: bool) -> tuple[int, int]:
    """The size to render an app at on this panel."""
    if (scale == "2x" and supports2x and panel[0] >= DOUBLE_SIZE[0]
            and panel[1] >= DOUBLE_SIZE[1]):
        return DOUBLE_SIZE
    return BASE_SIZE


def factor(scale: str, frame: tuple[int, int], panel: tuple[int, int]) -> int:
    """The whole-pixel magnification of a frame of size ``frame`` on ``panel``."""
    if scale == "none":
        return 1
    return max(1, min(panel[0] // frame[0], panel[1] // frame[1]))


def describe(scale: str, frame: tuple[int, int], panel: tuple[int, int]) -> str:
    """How a frame is fitted, for the status record (``magnify x2``, ``2x``, ``none``)."""
    times = factor(scale, frame, panel)
    if frame == DOUBLE_SIZE:
        return "2x" if times == 1 else f"2x, magnify x{times}"
    return "none" if scale == "none" else f"magnify x{times}"


def fit(images: Sequence[Image.Image], scale: str,
        panel: tuple[int, int]) -> list[Image.Image]:
    """Each frame as the panel shows it (see the module docstring)."""
    done: dict[bytes, Image.Image] = {}
    fitted = []
    for image in images:
        key = image.tobytes()
        if key not in done:
            done[key] = fit_one(image, scale, panel)
        fitted.append(done[key])
    return fitted


def fit_one(image: Image.Image, scale: str, panel: tuple[int, int]) -> Image.Image:
    """One frame on a black panel-size canvas."""
    times = factor(scale, image.size, panel)
    if times > 1:
        image = image.resize((image.width * times, image.height * times), Image.Resampling.NEAREST)
    canvas = Image.new("RGB", panel)
    canvas.paste(image.convert("RGB"), ((panel[0] - image.width) // 2,
                                        (panel[1] - image.height) // 2))
    return canvas
