"""A custom app's pixel frames as images the size of the panel.

Each frame is a list of ``[x, y, r, g, b]`` pixels (checked by
``shared.notify.custom_fields``) from the panel's top-left corner on black; pixels
beyond the panel are not drawn, so one app shows on every panel size. The frames loop
every ``frame_ms`` milliseconds.
"""

from __future__ import annotations

from typing import Any

from PIL import Image


def frame_images(frames: list[list[list[int]]], size: tuple[int, int]) -> list[Image.Image]:
    """Each frame drawn on a black image of ``size``."""
    width, height = size
    images = []
    for frame in frames:
        image = Image.new("RGB", size)
        put = image.putpixel
        for x, y, r, g, b in frame:
            if x < width and y < height:
                put((x, y), (r, g, b))
        images.append(image)
    return images


def frame_at(elapsed: float, frame_ms: Any, count: int) -> int:
    """The frame shown ``elapsed`` seconds into the slot (the frames loop)."""
    if count <= 1:
        return 0
    step = frame_ms if isinstance(frame_ms, int) and frame_ms > 0 else 100
    return int(max(0.0, elapsed) * 1000 // step) % count
