"""Parse JSON text nobody vouches for: request bodies and hand-edited config files.

Python's ``json`` accepts things no config of ours holds and some of them take a
process down later: ``NaN`` and ``Infinity`` (not JSON at all), numbers that overflow
to infinity (``1e999``), integers too long to convert (``ValueError`` past 4,300
digits), nesting deep enough to exhaust the recursion limit in whoever walks the
value next, and lone surrogates (``"\\ud800"``), which parse but cannot be written back
as UTF-8. ``parse_strict`` refuses each with one ``JsonLimitError`` naming it; the
depth is measured on the text before parsing, so nothing recurses that deep.

Files the daemons exchange (the bus) hold times, counters and durations, never a
number past a 64-bit integer; ``parse_bounded`` also refuses any number larger than
``MAX_MAGNITUDE`` either way, so whatever reads a field may turn it into a float, add
it to a clock or wait for it without an ``OverflowError``.
"""

from __future__ import annotations

import json
import math
import re
import sys
from collections.abc import Callable
from typing import Any, NamedTuple, TypeVar

# Far deeper than any config or request of ours; shallow enough that every recursive
# walk (deep merge, copies, checks) stays far from Python's recursion limit.
MAX_DEPTH = 64
# A 64-bit number has 20 digits; ids held as numbers stay well under this.
MAX_INT_DIGITS = 64
# The largest number, either sign, a file between the daemons may hold (``parse_bounded``):
# nanosecond clocks fit, and any sum of a few such numbers stays a finite float.
MAX_MAGNITUDE = float(2**63)

# A whole string (skipped), a bracket, or the quote of a string that never ends.
_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*+"|[\[\]{}]|"', re.DOTALL)


class SyntaxPlace(NamedTuple):
    """What is wrong with JSON text and where, for a person to fix it."""

    msg: str
    lineno: int
    colno: int


def syntax_place(err: json.JSONDecodeError) -> SyntaxPlace:
    """Return ``err``'s message, line and column, the same on every Python version.

    A trailing comma (``{"a": 1,}``) is named as such, at the comma: Python 3.13 says so
    itself, earlier versions point past the comma at the bracket with a message that
    does not mention it.
    """
    text, pos = err.doc, err.pos
    before = text[:pos].rstrip() if isinstance(text, str) else ""
    closing = text[pos:pos + 1] if isinstance(text, str) else ""
    if before.endswith(",") and closing in ("}", "]"):
        comma = len(before) - 1
        kind = "object" if closing == "}" else "array"
        line = text.count("\n", 0, comma) + 1
        column = comma - text.rfind("\n", 0, comma)
        return SyntaxPlace(f"trailing comma before the end of the {kind}", line, column)
    if err.msg.startswith("Illegal trailing comma before end of "):
        kind = err.msg.rsplit(" ", 1)[-1]
        return SyntaxPlace(f"trailing comma before the end of the {kind}", err.lineno,
                           err.colno)
    return SyntaxPlace(err.msg, err.lineno, err.colno)


class JsonLimitError(ValueError):
    """JSON text that is valid or nearly so but outside what we accept; the message says
    what (a person reads it)."""


def parse_strict(text: str) -> Any:
    """Return the value of JSON ``text``; raise ``json.JSONDecodeError`` for bad syntax
    and ``JsonLimitError`` for a value outside the limits above."""
    return _parse(text, _parse_int, _parse_float)


def parse_bounded(text: str) -> Any:
    """Like ``parse_strict``, and every number lies within ``MAX_MAGNITUDE`` either way."""
    return _parse(text, _bounded_int, _bounded_float)


def _parse(text: str, parse_int: Callable[[str], int],
           parse_float: Callable[[str], float]) -> Any:
    depth = nesting_depth(text)
    if depth > MAX_DEPTH:
        raise JsonLimitError(f"nested deeper than {MAX_DEPTH} levels ({depth})")
    tiny: list[_TooSmall] = []

    def checked_float(literal: str) -> Any:
        value = parse_float(literal)
        if (value == 0 and _nonzero(literal)) or 0 < abs(value) < sys.float_info.min:
            tiny.append(_TooSmall(literal))
            return tiny[-1]
        return value

    value = json.loads(text, parse_int=parse_int, parse_float=checked_float,
                       parse_constant=_refuse_constant)
    if tiny:
        where = find_path(value, lambda item: item is tiny[0])
        raise JsonLimitError(f"{where + ': ' if where else ''}number {_shown(tiny[0].literal)}"
                             " is too small to store (it would be kept as 0 or lose its "
                             "digits); write 0 or a number above 1e-307")
    _refuse_lone_surrogates(value)
    return value


class _TooSmall:
    """Stands for a number that underflows, until its place is found."""

    __slots__ = ("literal",)

    def __init__(self, literal: str) -> None:
        self.literal = literal


def _nonzero(literal: str) -> bool:
    mantissa = literal.lower().split("e", 1)[0]
    return any(digit in mantissa for digit in "123456789")


def find_path(value: Any, wanted: Callable[[Any], bool], prefix: str = "") -> str | None:
    """Return the dotted path (list items as ``[i]``) of the first item ``wanted`` picks
    in a parsed value (depth bounded by ``MAX_DEPTH``), or None; the root is ``""``."""
    if wanted(value):
        return prefix
    items: Any = ()
    if isinstance(value, dict):
        items = ((f"{prefix}.{key}" if prefix else str(key), item)
                 for key, item in value.items())
    elif isinstance(value, list):
        items = ((f"{prefix}[{index}]", item) for index, item in enumerate(value))
    for path, item in items:
        found = find_path(item, wanted, path)
        if found is not None:
            return found
    return None


def nesting_depth(text: str) -> int:
    """Return how deep arrays and objects nest in ``text`` (brackets inside strings do
    not count)."""
    depth = deepest = 0
    for match in _TOKEN.finditer(text):
        token = match.group()
        if token in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif token in "]}":
            depth -= 1
        elif token == '"':
            break  # the rest is one unterminated string (and retrying would be quadratic)
    return deepest


def _parse_int(literal: str) -> int:
    digits = len(literal.lstrip("-"))
    if digits > MAX_INT_DIGITS:
        raise JsonLimitError(f"integer with more than {MAX_INT_DIGITS} digits ({digits})")
    return int(literal)


def _parse_float(literal: str) -> float:
    value = float(literal)
    if not math.isfinite(value):
        raise JsonLimitError(f"number {_shown(literal)} is too large for a JSON number")
    return value


_Number = TypeVar("_Number", int, float)


def _bounded_int(literal: str) -> int:
    return _within_bounds(_parse_int(literal), literal)


def _bounded_float(literal: str) -> float:
    return _within_bounds(_parse_float(literal), literal)


def _within_bounds(value: _Number, literal: str) -> _Number:
    if abs(value) > MAX_MAGNITUDE:
        raise JsonLimitError(f"number {_shown(literal)} is out of range (at most "
                             f"{MAX_MAGNITUDE:.3g} either way)")
    return value


def _shown(literal: str) -> str:
    return f"{literal[:20]}{'...' if len(literal) > 20 else ''}"


def _refuse_constant(name: str) -> Any:
    raise JsonLimitError(f"{name} is not a JSON number")


def _refuse_lone_surrogates(value: Any) -> None:
    # Encoding the whole value is one C-speed pass; only a failure is looked at closer.
    try:
        json.dumps(value, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError as err:
        code = ord(err.object[err.start])
        raise JsonLimitError(f"lone surrogate \\u{code:04x} in a string (half of a "
                             "UTF-16 pair, not a character)") from None
