"""Vegas mode (the continuous ticker) as a plugin takes part in it: the hooks and their defaults.

``VegasMixin`` is one of ``BasePlugin``'s bases. Every default answers "no opinion"
(None), so a plugin that overrides nothing joins the ticker the way the core decides
(``display_service/vegas/content.py``): the plugin's config section's ``vegas_mode``,
else ``vegas_scroll.default_vegas_mode``, showing a capture of its ``display()``.
Override a hook to say more:

- ``get_vegas_content()``: one PIL image or a list of them (game cards, headlines),
  each scrolled at its own width; None captures ``display()``.
- ``get_vegas_content_type()``: ``"multi"`` (several items: scroll), ``"static"``
  (one block: a fixed segment) or ``"none"`` (leave the plugin out of the ticker).
- ``get_vegas_display_mode()``: a ``VegasDisplayMode`` (or its string value),
  which outranks the content type.
- ``get_vegas_segment_width()``: how many panel widths a fixed segment takes.
"""

from __future__ import annotations

from enum import Enum
from typing import Any


class VegasDisplayMode(Enum):
    """How a plugin's content joins the ticker."""

    SCROLL = "scroll"  # its images scroll past with the rest
    FIXED_SEGMENT = "fixed"  # centred on a segment of whole panel widths
    STATIC = "static"  # the ticker holds a capture of display() still for a while


class VegasMixin:
    """The Vegas-mode hooks of ``BasePlugin``, each defaulting to "no opinion"."""

    def get_vegas_content(self) -> Any:
        """Return the images to scroll (one PIL image or a list), or None to capture display()."""
        return None

    def get_vegas_content_type(self) -> str | None:
        """Return ``"multi"``, ``"static"`` or ``"none"`` (sit out); None leaves it to the core."""
        return None

    def get_vegas_display_mode(self) -> VegasDisplayMode | None:
        """Return how to join the ticker; None leaves it to the config and the content type."""
        return None

    def get_vegas_segment_width(self) -> int | None:
        """Return the panel widths a fixed segment takes; None uses the configured count."""
        return None
