"""Power and dim schedules as the render thread applies them.

The schedule math is in ``shared/schedules.py``; this keeps the parsed schedules, the
current state (panel on or off, dimmed or not) and when to look again. The render loop
calls ``evaluate`` when ``next_due()`` has come (the loop includes it in its wait
deadlines, so it wakes at the boundary itself, not by polling) and after a config
reload, then applies the brightness and blanks or draws.

The next boundary is computed on the wall clock and turned into a time on the loop's
monotonic clock. Should the wall clock jump (a Pi without a real-time clock sets it
from the network some time after boot), the state is re-evaluated at least every
``RECHECK`` seconds while a schedule is enabled.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from shared.schedules import Schedules

RECHECK = 60.0
BY_HAND, BY_SCHEDULE = "hand", "schedule"


class PanelSchedule:
    """Whether the panel is on and whether it is dimmed, per the config's schedules."""

    def __init__(self, wall: Callable[[], float] = time.time) -> None:
        self.wall = wall
        self.scheduled_on = True  # what the power schedule alone says
        # Power by hand: None (the schedule decides), False (off until turned on) or
        # True (on while the schedule says off; dropped when the schedule says on).
        self.manual: bool | None = None
        self.dimmed = False
        self._schedules = Schedules.from_config({})
        self._next: float | None = None

    @property
    def power_on(self) -> bool:
        """Return whether the panel may show content: power by hand, else the schedule."""
        return self.scheduled_on if self.manual is None else self.manual

    @property
    def power_cause(self) -> str | None:
        """Return who decides the power now: ``hand``, ``schedule`` (off) or None (on)."""
        if self.manual is not None:
            return BY_HAND
        return None if self.scheduled_on else BY_SCHEDULE

    def set_manual(self, on: bool | None) -> None:
        """Turn the panel on or off by hand (None: back to the schedule).

        Off lasts until turned on. On while the schedule says off lasts until the
        schedule says on (its next boundary); on while it says on just ends an off.
        """
        self.manual = None if on is True and self.scheduled_on else on

    def power_until(self) -> float | None:
        """Return the power schedule's next boundary (wall clock), if it has one."""
        schedules = self._schedules
        if not schedules.power.enabled:
            return None
        return schedules.power.next_change(self.wall(), schedules.zone)

    def dim_until(self) -> float | None:
        """Return when the dim window now running ends (wall clock), if it does."""
        schedules = self._schedules
        if not self.dimmed:
            return None
        return schedules.dim.next_change(self.wall(), schedules.zone)

    @property
    def zone(self) -> Any:
        """The config's time zone, for showing the boundaries."""
        return self._schedules.zone

    def configure(self, config: dict[str, Any]) -> None:
        """Read the schedules of a (re)loaded config; ``evaluate`` is due at once."""
        self._schedules = Schedules.from_config(config)
        self._next = float("-inf")

    def due(self, now: float) -> bool:
        """Return whether ``evaluate`` should run at ``now`` (loop clock)."""
        return self._next is not None and now >= self._next

    def next_due(self) -> float | None:
        """Return when the state may next change (loop clock), or None while no schedule is on."""
        return self._next

    def evaluate(self, now: float) -> bool:
        """Compute the state for the wall clock now; return True when it changed."""
        wall, schedules = self.wall(), self._schedules
        power, dimmed = schedules.power_on(wall), schedules.dim_active(wall)
        if schedules.enabled:
            change = schedules.next_transition(wall)
            delay = RECHECK if change is None else min(RECHECK, change - wall)
            self._next = now + max(0.0, delay)
        else:
            self._next = None
        before = (self.power_on, self.dimmed, self.manual)
        self.scheduled_on, self.dimmed = power, dimmed
        if self.manual is True and power:
            self.manual = None  # on by hand lasts until the schedule says on
        return (self.power_on, self.dimmed, self.manual) != before

    def brightness(self, configured: int) -> int:
        """Return the brightness to apply: the dim brightness inside the window, never higher."""
        return self._schedules.brightness(configured, self.dimmed)

    def describe(self) -> str:
        """Return the state in a few words, for the log and the state record."""
        cause = f" ({self.power_cause})" if self.power_cause else ""
        return ("on" if self.power_on else "off") + cause + (", dimmed" if self.dimmed else "")
