"""ScrollHelper's settings: pacing modes, speed, dynamic duration and a state summary.

Three ways to pace a scroll, the first that applies wins:

1. A fixed step (``apply_scroll_config`` or ``set_pixels_per_frame``): exactly that many
   whole pixels per presented frame, no clock read. ledpanel's crisp pacing.
2. Frame-based (``set_frame_based_scrolling(True)``, as plugins written for the existing
   system ask for): ``scroll_speed`` pixels (0.1 to 5) every ``scroll_delay`` seconds,
   at most one step per frame. The step clock keeps its rhythm through small frame-time
   jitter and starts afresh after a stall instead of rushing to catch up.
3. Time-based (the default): ``scroll_speed`` pixels per second (1 to 500) of elapsed
   time.

Frames are always taken at whole pixels: ``set_sub_pixel_scrolling`` is recorded (for
plugins that read it back) but never blends neighbouring pixels, which on an LED panel
reads as blur.
"""

from __future__ import annotations

import logging
import math
import time
from collections.abc import Callable
from typing import Any

from PIL import Image

MIN_STEP_PX, MAX_STEP_PX = 0.1, 5.0  # frame-based: pixels per step
MIN_PX_PER_SECOND, MAX_PX_PER_SECOND = 1.0, 500.0  # time-based
MIN_TARGET_FPS, MAX_TARGET_FPS = 1.0, 200.0
FRAME_RATE_LOG_SECONDS = 5.0


def _clamp(value: Any, low: float, high: float, fallback: float) -> float:
    """Return ``value`` as a float within [low, high]; ``fallback`` when not a number."""
    try:
        number = float(value)
    except (TypeError, ValueError):
        return fallback
    return fallback if math.isnan(number) else max(low, min(high, number))


