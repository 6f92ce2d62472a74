"""Rotation and on-demand: a pure state machine driven by a clock the caller passes in.

No threads, no I/O. Times are seconds on the caller's monotonic clock.

Rotation order: plugin ids sorted, then each plugin's modes in the order it declares
them. Duration of an entry: ``display_durations[plugin_id]`` from the config when it is
a positive number, else the plugin's ``get_display_duration()``.

On-demand: a start request shows one plugin mode instead of the rotation. It ends by
itself after ``duration`` seconds unless pinned; without a duration it lasts the
entry's rotation duration. On stop or expiry the rotation resumes where it left off:
the interrupted entry comes back with the time it had left when it was interrupted
(at least ``MIN_RESUME`` seconds, so it is not just a flash).

No content: when ``display()`` returns False the rotation moves to the next entry at
once; once every entry in a row had nothing to show, the caller is told to wait
``NO_CONTENT_BACKOFF`` seconds before trying again, so an empty rotation never spins.

On-demand states: ``idle`` (none requested or the last one expired), ``active``,
``stopped`` (the last stop request was applied), ``error`` (the last start request was
refused; ``error`` says why, and any previous on-demand has ended).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

DEFAULT_DURATION = 15.0
NO_CONTENT_BACKOFF = 1.0
MIN_RESUME = 3.0

IDLE, ACTIVE, STOPPED, ERROR = "idle", "active", "stopped", "error"


@dataclass(frozen=True)
class Entry:
    """One rotation slot: a plugin's display mode shown for ``duration`` seconds."""

    plugin_id: str
    mode: str
    duration: float

    @property
    def key(self) -> tuple[str, str]:
        return (self.plugin_id, self.mode)


@dataclass(frozen=True)
class OnDemand:
    """The active on-demand request."""

    plugin_id: str
    mode: str
    pinned: bool
    request_id: str | None
    started_at: float
    ends_at: float | None  # None: until stopped


def _positive(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value) if math.isfinite(value) and value > 0 else None


def build_entries(
    plugin_ids: Iterable[str],
    modes: Callable[[str], list[str]],
    own_duration: Callable[[str], Any],
    display_durations: Mapping[str, Any] | None = None,
) -> list[Entry]:
    """Return the rotation: sorted plugin ids, each plugin's modes in declared order."""
    durations = display_durations if isinstance(display_durations, Mapping) else {}
    entries: list[Entry] = []
    for plugin_id in sorted(plugin_ids):
        duration = _positive(durations.get(plugin_id)) or _positive(own_duration(plugin_id))
        for mode in modes(plugin_id) or [plugin_id]:
            entries.append(Entry(plugin_id, mode, duration or DEFAULT_DURATION))
    return entries


