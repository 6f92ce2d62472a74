"""What ``shared.plugin_api.common`` (``src.common`` to community plugins) offers, by name."""

from __future__ import annotations

import importlib

import pytest

import shared.plugin_api.common as common
from shared.fonts.manager import FontManager
from shared.plugin_api.common import font_ladders


def test_every_listed_name_resolves_to_the_object_of_its_module() -> None:
    for name in common.__all__:
        value = getattr(common, name)
        module = common._LAZY.get(name)
        if module is not None:
            assert value is getattr(importlib.import_module(module), name)
    assert set(common.__all__) <= set(dir(common))
    assert {"APIHelper", "LogoHelper", "TextHelper", "LayoutContext", "ScrollHelper"} <= set(
        common.__all__)


def test_a_name_not_offered_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="GameHelper"):
        common.GameHelper  # noqa: B018 (the access is the test)


def test_a_line_height_is_the_font_managers_measure() -> None:
    assert font_ladders.font_line_height is FontManager.get_font_height
    font = FontManager({}).get_font("4x6", 6)
    assert font_ladders.font_line_height(font) == FontManager.get_font_height(font) > 0
