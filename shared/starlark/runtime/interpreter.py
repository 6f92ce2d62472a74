"""The interpreter's settings: dialect, globals and evaluation options for app code."""

from __future__ import annotations

import starlark

from shared.starlark.runtime.limits import Deadline, Limits


def dialect() -> starlark.Dialect:
    """Go-Starlark as pixlet runs it: top-level if/for, f-strings, lambdas, no types."""
    return starlark.Dialect.extended()


def globals_() -> starlark.Globals:
    """Standard globals plus struct and partial (modules are built from them)."""
    return starlark.Globals.extended_by([
        starlark.LibraryExtension.StructType, starlark.LibraryExtension.Partial,
        starlark.LibraryExtension.Print,
    ])


def options(deadline: Deadline, limits: Limits) -> starlark.EvalOptions:
    """Cancellation at the deadline and the call-depth cap."""
    return starlark.EvalOptions(check_cancelled=deadline.expired,
                                max_callstack_size=limits.max_callstack)