class Controller:
    """Which plugin mode to show now; what to do on requests, expiry and empty content."""

    def __init__(self, entries: list[Entry], now: float) -> None:
        self.entries = list(entries)
        self.index = 0
        self.entry_started = now
        self.entry_ends = now + (self.entries[0].duration if self.entries else 0.0)
        self.on_demand: OnDemand | None = None
        self.state = IDLE
        self.error: str | None = None
        self.last_request_id: str | None = None
        self._paused_remaining: float | None = None
        self._empty_streak = 0

    # -- queries -------------------------------------------------------------

    def current(self, now: float) -> Entry | None:
        """Return the entry to render now (the on-demand one while active)."""
        if self.on_demand is not None:
            od = self.on_demand
            return Entry(od.plugin_id, od.mode, od.ends_at - od.started_at if od.ends_at else 0.0)
        return self.entries[self.index] if self.entries else None

    def next_deadline(self) -> float | None:
        """Return when the current entry or on-demand ends by itself, if it does."""
        if self.on_demand is not None:
            return self.on_demand.ends_at
        return self.entry_ends if self.entries else None

    def modes_of(self, plugin_id: str) -> list[str]:
        """Return the modes of a plugin in the rotation, in order."""
        return [e.mode for e in self.entries if e.plugin_id == plugin_id]

    # -- time ----------------------------------------------------------------

    def tick(self, now: float) -> list[str]:
        """Apply expiries due at ``now``; return what happened (``expired``, ``advanced``)."""
        events: list[str] = []
        od = self.on_demand
        if od is not None and od.ends_at is not None and now >= od.ends_at:
            self._end_on_demand(now, IDLE)
            events.append("expired")
        if self.on_demand is None and self.entries and now >= self.entry_ends:
            self._goto(self.index + 1, now)
            events.append("advanced")
        return events

    def advance(self, now: float) -> None:
        """Move to the next rotation entry now."""
        if self.entries:
            self._goto(self.index + 1, now)

    def no_content(self, now: float) -> float:
        """The current entry had nothing to show; return seconds to wait before rendering."""
        if self.on_demand is not None or not self.entries:
            return NO_CONTENT_BACKOFF
        self._empty_streak += 1
        if self._empty_streak >= len(self.entries):
            self._empty_streak = 0
            self._goto(self.index + 1, now + NO_CONTENT_BACKOFF)
            return NO_CONTENT_BACKOFF
        self._goto(self.index + 1, now)
        return 0.0

    def had_content(self) -> None:
        """The current entry drew something: the empty-rotation count starts over."""
        self._empty_streak = 0

    # -- on-demand -----------------------------------------------------------

    def start_on_demand(
        self,
        plugin_id: str,
        mode: str | None,
        duration: float | None,
        pinned: bool,
        request_id: str | None,
        now: float,
    ) -> str | None:
        """Activate an on-demand request; return None, or why it was refused."""
        self.last_request_id = request_id
        modes = self.modes_of(plugin_id)
        problem = None
        if not modes:
            problem = f"plugin {plugin_id!r} is not loaded"
        elif mode and mode not in modes:
            problem = f"plugin {plugin_id!r} has no mode {mode!r} (modes: {', '.join(modes)})"
        elif duration is not None and _positive(duration) is None:
            problem = f"duration must be a positive number of seconds, not {duration!r}"
        if problem is not None:
            self.refuse(request_id, problem, now)
            return problem
        chosen = mode or modes[0]
        if duration is None:
            duration = next(e.duration for e in self.entries if e.key == (plugin_id, chosen))
        if self.on_demand is None:
            self._paused_remaining = max(0.0, self.entry_ends - now)
        self.on_demand = OnDemand(
            plugin_id, chosen, bool(pinned), request_id, now, None if pinned else now + duration
        )
        self.state, self.error = ACTIVE, None
        return None

    def refuse(self, request_id: str | None, problem: str, now: float) -> None:
        """Record a refused request: state ``error``; a running on-demand ends."""
        self.last_request_id = request_id
        self._end_on_demand(now, ERROR)
        self.state, self.error = ERROR, problem

    def stop_on_demand(self, request_id: str | None, now: float) -> bool:
        """Apply a stop request; return True if an active on-demand ended."""
        self.last_request_id = request_id
        was_active = self.on_demand is not None
        self._end_on_demand(now, STOPPED)
        self.state, self.error = STOPPED, None
        return was_active

    def _end_on_demand(self, now: float, state: str) -> None:
        if self.on_demand is None:
            return
        self.on_demand = None
        self.state = state
        remaining = self._paused_remaining
        self._paused_remaining = None
        if self.entries:
            duration = self._duration()
            if remaining is not None:
                # A sliver of time left would only flash the entry: give it a moment.
                duration = max(remaining, min(MIN_RESUME, duration))
            self.entry_started = now
            self.entry_ends = now + duration

    # -- config reload -------------------------------------------------------

    def rebuild(self, entries: list[Entry], now: float) -> list[str]:
        """Take a new rotation, keeping the current entry when it still exists."""
        events: list[str] = []
        current = self.entries[self.index] if self.entries else None
        old_keys = [e.key for e in self.entries]
        self.entries = list(entries)
        self._empty_streak = 0
        keys = [e.key for e in self.entries]
        if current is not None and current.key in keys:
            self.index = keys.index(current.key)
            if self._paused_remaining is not None:
                self._paused_remaining = min(self._paused_remaining, self._duration())
            else:
                self.entry_ends = self.entry_started + self._duration()
        else:
            # Continue with the first surviving entry after the old position.
            later = [k for k in old_keys[self.index + 1 :] if k in keys] if current else []
            self.index = keys.index(later[0]) if later else 0
            self.entry_started = now
            self.entry_ends = now + self._duration()
            self._paused_remaining = None
        od = self.on_demand
        if od is not None and od.mode not in self.modes_of(od.plugin_id):
            self._end_on_demand(now, IDLE)
            events.append("expired")
        return events

    def _goto(self, index: int, now: float) -> None:
        self.index = index % len(self.entries)
        self.entry_started = now
        self.entry_ends = now + self._duration()

    def _duration(self) -> float:
        return self.entries[self.index].duration if self.entries else 0.0

    def snapshot_on_demand(self) -> dict[str, Any]:
        """Return the on-demand block for the published state (times on this clock)."""
        od = self.on_demand
        return {
            "state": self.state,
            "plugin_id": od.plugin_id if od else None,
            "mode": od.mode if od else None,
            "request_id": od.request_id if od else self.last_request_id,
            "pinned": od.pinned if od else False,
            "started_at": od.started_at if od else None,
            "ends_at": od.ends_at if od else None,
            "error": self.error,
        }

