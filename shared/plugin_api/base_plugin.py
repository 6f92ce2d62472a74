"""The base class every plugin extends: the plugin-facing contract of the core.

A plugin subclasses ``BasePlugin`` and implements ``update()`` (fetch or compute its
data; called off the render thread) and ``display(force_clear=False)`` (draw onto
``display_manager.image`` and call ``display_manager.update_display()``; called on
the render thread). Returning ``False`` from ``display`` means "no content now".

Read the panel size from ``display_manager.width`` and ``display_manager.height``
(``display_manager.matrix.width`` / ``.height`` give the same on every backend).

This class holds only the core lifecycle. Further capabilities are mixin classes in
their own modules, composed into ``BasePlugin``'s bases: ``duration.DurationMixin``
(display duration, dynamic duration), ``live_priority.LivePriorityMixin`` (live
content takes over the rotation), ``layout_api.LayoutMixin`` (``self.layout``,
``draw_fit``, ``draw_image``) and ``vegas_hooks.VegasMixin`` (the Vegas-mode hooks).
They keep their state in attributes created lazily, so ``__init__`` here stays the only
constructor plugins call.
"""

from __future__ import annotations

import logging
from abc import ABC, abstractmethod
from typing import Any

from shared.plugin_api.duration import (
    FALLBACK_DISPLAY_DURATION,
    DurationMixin,
    display_duration_problem,
)
from shared.plugin_api.layout_api import LayoutMixin
from shared.plugin_api.live_priority import LivePriorityMixin
from shared.plugin_api.vegas_hooks import VegasDisplayMode, VegasMixin

__all__ = ["FALLBACK_DISPLAY_DURATION", "BasePlugin", "VegasDisplayMode"]


class BasePlugin(DurationMixin, LivePriorityMixin, LayoutMixin, VegasMixin, ABC):
    """Base class of all plugins.

    Args:
        plugin_id: the plugin's id (its manifest ``id``).
        config: the plugin's prepared config section (legacy booleans normalised,
            schema defaults applied).
        display_manager: the drawing surface (``width``, ``height``, ``image``,
            ``draw``, ``clear()``, ``update_display()``, ...).
        cache_manager: the shared cache (``get``, ``set``, ``clear_cache``, ...).
        plugin_manager: the manager that loaded the plugin (``font_manager``,
            ``config_manager``).
    """

    def __init__(
        self,
        plugin_id: str,
        config: dict[str, Any],
        display_manager: Any,
        cache_manager: Any,
        plugin_manager: Any,
    ) -> None:
        self.plugin_id = plugin_id
        self.config: dict[str, Any] = config if isinstance(config, dict) else {}
        self.display_manager = display_manager
        self.cache_manager = cache_manager
        self.plugin_manager = plugin_manager
        self.logger = logging.getLogger(f"plugin.{plugin_id}")
        self.enabled = bool(self.config.get("enabled", True))

    @abstractmethod
    def update(self) -> None:
        """Fetch or compute the data to show; runs off the render thread."""

    @abstractmethod
    def display(self, force_clear: bool = False) -> bool | None:
        """Draw the current content; return False when there is nothing to show now."""

    def on_config_change(self, new_config: dict[str, Any]) -> None:
        """Take a newly saved, prepared config; override to react, and call super()."""
        self.config = new_config if isinstance(new_config, dict) else {}
        self.enabled = bool(self.config.get("enabled", True))

    def validate_config(self) -> bool:
        """Return False when the config cannot work; the plugin is then not loaded.

        The base checks ``display_duration`` (absent, or a positive number of seconds);
        a plugin that overrides this should also call ``super().validate_config()``.
        """
        problem = display_duration_problem(self.config)
        if problem is not None:
            self.logger.warning("%s", problem)
            return False
        return True

    def on_enable(self) -> None:
        """Run when the plugin is loaded enabled or enabled later."""
        self.enabled = True

    def on_disable(self) -> None:
        """Run when the plugin is disabled, before cleanup()."""
        self.enabled = False

    def cleanup(self) -> None:
        """Release threads, files and connections before the plugin is dropped."""
        return None

    def _get_font_manager(self) -> Any:
        """Return the shared font manager, or None when there is none."""
        return getattr(self.plugin_manager, "font_manager", None)
