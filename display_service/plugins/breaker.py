"""A circuit breaker per plugin: one that keeps failing is rested, then tried again.

Pure logic on a clock it is given (monotonic seconds); ``plugin_errors.py`` keeps one
per plugin and the render loop and update scheduler ask it before calling the plugin.

- **closed**: calls run. ``OPEN_AFTER`` (5) failures in a row of one phase
  (``display`` or ``update``) open it.
- **open**: the plugin is rested, skipped in the rotation and its updates not started,
  for ``rest`` seconds: ``FIRST_REST`` (30 s) the first time, doubled each time it
  opens again, at most ``MAX_REST`` (10 min).
- **half_open**: the rest is over; calls run again as a trial. One failure opens it
  again (for twice as long); a success of the phase that opened it closes it, and the
  next rest starts from ``FIRST_REST`` again.

A success of a phase resets that phase's run of failures: a plugin whose ``update()``
works but whose ``display()`` always fails is still rested.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

OPEN_AFTER = 5
FIRST_REST = 30.0
MAX_REST = 600.0
PHASES = ("display", "update")

CLOSED, OPEN, HALF_OPEN = "closed", "open", "half_open"


@dataclass
class Breaker:
    """One plugin's breaker; every method takes ``now`` from the same clock."""

    state: str = CLOSED
    rest: float = FIRST_REST  # how long the next opening rests the plugin
    until: float | None = None  # while open: when the rest ends
    opened: int = 0  # how many times it opened
    streaks: dict[str, int] = field(default_factory=dict)

    def failed(self, phase: str, now: float) -> bool:
        """Count a failed call; return True when this failure opened the breaker."""
        if phase not in PHASES:
            return False
        self.streaks[phase] = self.streaks.get(phase, 0) + 1
        if self.state == HALF_OPEN or (
                self.state == CLOSED and self.streaks[phase] >= OPEN_AFTER):
            self._open(now)
            return True
        return False

    def succeeded(self, phase: str) -> bool:
        """Count a call that worked; return True when this success closed the breaker."""
        if phase not in PHASES:
            return False
        self.streaks[phase] = 0
        if self.state != HALF_OPEN or any(n >= OPEN_AFTER for n in self.streaks.values()):
            return False
        self.state, self.rest, self.until = CLOSED, FIRST_REST, None
        return True

    def resting(self, now: float) -> bool:
        """Return True while the plugin must not be called; an ended rest turns half-open."""
        if self.state != OPEN:
            return False
        if self.until is not None and now < self.until:
            return True
        self.state, self.until = HALF_OPEN, None
        return False

    def _open(self, now: float) -> None:
        self.state = OPEN
        self.until = now + self.rest
        self.opened += 1
        self.rest = min(MAX_REST, self.rest * 2)

    def describe(self, now: float, wall_now: float) -> dict[str, Any]:
        """Return the state as published: ``until`` in epoch seconds while open."""
        until = None
        if self.state == OPEN and self.until is not None:
            until = round(wall_now + (self.until - now), 3)
        return {"state": self.state, "until": until, "opened": self.opened,
                "failures_in_a_row": max(self.streaks.values(), default=0)}
