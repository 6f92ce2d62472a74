"""Fonts shipped with ledpanel and the shared font manager (see ``manager.py``)."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from shared.fonts.catalog import SHIPPED_FONTS_DIR, FontInfo
    from shared.fonts.manager import DEFAULT_FAMILY, SIZE_TOKENS, FontManager, PilFont

# Imported on first use: both load Pillow, which a process reading only font files'
# names (the web's backup and upload routes) never needs.
_HOMES = {"SHIPPED_FONTS_DIR": "catalog", "FontInfo": "catalog", "DEFAULT_FAMILY": "manager",
          "SIZE_TOKENS": "manager", "FontManager": "manager", "PilFont": "manager"}


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{home}"), name)

__all__ = [
    "DEFAULT_FAMILY",
    "SHIPPED_FONTS_DIR",
    "SIZE_TOKENS",
    "FontInfo",
    "FontManager",
    "PilFont",
]
