"""The content widgets by the names apps call them (``render.Text``), and the font names.

``CONTENT_WIDGETS`` maps each name to a constructor taking the app format's
keyword arguments as plain Python values; a bad argument raises WidgetError.
``FONT_NAMES`` is what ``render.fonts`` lists.
"""

from __future__ import annotations

from collections.abc import Callable

from shared.starlark.render.emoji import Emoji
from shared.starlark.render.fonts import FONTS
from shared.starlark.render.image import Image
from shared.starlark.render.marquee import Marquee
from shared.starlark.render.text import Text, WrappedText
from shared.starlark.render.widget import Widget

CONTENT_WIDGETS: dict[str, Callable[..., Widget]] = {
    "Text": Text,
    "WrappedText": WrappedText,
    "Image": Image,
    "Marquee": Marquee,
    "Emoji": Emoji,
}

FONT_NAMES: tuple[str, ...] = tuple(sorted(FONTS))
