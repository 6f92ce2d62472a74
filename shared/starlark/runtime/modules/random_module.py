"""random.star: ``number(min, max)`` (both included) and ``seed``; a fresh random seed
for each render unless the app seeds it, as pixlet does."""

from __future__ import annotations

import random

from shared.starlark.runtime.modules.base import ModuleSource

TEXT = "random = struct(number = _py_number, seed = _py_seed, float = _py_float)\n"


def module(seed: int | None = None) -> ModuleSource:
    """random.star with its own generator (``seed`` for tests)."""
    generator = random.Random(seed)

    def number(low: int, high: int) -> int:
        if low > high:
            raise ValueError(f"random.number: min {low} is greater than max {high}")
        return generator.randint(int(low), int(high))

    def reseed(value: int) -> None:
        generator.seed(int(value))

    return ModuleSource(TEXT, {"_py_number": number, "_py_seed": reseed,
                               "_py_float": generator.random})
