"""The ticker as the render loop's full-screen mode (``display_service.full_screen``).

``VegasMode`` has the ``FullScreenMode`` surface: ``configure(config)``, ``active()``
and ``render(now, force) -> next due``. It draws on the display manager's canvas and
presents it with ``update_display()`` (the display manager skips identical frames), so
the ticker's own images are never handed to code that might draw on them.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from typing import Any

from display_service.vegas.capture import CaptureSurface
from display_service.vegas.content import ErrorSink, collect_segments
from display_service.vegas.settings import read_settings
from display_service.vegas.strip import Segment
from display_service.vegas.ticker import VegasTicker


class VegasMode:
    """Vegas mode over a display manager and the loaded plugins.

    Args:
        display: the display manager (``width``, ``height``, ``image``,
            ``update_display()``, ``forget_frame()``, fonts).
        plugins: returns the loaded plugin instances by id (read at each cycle).
        config: the whole config; ``vegas_scroll.enabled`` makes the mode active.
        on_error: receives ``(plugin_id, "vegas", error)`` for each plugin failure.
        font: the separator font (``vegas_scroll.font_family`` resolved by the caller).
    """

    def __init__(self, display: Any, plugins: Callable[[], Mapping[str, Any]],
                 config: dict[str, Any], *, on_error: ErrorSink | None = None,
                 clock: Callable[[], float] = time.monotonic, font: Any = None) -> None:
        self._display = display
        self._plugins = plugins
        self._config = config
        self._on_error = on_error
        self._enabled = read_settings(config).enabled
        self.ticker = VegasTicker(config, display.width, display.height, self._content, clock,
                                  font=font)
        self._shown: Any = None

    def configure(self, config: dict[str, Any]) -> None:
        """Take a (re)loaded config; switching the mode on starts a fresh ticker."""
        was_enabled = self._enabled
        self._config = config
        self._enabled = read_settings(config).enabled
        self.ticker.reconfigure(config)
        if self._enabled and not was_enabled:
            self.ticker.reset()

    def active(self) -> bool:
        """Return True while ``vegas_scroll.enabled`` is set."""
        return self._enabled

    def render(self, now: float, force: bool) -> float:
        """Present the frame at ``now`` if it changed; return when the next one is due.

        ``force`` (the first frame after something else was shown) resumes the ticker
        where it stopped and presents the frame even when it is unchanged.
        """
        if force:
            self.ticker.resume(now)
            self._display.forget_frame()
        image = self.ticker.frame(now)
        if force or image is not self._shown:
            self._display.image.paste(image, (0, 0))
            self._display.update_display()
            self._shown = image
        return self.ticker.next_frame_due(now)

    def _content(self) -> list[Segment]:
        display = self._display
        return collect_segments(
            self._plugins(), self._config, display.width, display.height,
            surface_factory=lambda w, h: CaptureSurface(w, h, fonts=display),
            on_error=self._on_error)
