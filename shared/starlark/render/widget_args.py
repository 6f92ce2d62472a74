"""Checking the keyword arguments apps pass to widgets, as plain Python values.

Each check names the widget and the argument in its WidgetError, so an app's
author reads ``Text: height must be a whole number, not str``. ``None`` stands
for "not given" and yields the default, as an omitted argument does.
"""

from __future__ import annotations

from collections.abc import Collection

from shared.starlark.render.bdf import BdfError, BdfFont
from shared.starlark.render.color import parse_color
from shared.starlark.render.errors import WidgetError
from shared.starlark.render.fonts import DEFAULT_FONT, UnknownFontError, font
from shared.starlark.render.widget import Color, Widget

WHITE: Color = (255, 255, 255, 255)
MAX_DRAWN_SIDE = 4096
"""The most pixels a widget that draws its own picture may ask for on a side."""


def int_arg(widget: str, name: str, value: object, default: int = 0,
            minimum: int | None = None, maximum: int | None = None) -> int:
    """``value`` as an int (``default`` when None), within ``minimum``..``maximum`` if given."""
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, int):
        raise WidgetError(widget, name, f"must be a whole number, not {type(value).__name__}")
    if minimum is not None and value < minimum:
        raise WidgetError(widget, name, f"must be at least {minimum}, not {value}")
    if maximum is not None and value > maximum:
        raise WidgetError(widget, name, f"must be at most {maximum}, not {value}")
    return value


def str_arg(widget: str, name: str, value: object, default: str = "") -> str:
    """``value`` as a string (``default`` when None)."""
    if value is None:
        return default
    if not isinstance(value, str):
        raise WidgetError(widget, name, f"must be a string, not {type(value).__name__}")
    return value


def choice_arg(widget: str, name: str, value: object, choices: Collection[str],
               default: str) -> str:
    """``value`` as one of ``choices``; "" and None mean ``default``."""
    text = str_arg(widget, name, value) or default
    if text not in choices:
        allowed = ", ".join(repr(choice) for choice in choices)
        raise WidgetError(widget, name, f"must be one of {allowed}, not {text[:20]!r}")
    return text


def color_arg(widget: str, value: object, name: str = "color") -> Color:
    """``value`` as an RGBA colour; None and "" mean white, the app format's default."""
    if value is None or value == "":
        return WHITE
    return parse_color(value, widget, name)


def font_arg(widget: str, value: object) -> BdfFont:
    """The font ``value`` names; None and "" mean the default font."""
    name = str_arg(widget, "font", value) or DEFAULT_FONT
    try:
        return font(name)
    except UnknownFontError:
        raise WidgetError(widget, "font", f"is not a known font: {name[:40]!r}") from None
    except BdfError as err:
        raise WidgetError(widget, "font", f"cannot be read: {err}") from err


def widget_arg(widget: str, name: str, value: object) -> Widget:
    """``value`` as a child widget."""
    if not isinstance(value, Widget):
        raise WidgetError(widget, name, f"must be a widget, not {type(value).__name__}")
    return value
