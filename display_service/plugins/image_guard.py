"""No image larger than ``PIXEL_LIMIT`` pixels is made in the display process.

A plugin asking Pillow for a 100000x100000 image would have the daemon allocate tens of
gigabytes before anything else could stop it. ``install`` wraps the Pillow calls whose
result size is known before memory is taken (``Image.new``, which ``frombytes`` and
``ImageOps`` use too; ``Image.resize``, ``Image.crop``; ``Image.transform``, which
``rotate(expand=True)`` goes through) so they raise ``ImageTooLarge`` first, and lowers
``Image.MAX_IMAGE_PIXELS`` so opening a larger file raises Pillow's
``DecompressionBombError``. Inside a plugin call either is that plugin's error, recorded
like any other; the daemon carries on.

The limit is far above what the core draws: the largest panel the hardware rules allow
is 128 x 255 columns by 64 x 6 rows (12,533,760 pixels), and a Vegas ticker segment is
at most 4096 pixels wide by the panel's height.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any

from PIL import Image

PIXEL_LIMIT = 4096 * 4096  # 16,777,216 pixels: 64 MB as RGBA

_ORIGINALS: dict[tuple[Any, str], Callable[..., Any]] = {}
_PILLOW_LIMIT = Image.MAX_IMAGE_PIXELS


class ImageTooLarge(MemoryError):
    """An image that would exceed the display's pixel limit was refused."""

    def __init__(self, width: int, height: int) -> None:
        super().__init__(f"image {width}x{height} is larger than the display's limit of "
                         f"{PIXEL_LIMIT:,} pixels")
        self.width = width
        self.height = height


def check_size(width: Any, height: Any) -> None:
    """Raise ImageTooLarge when a ``width`` x ``height`` image exceeds the limit."""
    try:
        w, h = int(width), int(height)
    except (TypeError, ValueError, OverflowError):
        return  # not a size: Pillow gives its own error
    if w > 0 and h > 0 and w * h > PIXEL_LIMIT:
        raise ImageTooLarge(w, h)


def _size(size: Any) -> Sequence[Any] | None:
    return size if isinstance(size, list | tuple) and len(size) == 2 else None


def _box_size(box: Any) -> tuple[Any, Any] | None:
    if not isinstance(box, list | tuple) or len(box) != 4:
        return None
    try:
        return box[2] - box[0], box[3] - box[1]
    except TypeError:
        return None


def _guarded(original: Callable[..., Any], position: int, name: str,
             measure: Callable[[Any], Sequence[Any] | None]) -> Callable[..., Any]:
    """Wrap ``original`` so the size in argument ``position`` (or ``name``) is checked."""

    @functools.wraps(original)
    def call(*args: Any, **kwargs: Any) -> Any:
        value = args[position] if len(args) > position else kwargs.get(name)
        size = measure(value)
        if size is not None:
            check_size(size[0], size[1])
        return original(*args, **kwargs)

    return call


# (owner, attribute, position of the size argument, its keyword name, how to read it)
_TARGETS: tuple[tuple[Any, str, int, str, Callable[[Any], Sequence[Any] | None]], ...] = (
    (Image, "new", 1, "size", _size),
    (Image.Image, "resize", 1, "size", _size),
    (Image.Image, "transform", 1, "size", _size),
    (Image.Image, "crop", 1, "box", _box_size),
    # These two go straight to the C core with a size of their own.
    (Image, "effect_noise", 0, "size", _size),
    (Image, "effect_mandelbrot", 0, "size", _size),
)


def install() -> None:
    """Refuse images above the limit in this process (idempotent)."""
    for owner, attribute, position, name, measure in _TARGETS:
        if (owner, attribute) in _ORIGINALS:
            continue
        original = getattr(owner, attribute)
        _ORIGINALS[(owner, attribute)] = original
        setattr(owner, attribute, _guarded(original, position, name, measure))
    # Pillow raises DecompressionBombError above twice this (and only warns above it).
    Image.MAX_IMAGE_PIXELS = PIXEL_LIMIT // 2


def uninstall() -> None:
    """Put Pillow back as it was (tests)."""
    for (owner, attribute), original in _ORIGINALS.items():
        setattr(owner, attribute, original)
    _ORIGINALS.clear()
    Image.MAX_IMAGE_PIXELS = _PILLOW_LIMIT
