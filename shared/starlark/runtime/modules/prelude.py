"""The prelude: what the source rewrite calls (time arithmetic, printf formats, sets)."""

from __future__ import annotations

import logging
from typing import Any

from shared.starlark.runtime.modules.base import ModuleSource

TEXT = '''
load("time.star", "duration_value", "time_value")

def _kind(x):
    return getattr(x, "_kind", None) if type(x) == "struct" else None

def ledpanel_sub(a, b):
    ka, kb = _kind(a), _kind(b)
    if ka == "time" and kb == "time":
        return duration_value(a._0ns - b._0ns)
    if ka == "time" and kb == "duration":
        return time_value(a._0ns - b._0ns, a.location)
    if ka == "duration" and kb == "duration":
        return duration_value(a._0ns - b._0ns)
    return a - b

def ledpanel_add(a, b):
    ka, kb = _kind(a), _kind(b)
    if ka == "time" and kb == "duration":
        return time_value(a._0ns + b._0ns, a.location)
    if ka == "duration" and kb == "time":
        return time_value(a._0ns + b._0ns, b.location)
    if ka == "duration" and kb == "duration":
        return duration_value(a._0ns + b._0ns)
    return a + b

def _instants(a, b):
    # Both times or both durations: compared by their nanoseconds, as pixlet compares them.
    ka = _kind(a)
    return ka != None and ka == _kind(b)

def ledpanel_eq(a, b):
    return a._0ns == b._0ns if _instants(a, b) else a == b

def ledpanel_ne(a, b):
    return a._0ns != b._0ns if _instants(a, b) else a != b

def ledpanel_lt(a, b):
    return a._0ns < b._0ns if _instants(a, b) else a < b

def ledpanel_le(a, b):
    return a._0ns <= b._0ns if _instants(a, b) else a <= b

def ledpanel_gt(a, b):
    return a._0ns > b._0ns if _instants(a, b) else a > b

def ledpanel_ge(a, b):
    return a._0ns >= b._0ns if _instants(a, b) else a >= b

def ledpanel_mul(a, b):
    if _kind(a) == "duration" and type(b) in ("int", "float"):
        return duration_value(int(a._0ns * b))
    if _kind(b) == "duration" and type(a) in ("int", "float"):
        return duration_value(int(a * b._0ns))
    return a * b

def ledpanel_div(a, b):
    if _kind(a) == "duration" and _kind(b) == "duration":
        return a._0ns / b._0ns
    if _kind(a) == "duration" and type(b) in ("int", "float"):
        return duration_value(int(a._0ns / b))
    return a / b

def ledpanel_floordiv(a, b):
    if _kind(a) == "duration" and _kind(b) == "duration":
        return a._0ns // b._0ns
    if _kind(a) == "duration" and type(b) == "int":
        return duration_value(a._0ns // b)
    return a // b

def ledpanel_percent(fmt, args):
    return _py_percent(fmt, args if type(args) == "tuple" else (args,))

def ledpanel_range(*args):
    # Go's range takes 64-bit bounds; this interpreter's takes 32-bit ones. A loop that
    # long is an app's "loop until break", which the time budget ends anyway.
    return range(*[max(-2147483648, min(2147483647, a)) for a in args])

def print(*args, sep = " "):
    _py_print(sep.join([str(a) for a in args]))

def set(items = None):
    members = {}
    for item in (items or []):
        members[item] = True
    return members

def _members(x):
    return x if type(x) == "dict" else set(x)

def ledpanel_m_add(s, item):
    if type(s) != "dict":
        return s.add(item)
    s[item] = True

def ledpanel_m_discard(s, item):
    if type(s) != "dict":
        return s.discard(item)
    s.pop(item, None)

def ledpanel_m_remove(s, item):
    if type(s) != "dict":
        return s.remove(item)
    s.pop(item)

def ledpanel_m_union(s, *others):
    if type(s) != "dict":
        return s.union(*others)
    out = dict(s)
    for other in others:
        out.update(_members(other))
    return out

def ledpanel_m_intersection(s, other):
    if type(s) != "dict":
        return s.intersection(other)
    theirs = _members(other)
    return {k: True for k in s if k in theirs}

def ledpanel_m_difference(s, other):
    if type(s) != "dict":
        return s.difference(other)
    theirs = _members(other)
    return {k: True for k in s if k not in theirs}

def ledpanel_m_symmetric_difference(s, other):
    if type(s) != "dict":
        return s.symmetric_difference(other)
    theirs = _members(other)
    out = {k: True for k in s if k not in theirs}
    out.update({k: True for k in theirs if k not in s})
    return out

def ledpanel_m_issubset(s, other):
    if type(s) != "dict":
        return s.issubset(other)
    theirs = _members(other)
    return all([k in theirs for k in s])

def ledpanel_m_issuperset(s, other):
    if type(s) != "dict":
        return s.issuperset(other)
    return all([k in s for k in _members(other)])
'''


def percent(fmt: str, args: list[Any]) -> str:
    """Go-Starlark's ``fmt % args`` (Python's printf rules); ValueError names the mismatch."""
    converted = tuple(_printable(arg) for arg in args)
    try:
        return fmt % converted
    except (TypeError, ValueError) as err:
        raise ValueError(f"format {fmt[:40]!r}: {err}") from err


def _printable(value: Any) -> Any:
    if value is None:
        return "None"
    if value is True or value is False:
        return "True" if value else "False"
    return value


def module(app_name: str = "app") -> ModuleSource:
    """The prelude every rewritten app file loads; ``print`` goes to the debug log."""
    logger = logging.getLogger("ledpanel.starlark")

    def log(line: str) -> None:
        logger.debug("%s: %s", app_name, line[:500])

    return ModuleSource(TEXT, {"_py_percent": percent, "_py_print": log})
