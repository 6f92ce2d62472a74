"""Where the ticker is at a given time: scroll position from elapsed time, with holds.

Two modes, both driven by the clock (never by how often ``position`` is called, so a
late or an extra frame neither slows nor speeds the ticker):

- **By elapsed time** (``frame_based_scrolling`` false): ``position = start +
  scroll_speed * elapsed``, in pixels, ``scroll_speed`` in px/s.
- **Frame based** (``frame_based_scrolling`` true): time is cut into ticker frames of
  ``scroll_delay`` seconds; each whole frame elapsed advances ``step = scroll_speed *
  scroll_delay`` pixels, clamped to 0.1-5 px per frame. So ``position = start + step *
  floor(elapsed / scroll_delay)``; the speed is ``step / scroll_delay`` px/s (for
  example 500 px/s at 0.02 s is clamped to 5 px per frame, i.e. 250 px/s).

The panel shows whole pixels: ``pixel(position)`` is the floor. ``elapsed`` excludes
holds: a hold registered at strip position ``at`` stops the position there for its
duration (a static segment aligned with the left edge), then scrolling resumes.
"""

from __future__ import annotations

import math
from collections import deque
from dataclasses import dataclass

from display_service.vegas.settings import VegasSettings

EPS = 1e-6  # absorbs float error so 0.1 s at 50 px/s is 5 px, not 4.999...


def pixel(position: float) -> int:
    """Return the whole pixel a position is drawn at (the floor)."""
    return math.floor(position + EPS)


@dataclass
class Hold:
    """The position stops at ``at`` for ``duration`` seconds."""

    at: float
    duration: float


class Pacer:
    """The scroll position as a function of a monotonic clock."""

    def __init__(self, settings: VegasSettings, now: float, start: float = 0.0) -> None:
        self.settings = settings
        self._anchor_t = now
        self._anchor_pos = float(start)
        self._holds: deque[Hold] = deque()

    def position(self, now: float) -> float:
        """Return the scroll position (strip pixels, fractional) at ``now``."""
        while True:
            pos = self._anchor_pos + self._advance(now - self._anchor_t)
            if not self._holds or self._holds[0].at > pos:
                return pos
            hold = self._holds[0]
            if hold.at < self._anchor_pos:  # already behind us: nothing to stop for
                self._holds.popleft()
                continue
            end = self._anchor_t + self._time_for(hold.at - self._anchor_pos) + hold.duration
            if now < end:
                return hold.at
            self._holds.popleft()
            self._anchor_t, self._anchor_pos = end, hold.at

    def next_change(self, now: float) -> float:
        """Return the time at which ``pixel(position)`` next changes (or a hold ends)."""
        pos = self.position(now)
        if self._holds and self._holds[0].at <= pos:
            hold = self._holds[0]
            return self._anchor_t + self._time_for(hold.at - self._anchor_pos) + hold.duration
        target = pixel(pos) + 1
        return max(now, self._anchor_t + self._time_for(target - self._anchor_pos))

    def reaches(self, now: float, target: int) -> float | None:
        """Return when ``pixel(position)`` reaches ``target`` (``now`` if it has already).

        None while a hold is registered: the answer would depend on it (callers fall
        back to ``next_change``).
        """
        self.position(now)  # drops the holds already passed
        if self._holds:
            return None
        return max(now, self._anchor_t + self._time_for(target - self._anchor_pos))

    def holding(self, now: float) -> bool:
        """Return True while a hold keeps the position still."""
        pos = self.position(now)
        return bool(self._holds) and self._holds[0].at <= pos

    def add_hold(self, at: float, duration: float) -> None:
        """Stop at strip position ``at`` for ``duration`` seconds (positions ascending)."""
        if duration > 0:
            self._holds.append(Hold(float(at), float(duration)))

    def drop_holds_from(self, at: float) -> None:
        """Forget the holds at strip position ``at`` or beyond."""
        while self._holds and self._holds[-1].at >= at:
            self._holds.pop()

    @property
    def holds(self) -> int:
        return len(self._holds)

    def configure(self, settings: VegasSettings, now: float) -> None:
        """Switch to new settings from ``now`` on, without a jump in position."""
        pos = self.position(now)
        if self._holds and self._holds[0].at <= pos:  # keep what is left of a running hold
            hold = self._holds[0]
            end = self._anchor_t + self._time_for(hold.at - self._anchor_pos) + hold.duration
            hold.duration = end - now
        self._anchor_t, self._anchor_pos = now, pos
        self.settings = settings

    def restart(self, now: float, start: float) -> None:
        """Start again at ``start`` with no holds."""
        self._holds.clear()
        self._anchor_t, self._anchor_pos = now, float(start)

    def resume(self, now: float, position: float) -> None:
        """Go on from ``position`` at ``now`` (after a pause); holds ahead are kept."""
        self._anchor_t, self._anchor_pos = now, float(position)

    def _advance(self, elapsed: float) -> float:
        if elapsed <= 0:
            return 0.0
        settings = self.settings
        if settings.frame_based_scrolling:
            return settings.step * math.floor(elapsed / settings.scroll_delay + EPS)
        return settings.scroll_speed * elapsed

    def _time_for(self, distance: float) -> float:
        """Return the seconds of scrolling it takes to advance ``distance`` pixels."""
        if distance <= 0:
            return 0.0
        settings = self.settings
        if settings.frame_based_scrolling:
            return math.ceil(distance / settings.step - EPS) * settings.scroll_delay
        return distance / settings.scroll_speed
