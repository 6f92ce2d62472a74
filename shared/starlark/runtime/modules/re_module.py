"""re.star: regular expressions (Go's RE2 syntax is close to Python's for what apps use).

``match`` gives every match as a list ``[whole, group1, ...]`` (an empty list when
nothing matches), ``findall`` the whole matches, ``split`` and ``sub`` as in Python.
"""

from __future__ import annotations

import re
from functools import lru_cache

from shared.starlark.runtime.modules.base import ModuleSource

TEXT = '''
def _compile(pattern):
    return struct(
        pattern = pattern, match = partial(_py_match, pattern),
        findall = partial(_py_findall, pattern), split = partial(_py_split, pattern),
        sub = partial(_py_sub, pattern), search = partial(_py_search, pattern),
    )

re = struct(compile = _compile, match = _py_match, findall = _py_findall, split = _py_split,
            sub = _py_sub, search = _py_search)
'''
MAX_PATTERN = 2000


@lru_cache(maxsize=128)
def _pattern(text: str) -> re.Pattern[str]:
    if len(text) > MAX_PATTERN:
        raise ValueError(f"re: pattern longer than {MAX_PATTERN} characters")
    try:
        return re.compile(text)
    except re.error as err:
        raise ValueError(f"re: bad pattern {text[:60]!r}: {err}") from err


def match(pattern: str, text: str, flags: int = 0) -> list[list[str]]:
    """Every match of ``pattern`` in ``text`` as [whole, groups...]."""
    return [[found.group(0)] + [g or "" for g in found.groups()]
            for found in _pattern(pattern).finditer(text)]


def search(pattern: str, text: str, flags: int = 0) -> list[int] | None:
    """[start, end] of the first match, or None."""
    found = _pattern(pattern).search(text)
    return [found.start(), found.end()] if found else None


def module() -> ModuleSource:
    """re.star."""
    return ModuleSource(TEXT, {
        "_py_match": match, "_py_search": search,
        "_py_findall": lambda p, text, flags=0: [m.group(0) for m in _pattern(p).finditer(text)],
        "_py_split": lambda p, text, limit=0: _pattern(p).split(text, max(limit, 0)),
        "_py_sub": lambda p, repl, text, count=0: _pattern(p).sub(
            repl, text, count),
    })
