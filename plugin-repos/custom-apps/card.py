"""A custom app's text, icon and colour drawn on the panel.

The text is fitted to the panel with the layout API (``draw_fit``: the largest font of
the panel's ladder that fits, shortened with an ellipsis when none does), in the app's
colour, on black.
"""

from __future__ import annotations

from typing import Any


def draw_card(plugin: Any, app: dict[str, Any]) -> None:
    """Draw ``app``'s text in its colour over the whole panel of ``plugin``."""
    display = plugin.display_manager
    display.clear()
    width, height = int(display.width), int(display.height)
    color = tuple(app.get("color") or (255, 255, 255))
    text = app.get("text") or ""
    if text:
        plugin.draw_fit(text, (width, height), color=color)
