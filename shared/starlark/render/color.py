"""parse_color: the hex colours apps write ("#rgb", "#rgba", "#rrggbb", "#rrggbbaa")."""

from __future__ import annotations

import string

from shared.starlark.render.errors import WidgetError
from shared.starlark.render.widget import Color

_HEX = set(string.hexdigits)


def parse_color(value: object, widget: str, argument: str = "color") -> Color:
    """``value`` as RGBA; the leading ``#`` is optional; anything else is a WidgetError."""
    if not isinstance(value, str):
        raise WidgetError(widget, argument, f"must be a colour string, not {type(value).__name__}")
    digits = value[1:] if value.startswith("#") else value
    if not digits or not set(digits) <= _HEX or len(digits) not in (3, 4, 6, 8):
        raise WidgetError(widget, argument, f"is not a colour: {value[:20]!r}")
    if len(digits) in (3, 4):
        digits = "".join(ch * 2 for ch in digits)
    if len(digits) == 6:
        digits += "ff"
    red, green, blue, alpha = (int(digits[i:i + 2], 16) for i in range(0, 8, 2))
    return (red, green, blue, alpha)
