"""Fonts shipped with ledpanel and the shared font manager (see ``manager.py``)."""

from shared.fonts.catalog import SHIPPED_FONTS_DIR, FontInfo
from shared.fonts.manager import DEFAULT_FAMILY, SIZE_TOKENS, FontManager, PilFont

__all__ = [
    "DEFAULT_FAMILY",
    "SHIPPED_FONTS_DIR",
    "SIZE_TOKENS",
    "FontInfo",
    "FontManager",
    "PilFont",
]
