"""Frames as rows of letters, one per pixel, so a test states a picture exactly."""

from __future__ import annotations

from PIL import Image

from shared.starlark.render.root import Root, render_frames
from shared.starlark.render.widget import Widget

LETTERS = {
    (0, 0, 0): ".", (255, 0, 0): "r", (0, 255, 0): "g", (0, 0, 255): "b",
    (255, 255, 255): "w", (255, 255, 0): "y", (0, 0x55, 0): "G", (0x55, 0, 0): "R",
}


def rows(image: Image.Image) -> list[str]:
    """One string per pixel row; colours outside LETTERS show as '?'."""
    rgb = image.convert("RGB")
    data = rgb.tobytes()
    pixels = [(data[i], data[i + 1], data[i + 2]) for i in range(0, len(data), 3)]
    letters = [LETTERS.get(pixel, "?") for pixel in pixels]
    return ["".join(letters[y * rgb.width:(y + 1) * rgb.width]) for y in range(rgb.height)]


def picture(child: Widget, width: int, height: int, frame: int = 0) -> list[str]:
    """Frame ``frame`` of ``child`` as the root of a ``width`` x ``height`` panel."""
    return rows(render_frames(Root(child), width, height).images[frame])


def pictures(child: Widget, width: int, height: int) -> list[list[str]]:
    """Every frame of ``child`` as the root of a ``width`` x ``height`` panel."""
    return [rows(image) for image in render_frames(Root(child), width, height).images]
