"""The ``vegas_scroll`` config section, read once into a typed, validated record.

Every value falls back to the template default when it is missing or unusable, so a
hand-edited config can never stop the ticker. Keys this package reads:

- ``enabled``: the ticker replaces the rotation (``VegasMode.active``).
- ``scroll_speed`` (px/s), ``scroll_delay`` (s), ``frame_based_scrolling``: pacing.
- ``vegas_min_cycle_duration``, ``vegas_max_cycle_duration``, ``dynamic_cycle_duration``:
  cycle bounds (blank or missing means the template default).
- ``separator``, ``separator_color``, ``separator_padding``, ``background_color``.
- ``plugin_order``, ``excluded_plugins``, ``include_new_plugins``,
  ``default_vegas_mode``, ``default_panel_count``: which plugins join, and how.
- ``static_hold_duration``: seconds a static segment holds still at the left edge.
- ``buffer_ahead``: segments placed beyond the right edge of the panel.
- ``live_priority``, ``live_interrupt``: whether, and when, live content may take the
  panel from the ticker (``VegasMode.allows_live_interrupt``).

Not read (reserved): ``content_refresh_interval``, ``live_poll_interval``,
``live_hold_duration``, ``live_resume_position``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

MODES = ("scroll", "fixed", "static")
Color = tuple[int, int, int]

# The frame-based step is clamped to this many pixels per scroll_delay.
MIN_STEP = 0.1
MAX_STEP = 5.0
MAX_BUFFER_AHEAD = 16


@dataclass(frozen=True)
class VegasSettings:
    """Validated ``vegas_scroll`` values."""

    enabled: bool = False
    scroll_speed: float = 50.0
    scroll_delay: float = 0.02
    frame_based_scrolling: bool = True
    min_cycle: float = 60.0
    max_cycle: float = 300.0
    dynamic_cycle_duration: bool = True
    separator: str = " \u2022 "
    separator_color: Color = (128, 128, 128)
    separator_padding: int = 6
    background_color: Color = (0, 0, 0)
    font_family: str = ""
    plugin_order: tuple[str, ...] = ()
    excluded_plugins: frozenset[str] = frozenset()
    include_new_plugins: bool = True
    default_vegas_mode: str = "scroll"
    default_panel_count: int = 1
    static_hold_duration: float = 5.0
    buffer_ahead: int = 2
    live_priority: bool = True
    live_interrupt: bool = True

    @property
    def step(self) -> float:
        """Pixels per ``scroll_delay`` in frame-based mode, clamped to 0.1-5."""
        return min(MAX_STEP, max(MIN_STEP, self.scroll_speed * self.scroll_delay))

    @property
    def pixels_per_second(self) -> float:
        """The effective speed: ``scroll_speed``, or the clamped step per ``scroll_delay``."""
        if self.frame_based_scrolling:
            return self.step / self.scroll_delay
        return self.scroll_speed


def read_settings(config: dict[str, Any] | None) -> VegasSettings:
    """Return the settings of a whole config (its ``vegas_scroll`` section)."""
    section = config.get("vegas_scroll") if isinstance(config, dict) else None
    raw: dict[str, Any] = section if isinstance(section, dict) else {}
    base = VegasSettings()
    min_cycle = _number(raw.get("vegas_min_cycle_duration"), base.min_cycle, 0.0)
    max_cycle = _number(raw.get("vegas_max_cycle_duration"), base.max_cycle, 0.0)
    mode = raw.get("default_vegas_mode")
    return VegasSettings(
        enabled=_flag(raw.get("enabled"), base.enabled),
        scroll_speed=_number(raw.get("scroll_speed"), base.scroll_speed, 0.0, exclusive=True),
        scroll_delay=max(0.001, _number(raw.get("scroll_delay"), base.scroll_delay, 0.0,
                                        exclusive=True)),
        frame_based_scrolling=_flag(raw.get("frame_based_scrolling"), base.frame_based_scrolling),
        min_cycle=min_cycle,
        max_cycle=max(min_cycle, max_cycle),
        dynamic_cycle_duration=_flag(raw.get("dynamic_cycle_duration"),
                                     base.dynamic_cycle_duration),
        separator=raw["separator"] if isinstance(raw.get("separator"), str) else base.separator,
        separator_color=_color(raw.get("separator_color"), base.separator_color),
        separator_padding=int(_number(raw.get("separator_padding"), base.separator_padding, 0)),
        background_color=_color(raw.get("background_color"), base.background_color),
        font_family=raw["font_family"] if isinstance(raw.get("font_family"), str) else "",
        plugin_order=tuple(_names(raw.get("plugin_order"))),
        excluded_plugins=frozenset(_names(raw.get("excluded_plugins"))),
        include_new_plugins=_flag(raw.get("include_new_plugins"), base.include_new_plugins),
        default_vegas_mode=mode if mode in MODES else base.default_vegas_mode,
        default_panel_count=int(_number(raw.get("default_panel_count"),
                                        base.default_panel_count, 1)),
        static_hold_duration=_number(raw.get("static_hold_duration"),
                                     base.static_hold_duration, 0.0),
        buffer_ahead=min(MAX_BUFFER_AHEAD,
                         int(_number(raw.get("buffer_ahead"), base.buffer_ahead, 0))),
        live_priority=_flag(raw.get("live_priority"), base.live_priority),
        live_interrupt=_flag(raw.get("live_interrupt"), base.live_interrupt),
    )


def _number(value: Any, default: float, minimum: float, exclusive: bool = False) -> float:
    if isinstance(value, str):
        try:
            value = float(value.strip())
        except ValueError:
            return default
    if isinstance(value, bool) or not isinstance(value, int | float):
        return default
    if not math.isfinite(value) or value < minimum or (exclusive and value == minimum):
        return default
    return float(value)


def _flag(value: Any, default: bool) -> bool:
    return value if isinstance(value, bool) else default


def _color(value: Any, default: Color) -> Color:
    if not isinstance(value, list | tuple) or len(value) != 3:
        return default
    if not all(isinstance(c, int) and not isinstance(c, bool) for c in value):
        return default
    red, green, blue = (max(0, min(255, c)) for c in value)
    return (red, green, blue)


def _names(value: Any) -> list[str]:
    if not isinstance(value, list | tuple):
        return []
    return [item for item in value if isinstance(item, str) and item]
