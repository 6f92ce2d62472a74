"""The ticker as the render loop's full-screen mode (``display_service.loop.full_screen``).

``VegasMode`` has the ``FullScreenMode`` surface: ``configure(config)``, ``active()``
and ``render(now, force) -> next due``. It draws on the display manager's canvas and
presents it with ``update_display()`` (the display manager skips identical frames), so
the ticker's own images are never handed to code that might draw on them.

Beyond that surface:

- ``allows_live_interrupt()``: whether live content may take the panel from the ticker
  now (``vegas_scroll.live_priority`` / ``live_interrupt``, see the package docstring).
  The render loop consults it when live content is waiting.
- ``status(now)``: the ``display_state`` fields while the ticker is on the panel:
  ``plugin_id`` (the plugin covering most of the last frame, None over a separator or
  blank gap), ``mode`` (``"vegas"``) and ``fps`` (ticker frames drawn per second).

Content collection leaves out the plugins ``skip`` names (the loop passes its "update()
overrun" check) and times each plugin: one whose content took longer than
``capture_budget`` seconds is reported through ``on_error`` (a ``SlowContentError``)
and left out of the next ``SLOW_SKIP_CYCLES`` content collections.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from typing import Any

from display_service.state import FpsMeter
from display_service.vegas.capture import CaptureSurface
from display_service.vegas.content import (
    ErrorSink,
    SlowContentError,
    collect_segments,
    log_error,
)
from display_service.vegas.settings import read_settings
from display_service.vegas.strip import Segment
from display_service.vegas.ticker import VegasTicker

CAPTURE_BUDGET = 0.5  # seconds one plugin's Vegas content may take on the render thread
SLOW_SKIP_CYCLES = 5  # content collections a plugin over the budget is left out of


class VegasMode:
    """Vegas mode over a display manager and the loaded plugins.

    Args:
        display: the display manager (``width``, ``height``, ``image``,
            ``update_display()``, ``forget_frame()``, fonts).
        plugins: returns the loaded plugin instances by id (read at each cycle).
        config: the whole config; ``vegas_scroll.enabled`` makes the mode active.
        on_error: receives ``(plugin_id, "vegas", error)`` for each plugin failure,
            and a ``SlowContentError`` for each plugin over ``capture_budget``.
        font: the separator font (``vegas_scroll.font_family`` resolved by the caller).
        skip: returns True for a plugin to leave out of the next content collection
            (for example ``updates.is_overrun``); asked at every collection.
        capture_budget: seconds one plugin's content may take before it is left out
            of the next ``slow_skip_cycles`` collections.
    """

    name = "vegas"

    def __init__(self, display: Any, plugins: Callable[[], Mapping[str, Any]],
                 config: dict[str, Any], *, on_error: ErrorSink | None = None,
                 clock: Callable[[], float] = time.monotonic, font: Any = None,
                 skip: Callable[[str], bool] | None = None,
                 capture_budget: float = CAPTURE_BUDGET,
                 slow_skip_cycles: int = SLOW_SKIP_CYCLES) -> None:
        self._display = display
        self._plugins = plugins
        self._config = config
        self._on_error = on_error
        self._clock = clock
        self._skip = skip
        self._budget = capture_budget
        self._skip_cycles = slow_skip_cycles
        self._left_out: dict[str, int] = {}  # plugin id -> collections still to sit out
        self.settings = read_settings(config)
        self.ticker = VegasTicker(config, display.width, display.height, self._content, clock,
                                  font=font)
        self._shown: Any = None
        self._cycle_began = False  # the last frame drawn brought a new cycle on screen
        self._fps: FpsMeter | None = None

    def configure(self, config: dict[str, Any]) -> None:
        """Take a (re)loaded config; switching the mode on starts a fresh ticker."""
        was_enabled = self.settings.enabled
        self._config = config
        self.settings = read_settings(config)
        self.ticker.reconfigure(config)
        if self.settings.enabled and not was_enabled:
            self.ticker.reset()

    def active(self) -> bool:
        """Return True while ``vegas_scroll.enabled`` is set."""
        return self.settings.enabled

    def allows_live_interrupt(self) -> bool:
        """Return whether live content may take the panel from the ticker now.

        ``live_priority`` false: never (live plugins show in their turn in the ticker).
        ``live_interrupt`` false: only once the next cycle has come on screen (the loop
        asks before every ticker frame, so it sees the frame that began one). Both true
        (the default): at once.
        """
        settings = self.settings
        return settings.live_priority and (settings.live_interrupt or self._cycle_began)

    def render(self, now: float, force: bool) -> float:
        """Present the frame at ``now`` if it changed; return when the next one is due.

        ``force`` (the first frame after something else was shown) resumes the ticker
        where it stopped and presents the frame even when it is unchanged.
        """
        if force:
            self.ticker.resume(now)
            self._display.forget_frame()
            self._fps = None
        if self._fps is None:
            self._fps = FpsMeter(now)
        cycles = self.ticker.cycles_started
        image = self.ticker.frame(now)
        self._cycle_began = self.ticker.cycles_started != cycles
        if force or image is not self._shown:
            self._display.image.paste(image, (0, 0))
            self._display.update_display()
            self._shown = image
            self._fps.count += 1
        return self.ticker.next_frame_due(now)

    def status(self, now: float) -> dict[str, Any]:
        """Return ``plugin_id``, ``mode`` and ``fps`` for ``display_state``."""
        return {"plugin_id": self.ticker.plugin_shown(), "mode": self.name,
                "fps": self._fps.rate(now) if self._fps is not None else 0.0}

    def _content(self) -> list[Segment]:
        left_out = {p for p, cycles in self._left_out.items() if cycles > 0}
        self._left_out = {p: cycles - 1 for p, cycles in self._left_out.items() if cycles > 1}
        skip = self._skip

        def leave_out(plugin_id: str) -> bool:
            return plugin_id in left_out or (skip is not None and skip(plugin_id))

        display = self._display
        return collect_segments(
            self._plugins(), self._config, display.width, display.height,
            surface_factory=lambda w, h: CaptureSurface(w, h, fonts=display),
            on_error=self._on_error, skip=leave_out, budget=self._budget,
            on_slow=self._slow, clock=self._clock)

    def _slow(self, plugin_id: str, seconds: float) -> None:
        self._left_out[plugin_id] = self._skip_cycles
        error = SlowContentError(seconds, self._budget,
                                 f"left out of the next {self._skip_cycles} ticker cycles")
        (self._on_error or log_error)(plugin_id, "vegas", error)
