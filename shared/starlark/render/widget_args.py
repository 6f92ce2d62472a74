"""Checking the keyword arguments apps pass to widgets, as plain Python values.

Every check names widget and argument in its WidgetError, so an app's author reads
``Text: height must be a whole number, not str`` or ``Row: main_align must be one of
...``. ``None`` stands for "not given" and yields the default, as an omitted keyword
does in the app format.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from shared.starlark.render.bdf import BdfError, BdfFont
from shared.starlark.render.color import parse_color
from shared.starlark.render.errors import WidgetError
from shared.starlark.render.fonts import DEFAULT_FONT, UnknownFontError, font
from shared.starlark.render.widget import Color, Widget

WHITE: Color = (255, 255, 255, 255)
MAX_DRAWN_SIDE = 4096
"""The most pixels a widget that draws its own picture (text, an image) may ask for on a side."""


def _kind(value: object) -> str:
    return type(value).__name__


# The most pixels a widget that draws its own image may span (a Plot, a Transformation's
# canvas); apps are drawn for panels a fraction of this, and a typo must not take the
# memory of the display.
MAX_EXTENT = 1024


def int_arg(widget: str, name: str, value: object, default: int = 0,
            minimum: int | None = None, maximum: int | None = None) -> int:
    """``value`` as an int (``default`` when None), within ``minimum``..``maximum`` if given."""
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, int):
        raise WidgetError(widget, name, f"must be a whole number, not {_kind(value)}")
    if minimum is not None and value < minimum:
        raise WidgetError(widget, name, f"must be at least {minimum}, not {value}")
    if maximum is not None and value > maximum:
        raise WidgetError(widget, name, f"must be at most {maximum}, not {value}")
    return value


def number_arg(widget: str, name: str, value: object) -> float:
    """``value`` as a float; ints and floats only."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise WidgetError(widget, name, f"must be a number, not {_kind(value)}")
    return float(value)


def bool_arg(widget: str, name: str, value: object, default: bool = False) -> bool:
    """``value`` as a bool (``default`` when None)."""
    if value is None:
        return default
    if not isinstance(value, bool):
        raise WidgetError(widget, name, f"must be True or False, not {_kind(value)}")
    return value


def choice_arg(widget: str, name: str, value: object, choices: Collection[str],
               default: str) -> str:
    """``value`` as one of ``choices``; "" and None mean ``default``."""
    if value is None or value == "":
        return default
    if not isinstance(value, str):
        raise WidgetError(widget, name, f"must be a string, not {_kind(value)}")
    if value not in choices:
        allowed = ", ".join(repr(choice) for choice in choices)
        raise WidgetError(widget, name, f"must be one of {allowed}, not {value[:20]!r}")
    return value


def optional_color(widget: str, name: str, value: object) -> Color | None:
    """``value`` as an RGBA colour; None and "" mean no colour (transparent)."""
    if value is None or value == "":
        return None
    return parse_color(value, widget, name)


def widget_arg(widget: str, name: str, value: object) -> Widget:
    """``value`` as a child widget."""
    if not isinstance(value, Widget):
        raise WidgetError(widget, name, f"must be a widget, not {_kind(value)}")
    return value


def optional_widget(widget: str, name: str, value: object) -> Widget | None:
    """``value`` as a child widget, or None when not given."""
    return None if value is None else widget_arg(widget, name, value)


def widgets_arg(widget: str, name: str, value: object) -> list[Widget]:
    """``value`` as a list of child widgets (a list or tuple; None is empty).

    None items are skipped, as the app format skips them, so an app can write
    ``[a if shown else None, b]``.
    """
    if value is None:
        return []
    if not isinstance(value, list | tuple):
        raise WidgetError(widget, name, f"must be a list of widgets, not {_kind(value)}")
    for index, item in enumerate(value):
        if item is not None and not isinstance(item, Widget):
            raise WidgetError(widget, name, f"item {index} must be a widget, not {_kind(item)}")
    return [item for item in value if item is not None]


def sequence_arg(widget: str, name: str, value: object) -> Sequence[object]:
    """``value`` as a list or tuple (None is empty)."""
    if value is None:
        return []
    if not isinstance(value, list | tuple):
        raise WidgetError(widget, name, f"must be a list, not {_kind(value)}")
    return value


def str_arg(widget: str, name: str, value: object, default: str = "") -> str:
    """``value`` as a string (``default`` when None)."""
    if value is None:
        return default
    if not isinstance(value, str):
        raise WidgetError(widget, name, f"must be a string, not {type(value).__name__}")
    return value


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
