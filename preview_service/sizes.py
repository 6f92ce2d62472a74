"""Panel sizes: the size sample the page offers and the checks on requested sizes.

``SIZE_SAMPLE`` is the harness's ``DEFAULT_TEST_SIZES``. A requested size is ``[w, h]``
or ``"WxH"``, each side 1-512.
"""

from __future__ import annotations

import re
from typing import Any

from shared.plugin_system.testing import DEFAULT_TEST_SIZES

SIZE_SAMPLE: list[tuple[int, int]] = list(DEFAULT_TEST_SIZES)
MAX_SIDE = 512
MAX_SIZES = 12
_TOKEN = re.compile(r"^(\d{1,4})x(\d{1,4})$")


class BadSize(ValueError):
    """A requested size is not a panel size this server renders."""


def parse_size(value: Any) -> tuple[int, int]:
    """Return ``(w, h)`` from ``[w, h]`` or ``"WxH"``; raise BadSize otherwise."""
    if isinstance(value, str) and (match := _TOKEN.fullmatch(value.strip())):
        width, height = int(match[1]), int(match[2])
    elif (isinstance(value, list | tuple) and len(value) == 2
          and all(isinstance(v, int) and not isinstance(v, bool) for v in value)):
        width, height = value
    else:
        raise BadSize(f"not a size: {value!r}")
    if not (1 <= width <= MAX_SIDE and 1 <= height <= MAX_SIDE):
        raise BadSize(f"sides must be 1-{MAX_SIDE}")
    return width, height


def parse_sizes(values: Any) -> list[tuple[int, int]]:
    """Return 1-12 sizes; raise BadSize for an empty, too long or malformed list."""
    if not isinstance(values, list) or not values:
        raise BadSize("sizes must be a non-empty list")
    if len(values) > MAX_SIZES:
        raise BadSize(f"at most {MAX_SIZES} sizes per call")
    return [parse_size(value) for value in values]
