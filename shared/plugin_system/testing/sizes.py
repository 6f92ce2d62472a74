"""Panel sizes the harness renders at, and how sizes are written (``64x32``)."""

from __future__ import annotations

from typing import Any

Size = tuple[int, int]

# The sizes every plugin is rendered at unless its test/harness.json names others.
DEFAULT_TEST_SIZES: list[Size] = [
    (64, 32), (128, 32), (64, 64), (96, 48), (128, 64), (256, 32), (128, 96), (256, 128),
]
MAX_SIDE = 512


def size_label(size: Size) -> str:
    """Return ``WxH`` for a size."""
    return f"{size[0]}x{size[1]}"


def parse_size_token(text: str) -> Size:
    """Return (width, height) from ``WxH``; raise ValueError naming the problem."""
    width, sep, height = text.strip().lower().partition("x")
    if not sep or not width.isdigit() or not height.isdigit():
        raise ValueError(f"{text!r} is not a size like 64x32")
    size = (int(width), int(height))
    if not all(1 <= side <= MAX_SIDE for side in size):
        raise ValueError(f"{text!r}: each side must be 1 to {MAX_SIDE} pixels")
    return size


def coerce_sizes(value: Any) -> list[Size]:
    """Return sizes from a list of ``WxH`` strings or [w, h] pairs; raise ValueError."""
    if not isinstance(value, list) or not value:
        raise ValueError("sizes must be a non-empty list")
    sizes: list[Size] = []
    for item in value:
        if isinstance(item, str):
            sizes.append(parse_size_token(item))
        elif (isinstance(item, list | tuple) and len(item) == 2
              and all(isinstance(v, int) and not isinstance(v, bool) for v in item)):
            sizes.append(parse_size_token(f"{item[0]}x{item[1]}"))
        else:
            raise ValueError(f"{item!r} is not a size")
    return sizes