class ScrollSettingsMixin:
    """Pacing, speed and dynamic-duration settings of a ``ScrollHelper``."""

    cached_image: Image.Image | None
    total_scroll_width: int
    scroll_position: float
    total_distance_scrolled: float
    scroll_complete: bool
    is_scrolling: bool
    scroll_speed: float
    scroll_delay: float
    fixed_pixels_per_frame: int | None
    frame_based_scrolling: bool
    sub_pixel_scrolling: bool
    frame_hold: int
    target_fps: float
    dynamic_duration_enabled: bool
    min_duration: int
    max_duration: int
    duration_buffer: float
    calculated_duration: int
    clock: Callable[[], float]
    logger: logging.Logger
    _next_step: float | None
    _last_update: float | None
    _cycle_started: float | None
    _frames_logged: tuple[float, int] | None

    # -- pacing ------------------------------------------------------------------

    def apply_scroll_config(self, config: Any) -> None:
        """Take a ``ScrollConfig``: its step per frame, frame hold and speed."""
        self.set_pixels_per_frame(config.step_px)
        self.frame_hold = int(config.frame_hold)
        self.scroll_speed = float(config.px_per_second)
        self.target_fps = float(config.refresh_hz) / self.frame_hold
        self.calculate_dynamic_duration()

    def set_pixels_per_frame(self, pixels: int | None) -> None:
        """Move exactly ``pixels`` whole pixels per presented frame; None paces by time."""
        self.fixed_pixels_per_frame = max(1, int(pixels)) if pixels else None

    def set_frame_based_scrolling(self, enabled: bool) -> None:
        """Pace by ``scroll_speed`` pixels every ``scroll_delay`` seconds (True) or by
        ``scroll_speed`` px/s of elapsed time (False). Switching keeps the speed already
        set in pixels per second, within the new mode's range."""
        enabled = bool(enabled)
        self._next_step = None
        if enabled != self.frame_based_scrolling:
            if enabled:
                step = self.scroll_speed * self.scroll_delay
                self.scroll_speed = _clamp(step, MIN_STEP_PX, MAX_STEP_PX, 1.0)
            else:
                rate = self.scroll_speed / self.scroll_delay
                self.scroll_speed = _clamp(rate, MIN_PX_PER_SECOND, MAX_PX_PER_SECOND, 50.0)
        self.frame_based_scrolling = enabled
        self.calculate_dynamic_duration()

    def set_sub_pixel_scrolling(self, enabled: bool) -> None:
        """Record the setting; frames stay at whole pixels (see the module docstring)."""
        self.sub_pixel_scrolling = bool(enabled)

    def set_scroll_speed(self, speed: float) -> None:
        """Set the speed and drop a fixed step: pixels per step (0.1-5) when frame-based,
        else pixels per second (1-500)."""
        self.fixed_pixels_per_frame = None
        if self.frame_based_scrolling:
            self.scroll_speed = _clamp(speed, MIN_STEP_PX, MAX_STEP_PX, 1.0)
        else:
            self.scroll_speed = _clamp(speed, MIN_PX_PER_SECOND, MAX_PX_PER_SECOND, 50.0)
        self.calculate_dynamic_duration()

    def set_scroll_delay(self, delay: float) -> None:
        """Set the seconds between frame-based steps (0.001-1); time-based pacing ignores it."""
        self.scroll_delay = _clamp(delay, 0.001, 1.0, self.scroll_delay)
        self.calculate_dynamic_duration()

    def set_target_fps(self, fps: float) -> None:
        """Record the presentation rate (1-200 frames per second); informational only."""
        self.target_fps = _clamp(fps, MIN_TARGET_FPS, MAX_TARGET_FPS, self.target_fps)

    @property
    def last_update_time(self) -> float | None:
        """The wall-clock time (``time.time()``) of the last time-paced step; None before.

        Pacing itself runs on the helper's monotonic clock, so a wall clock set at boot
        never jumps the scroll; this is a view onto it. Setting it (plugins written for
        the existing system do, to restart pacing after a pause) moves that reference
        by the same amount; a value that is not a finite number clears it.
        """
        if self._last_update is None:
            return None
        return time.time() - (self.clock() - self._last_update)

    @last_update_time.setter
    def last_update_time(self, value: Any) -> None:
        seconds = _clamp(value, -math.inf, math.inf, math.nan)
        if not math.isfinite(seconds) or isinstance(value, bool):
            self._last_update = None
        else:
            self._last_update = self.clock() - (time.time() - seconds)

    def pixels_per_second(self) -> float:
        """Return the speed the current pacing mode gives, in pixels per second."""
        if self.frame_based_scrolling and not self.fixed_pixels_per_frame:
            return self.scroll_speed / self.scroll_delay
        return self.scroll_speed

    # -- dynamic duration ----------------------------------------------------------

    def set_dynamic_duration_settings(
        self,
        enabled: bool = True,
        min_duration: int = 30,
        max_duration: int = 300,
        buffer: float = 0.1,
    ) -> None:
        """Configure ``calculate_dynamic_duration`` (seconds; buffer is a fraction)."""
        self.dynamic_duration_enabled = bool(enabled)
        self.min_duration = max(1, int(min_duration))
        self.max_duration = max(self.min_duration, int(max_duration))
        self.duration_buffer = max(0.0, min(1.0, float(buffer)))
        self.calculate_dynamic_duration()

    def calculate_dynamic_duration(self) -> int:
        """Return (and keep) the seconds one full cycle takes, with buffer, within limits."""
        if not self.dynamic_duration_enabled or self.total_scroll_width <= 0:
            self.calculated_duration = self.min_duration
            return self.calculated_duration
        seconds = self.total_scroll_width / max(MIN_STEP_PX, self.pixels_per_second())
        wanted = int(seconds * (1.0 + self.duration_buffer) + 0.999)
        self.calculated_duration = max(self.min_duration, min(self.max_duration, wanted))
        return self.calculated_duration

    def get_dynamic_duration(self) -> int:
        """Return the last calculated dynamic duration in seconds."""
        return self.calculated_duration

    # -- reporting -----------------------------------------------------------------

    def get_scroll_info(self) -> dict[str, Any]:
        """Return the scroll state: position, distance, speed, completion, duration."""
        image = self.cached_image
        started = self._cycle_started
        return {
            "scroll_position": self.scroll_position,
            "total_distance_scrolled": self.total_distance_scrolled,
            "required_total_distance": max(0, self.total_scroll_width),
            "scroll_speed": self.scroll_speed,
            "scroll_delay": self.scroll_delay,
            "pixels_per_second": self.pixels_per_second(),
            "frame_based_scrolling": self.frame_based_scrolling,
            "pixels_per_frame": self.fixed_pixels_per_frame,
            "total_width": self.total_scroll_width,
            "is_scrolling": self.is_scrolling,
            "scroll_complete": self.scroll_complete,
            "dynamic_duration": self.calculated_duration,
            "elapsed_time": None if started is None else max(0.0, self.clock() - started),
            "cached_image_size": None if image is None else (image.width, image.height),
        }

    def log_frame_rate(self) -> None:
        """Count a presented frame; every 5 s, log the frame rate since the last line."""
        now = self.clock()
        if self._frames_logged is None:
            self._frames_logged = (now, 0)
            return
        since, frames = self._frames_logged
        frames += 1
        if now - since < FRAME_RATE_LOG_SECONDS:
            self._frames_logged = (since, frames)
            return
        self.logger.debug("scroll: %.1f frames per second over %.1f s",
                          frames / (now - since), now - since)
        self._frames_logged = (now, 0)
