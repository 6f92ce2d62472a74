"""random.star: ``number(min, max)`` (both included, min at least 0) and ``seed``.

As in pixlet, each render's generator starts from the time in 15-second windows, so
renders close together draw the same numbers unless the app seeds it.
"""

from __future__ import annotations

import random

from shared.starlark.runtime.modules.base import ModuleSource

TEXT = "random = struct(number = _py_number, seed = _py_seed)\n"
SEED_WINDOW = 15


def module(now: float) -> ModuleSource:
    """random.star for a render at ``now`` (seconds since the epoch)."""
    generator = random.Random(int(now) // SEED_WINDOW)

    def number(low: int, high: int) -> int:
        if low < 0:
            raise ValueError("random.number: min has to be 0 or greater")
        if low > high:
            raise ValueError(f"random.number: max {high} is less than min {low}")
        return generator.randint(int(low), int(high))

    def reseed(value: int) -> None:
        generator.seed(int(value))

    return ModuleSource(TEXT, {"_py_number": number, "_py_seed": reseed})
