"""humanize.star: numbers, sizes and times written for people (go-humanize's rules)."""

from __future__ import annotations

import time
import urllib.parse
from typing import Any

from shared.starlark.runtime.modules.base import ModuleSource

TEXT = '''
def _time(t):
    return _py_time(t._0ns)

def _relative_time(a, b, label_a = "ago", label_b = "from now"):
    return _py_relative(a._0ns, b._0ns, label_a, label_b)

humanize = struct(
    time = _time, relative_time = _relative_time, comma = _py_comma, ordinal = _py_ordinal,
    plural = _py_plural, plural_word = _py_plural_word, float = _py_float, int = _py_int,
    ftoa = _py_ftoa, bytes = _py_bytes, url_encode = _py_url_encode,
    url_decode = _py_url_decode, word_series = _py_word_series,
    oxford_series = _py_oxford_series,
)
'''
_SPANS = ((60, "second", 1), (3600, "minute", 60), (86400, "hour", 3600),
          (86400 * 30, "day", 86400), (86400 * 365, "month", 86400 * 30))


def relative(seconds: float, label_past: str = "ago", label_future: str = "from now") -> str:
    """go-humanize's relative time: "now", "1 minute ago", "3 days from now"."""
    label = label_past if seconds >= 0 else label_future
    span = abs(seconds)
    if span < 1:
        return "now"
    for limit, unit, size in _SPANS:
        if span < limit:
            count = int(span // size)
            return f"{count} {unit}{'s' if count != 1 else ''} {label}"
    count = int(span // (86400 * 365))
    return f"{count} year{'s' if count != 1 else ''} {label}"


def comma(value: float) -> str:
    """1234567 -> "1,234,567"."""
    return f"{value:,}"


def ordinal(value: int) -> str:
    """1 -> "1st", 12 -> "12th"."""
    suffix = "th" if 10 <= value % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(value % 10,
                                                                                "th")
    return f"{value}{suffix}"


def format_float(pattern: str, value: float) -> str:
    """go-humanize FormatFloat: "#,###.##" gives thousands and decimal marks and precision."""
    if not pattern:
        pattern = "#,###.##"
    marks = [ch for ch in pattern if ch != "#"]
    thousands = marks[0] if len(marks) >= 2 else ""
    decimal = marks[-1] if marks else ""
    precision = len(pattern) - pattern.rfind(decimal) - 1 if decimal else 0
    whole, _, fraction = f"{abs(value):.{precision}f}".partition(".")
    grouped = f"{int(whole):,}".replace(",", thousands) if thousands else whole
    text = grouped + (decimal + fraction if precision > 0 else "")
    return ("-" if value < 0 else "") + text


def _bytes(size: int, iec: bool = False) -> str:
    base, units = (1024, ["B", "KiB", "MiB", "GiB", "TiB"]) if iec else \
        (1000, ["B", "kB", "MB", "GB", "TB"])
    amount = float(size)
    for unit in units:
        if amount < base or unit == units[-1]:
            return f"{amount:.0f} {unit}" if unit == "B" else f"{amount:.1f} {unit}"
        amount /= base
    return f"{size} B"


def _series(words: list[str], conjunction: str, oxford: bool) -> str:
    if len(words) <= 1:
        return "".join(words)
    if len(words) == 2:
        return f"{words[0]} {conjunction} {words[1]}"
    return ", ".join(words[:-1]) + ("," if oxford else "") + f" {conjunction} {words[-1]}"


def module() -> ModuleSource:
    """humanize.star."""
    now = time.time
    functions: dict[str, Any] = {
        "_py_time": lambda ns: relative(now() - ns / 1e9),
        "_py_relative": lambda a, b, la, lb: relative((b - a) / 1e9, la, lb),
        "_py_comma": comma, "_py_ordinal": ordinal,
        "_py_plural": lambda n, one, many="": f"{n} {one if n == 1 else (many or one + 's')}",
        "_py_plural_word": lambda n, one, many="": one if n == 1 else (many or one + "s"),
        "_py_float": format_float, "_py_int": lambda p, v: format_float(p, v),
        "_py_ftoa": lambda v, digits=-1: (f"{v:.{digits}f}" if digits >= 0
                                          else f"{v:f}".rstrip("0").rstrip(".")),
        "_py_bytes": _bytes, "_py_url_encode": urllib.parse.quote_plus,
        "_py_url_decode": urllib.parse.unquote_plus,
        "_py_word_series": lambda words, conj: _series(words, conj, False),
        "_py_oxford_series": lambda words, conj: _series(words, conj, True),
    }
    return ModuleSource(TEXT, functions)
