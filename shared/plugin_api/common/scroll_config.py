"""Crisp scroll speeds: a whole-pixel step per presented frame and a frame hold.

Smooth motion on an LED panel means moving the same whole number of pixels on every
frame the panel shows. So a speed is not paced by a clock: ``configure()`` turns the
requested px/s into ``step_px`` (pixels per presented frame) and ``frame_hold``
(panel refreshes each frame stays up), with

    px_per_second = step_px * refresh_hz / frame_hold

The plugin then gives the step to its scroll helper and the hold to the display
manager, ``display_manager.set_scrolling_state(True, frame_hold=cfg.frame_hold)``
(``ScrollConfig.engage`` does both). The render loop calls ``display()`` once every
``frame_hold`` refreshes. Warning: leaving the hold out runs the scroll
``frame_hold`` times too fast.

Speed precedence, in the plugin's config section (top level or its
``display_options``):

1. a ``scroll_speed`` plus ``scroll_delay`` pair: ``scroll_speed`` pixels every
   ``scroll_delay`` seconds, i.e. ``scroll_speed / scroll_delay`` px/s. The delay only
   expresses the speed; frames are never paced by it.
2. ``display_options.scroll_pixels_per_second`` (or a top-level one).
3. ``scroll_speed`` alone, read as px/s.
4. ``DEFAULT_PX_PER_SECOND``.

``target_fps`` is never read. The refresh rate (the sports scroll ladder) is the
display manager's ``refresh_hz``, else ``display.hardware.limit_refresh_rate_hz`` from
the main config, else 100.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

DEFAULT_PX_PER_SECOND = 50.0
FALLBACK_REFRESH_HZ = 100.0
MIN_PX_PER_SECOND = 1.0
MAX_STEP_PX = 8
#: A step is accepted when it comes within this fraction of the requested speed; the
#: smallest such step wins, because small steps are what make motion look smooth.
SPEED_TOLERANCE = 0.2


@dataclass(frozen=True)
class ScrollConfig:
    """The chosen scroll pacing."""

    step_px: int
    frame_hold: int
    px_per_second: float  # the speed actually produced
    requested_px_per_second: float
    refresh_hz: float
    source: str  # which setting decided the speed

    @property
    def frames_per_second(self) -> float:
        """Distinct frames shown per second: refresh_hz / frame_hold."""
        return self.refresh_hz / self.frame_hold

    def engage(self, display_manager: Any, helper: Any = None) -> None:
        """Set the display manager's frame hold (and the helper's step) for this speed."""
        if helper is not None:
            helper.apply_scroll_config(self)
        display_manager.set_scrolling_state(True, frame_hold=self.frame_hold)


def _number(value: Any) -> float | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, str):
        try:
            value = float(value)
        except ValueError:
            return None
    if isinstance(value, int | float) and value > 0 and value == value and value != float("inf"):
        return float(value)
    return None


def _sections(config: Mapping[str, Any] | None) -> list[tuple[str, Mapping[str, Any]]]:
    if not isinstance(config, Mapping):
        return []
    found: list[tuple[str, Mapping[str, Any]]] = [("", config)]
    options = config.get("display_options")
    if isinstance(options, Mapping):
        found.insert(0, ("display_options.", options))
    return found


def requested_speed(
    config: Mapping[str, Any] | None, default: float = DEFAULT_PX_PER_SECOND
) -> tuple[float, str]:
    """Return the requested px/s from a plugin config and the setting that gave it."""
    sections = _sections(config)
    for prefix, section in sections:
        speed, delay = _number(section.get("scroll_speed")), _number(section.get("scroll_delay"))
        if speed is not None and delay is not None:
            return speed / delay, f"{prefix}scroll_speed/{prefix}scroll_delay"
    for prefix, section in sections:
        pps = _number(section.get("scroll_pixels_per_second"))
        if pps is not None:
            return pps, f"{prefix}scroll_pixels_per_second"
    for prefix, section in sections:
        speed = _number(section.get("scroll_speed"))
        if speed is not None:
            return speed, f"{prefix}scroll_speed"
    return default, "default"


def refresh_rate(
    display_manager: Any = None, main_config: Mapping[str, Any] | None = None
) -> tuple[float, str]:
    """Return the panel refresh rate to pace against and where it came from."""
    hz = _number(getattr(display_manager, "refresh_hz", None))
    if hz is not None:
        return hz, "display_manager.refresh_hz"
    display = main_config.get("display") if isinstance(main_config, Mapping) else None
    hardware = display.get("hardware") if isinstance(display, Mapping) else None
    if isinstance(hardware, Mapping):
        hz = _number(hardware.get("limit_refresh_rate_hz"))
        if hz is not None:
            return hz, "display.hardware.limit_refresh_rate_hz"
    return FALLBACK_REFRESH_HZ, "default"


def crisp_step(px_per_second: float, refresh_hz: float) -> tuple[int, int]:
    """Return (step_px, frame_hold) whose speed best approximates ``px_per_second``.

    Steps are tried from 1 px up to ``MAX_STEP_PX``, each with the integer hold (the
    two around the exact quotient) that comes closest; the first step within
    ``SPEED_TOLERANCE`` wins, else the closest of all. Small steps win because a
    one-pixel step at a high frame rate looks smooth and a big step at a low one
    judders, while a speed a few percent off is hard to see. The hold is at most
    ``refresh_hz`` (one frame a second).
    """
    target = max(MIN_PX_PER_SECOND, float(px_per_second))
    refresh = max(1.0, float(refresh_hz))
    max_hold = max(1, int(refresh))
    best: tuple[float, int, int] | None = None
    for step in range(1, MAX_STEP_PX + 1):
        exact = step * refresh / target
        holds = {min(max_hold, max(1, h)) for h in (math.floor(exact), math.ceil(exact))}
        error, hold = min((abs(step * refresh / h - target) / target, h) for h in holds)
        if error <= SPEED_TOLERANCE:
            return step, hold
        if best is None or error < best[0]:
            best = (error, step, hold)
    assert best is not None
    return best[1], best[2]


def configure(
    config: Mapping[str, Any] | None,
    display_manager: Any = None,
    *,
    main_config: Mapping[str, Any] | None = None,
    helper: Any = None,
    default_px_per_second: float = DEFAULT_PX_PER_SECOND,
) -> ScrollConfig:
    """Return the crisp pacing for a plugin's scroll settings on this panel.

    Args:
        config: the plugin's config section (see the module docstring for the keys).
        display_manager: gives ``refresh_hz``; may be None.
        main_config: the main config, for ``display.hardware.limit_refresh_rate_hz``
            when the display manager has no refresh rate.
        helper: a ``ScrollHelper`` to set the step on (``apply_scroll_config``).
        default_px_per_second: the speed when the config names none.

    The caller must still pass ``frame_hold`` to
    ``display_manager.set_scrolling_state`` while scrolling (or call ``engage``).
    """
    wanted, source = requested_speed(config, default_px_per_second)
    refresh, _where = refresh_rate(display_manager, main_config)
    step, hold = crisp_step(wanted, refresh)
    result = ScrollConfig(
        step_px=step,
        frame_hold=hold,
        px_per_second=step * refresh / hold,
        requested_px_per_second=wanted,
        refresh_hz=refresh,
        source=source,
    )
    if helper is not None:
        helper.apply_scroll_config(result)
    return result
