"""The content widgets by name, as the runtime looks them up, and the font names."""

from __future__ import annotations

from shared.starlark.render.content_widgets import CONTENT_WIDGETS, FONT_NAMES
from shared.starlark.render.widget import Bounds, Widget


def test_each_name_builds_its_widget() -> None:
    text = CONTENT_WIDGETS["Text"](content="hi", color="#f00")
    assert isinstance(text, Widget)
    assert text.size(Bounds(64, 32), 0) == Bounds(9, 8)
    assert {"Text", "WrappedText", "Image", "Marquee", "Emoji"} <= set(CONTENT_WIDGETS)


def test_font_names_are_the_app_format_names() -> None:
    assert "tb-8" in FONT_NAMES
    assert {"6x13", "tom-thumb", "CG-pixel-3x5-mono", "Dina_r400-6", "terminus-16-light"} \
        <= set(FONT_NAMES)
    assert list(FONT_NAMES) == sorted(FONT_NAMES)
