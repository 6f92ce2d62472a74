"""Painting a widget onto a fresh canvas and reading its pixels back as text rows."""

from __future__ import annotations

import io

from PIL import Image

from shared.starlark.render.widget import Bounds, Canvas, Widget


def paint(widget: Widget, width: int, height: int, frame: int = 0) -> Image.Image:
    """Frame ``frame`` of ``widget`` painted at (0, 0) of a ``width`` x ``height`` canvas."""
    canvas = Canvas(width, height)
    bounds = Bounds(width, height)
    with canvas.at(0, 0, widget.size(bounds, frame)):
        widget.paint(canvas, bounds, frame)
    # Round-trip through PNG so the pixels checked are the ones a file would hold.
    out = io.BytesIO()
    canvas.image.save(out, "PNG")
    return Image.open(io.BytesIO(out.getvalue())).convert("RGBA")


def rows(image: Image.Image, lit: str = "#") -> list[str]:
    """``image`` as text rows: ``lit`` where a pixel is opaque, "." where transparent."""
    data = image.tobytes()
    width = image.width
    return ["".join(lit if data[(y * width + x) * 4 + 3] else "."
                    for x in range(width)) for y in range(image.height)]


def encoded(image: Image.Image, fmt: str, **options: object) -> bytes:
    """``image`` encoded as ``fmt`` (PNG, JPEG, GIF, WEBP) bytes."""
    out = io.BytesIO()
    image.save(out, fmt, **options)
    return out.getvalue()


def paint_sized(widget: Widget, width: int, height: int, frame: int = 0) -> Image.Image:
    """Frame ``frame`` of ``widget`` in bounds ``width`` x ``height``, cut to its own size."""
    size = widget.size(Bounds(width, height), frame)
    return paint(widget, width, height, frame).crop((0, 0, size.width, size.height))
