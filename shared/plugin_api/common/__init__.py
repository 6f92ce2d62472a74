"""The blessed helpers plugins may import (community plugins reach them as ``src.common``).

- ``ScrollHelper`` (``scroll_helper``): a scrolling strip of text or images; its pacing
  modes, speed and dynamic-duration settings are in ``scroll_settings``, the strip's
  pixels as an array (``cached_array``) in ``strip_pixels``.
- ``scroll_config.configure()`` (``scroll_config``): a crisp speed, as a whole-pixel
  step per presented frame plus the display manager's frame hold.
- ``LogoHelper`` (``logo_helper``): logos loaded, shrunk to a box and cached.
- ``TextHelper`` (``text_helper``): fonts by file name, outlined text, measuring.
- ``APIHelper`` (``api_helper``): JSON over HTTP with bounded retries and caching.
- The adaptive layout (``adaptive_layout``): ``Region``, font ladders,
  ``LayoutContext``, ``scoreboard_regions``, ``media_row``, ``fit_image`` and the rest
  of ``src.adaptive_layout``'s names (``DEFAULT_DESIGN_SIZE``, ``measure_ink``, ...).

The scroll pieces load with the package; the others on first use (``APIHelper``
imports ``requests``, which a plugin that only scrolls should not pay for).
"""

from __future__ import annotations

import importlib
from typing import Any

from shared.plugin_api.common import scroll_config as scroll_config
from shared.plugin_api.common.scroll_config import ScrollConfig as ScrollConfig
from shared.plugin_api.common.scroll_config import configure as configure
from shared.plugin_api.common.scroll_helper import ScrollHelper as ScrollHelper

# Module -> the names it gives this package, each imported when first asked for.
_LAZY_MODULES: dict[str, tuple[str, ...]] = {
    "shared.plugin_api.common.api_helper": ("APIHelper",),
    "shared.plugin_api.common.logo_helper": ("LogoHelper",),
    "shared.plugin_api.common.text_helper": ("TextHelper",),
    "shared.plugin_api.common.adaptive_layout": (
        "DEFAULT_DESIGN_SIZE", "ELLIPSIS", "FIT_MODES", "FitResult", "FontLadder", "FontStep",
        "ImageFitResult", "LADDER_ARCADE", "LADDER_DEFAULT", "LADDER_GRID", "LayoutContext",
        "MediaRow", "RESAMPLE_LANCZOS", "RESAMPLE_NEAREST", "Region", "ScoreboardRegions",
        "TIER_ORDER", "WIDTH_TIER_ORDER", "draw_fitted_image", "draw_fitted_text", "fit_image",
        "font_line_height", "measure_font_crispness", "measure_ink", "media_row",
        "scoreboard_regions",
    ),
}
_LAZY = {name: module for module, names in _LAZY_MODULES.items() for name in names}

__all__ = sorted([*_LAZY, "ScrollConfig", "ScrollHelper", "configure", "scroll_config"])


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_LAZY})
