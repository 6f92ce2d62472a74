"""Panel sizes the harness renders at, and how sizes are written (``64x32``).

``DEFAULT_TEST_SIZES`` is a spread of panel shapes (narrow, wide, square, tall, small,
large), not a list of the only sizes allowed: plugins read their size at run time.
``SUPPORTED_SIZES`` is the existing system's older name for it. ``resolve_test_sizes``
picks, in order: ``LEDMATRIX_TEST_SIZES`` (``"64x32,128x64"``, the existing system's
"test on my hardware" variable), a plugin's harness.json ``sizes``, the default.
"""

from __future__ import annotations

import os
from typing import Any

Size = tuple[int, int]

DEFAULT_TEST_SIZES: list[Size] = [
    (64, 32), (128, 32), (64, 64), (96, 48), (128, 64), (256, 32), (128, 96), (256, 128),
]
SUPPORTED_SIZES = DEFAULT_TEST_SIZES
SIZES_VARIABLE = "LEDMATRIX_TEST_SIZES"
MAX_SIDE = 512


def size_label(width: int, height: int) -> str:
    """Return ``WxH``."""
    return f"{width}x{height}"


def label_of(size: Size) -> str:
    """Return ``WxH`` for a (width, height) pair."""
    return size_label(size[0], size[1])


def parse_size_token(text: str) -> Size:
    """Return (width, height) from ``WxH``; raise ValueError naming the problem."""
    width, sep, height = text.strip().lower().partition("x")
    if not sep or not width.isdigit() or not height.isdigit():
        raise ValueError(f"{text!r} is not a size like 64x32")
    size = (int(width), int(height))
    if not all(1 <= side <= MAX_SIDE for side in size):
        raise ValueError(f"{text!r}: each side must be 1 to {MAX_SIDE} pixels")
    return size


def coerce_sizes(value: Any) -> list[Size] | None:
    """Return sizes from ``"WxH,WxH"``, or a list of ``WxH`` strings or [w, h] pairs;
    None when ``value`` is empty; raise ValueError for anything else."""
    if not value:
        return None
    if isinstance(value, str):
        return [parse_size_token(token) for token in value.split(",") if token.strip()] or None
    if not isinstance(value, list | tuple):
        raise ValueError("sizes must be a list")
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


def resolve_test_sizes(spec_sizes: Any = None) -> list[Size]:
    """Return the sizes to render: the environment's, else ``spec_sizes``, else the default."""
    return (coerce_sizes(os.environ.get(SIZES_VARIABLE)) or coerce_sizes(spec_sizes)
            or list(DEFAULT_TEST_SIZES))
