"""math.star: Go-Starlark's math library (ceil and floor give ints, as there)."""

from __future__ import annotations

import math

from shared.starlark.runtime.modules.base import ModuleSource

_FLOAT_FUNCTIONS = ("fabs", "sqrt", "exp", "log", "sin", "cos", "tan", "asin", "acos",
                    "atan", "atan2", "hypot", "degrees", "radians", "copysign", "remainder",
                    "gamma", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh", "pow")


def _round(x: float) -> float:
    """Go's math.Round: halves away from zero."""
    return float(math.floor(abs(x) + 0.5)) * (1 if x >= 0 else -1)


def _log(x: float, base: float = math.e) -> float:
    return math.log(x, base)


def module() -> ModuleSource:
    """math.star."""
    functions = {f"_py_{name}": getattr(math, name) for name in _FLOAT_FUNCTIONS}
    functions.update({"_py_ceil": math.ceil, "_py_floor": math.floor, "_py_round": _round,
                      "_py_mod": math.fmod, "_py_log": _log, "_py_trunc": math.trunc})
    fields = ", ".join(f"{name[4:]} = {name}" for name in sorted(functions))
    text = f"math = struct({fields}, pi = {math.pi!r}, e = {math.e!r}, inf = float('inf'))\n"
    return ModuleSource(text, functions)
