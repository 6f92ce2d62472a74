"""What to show now: rotation, live priority and on-demand, as a pure state machine.

No threads, no I/O. Times are seconds on the caller's monotonic clock. Entries and
how they are built are in ``rotation.py``.

Priority: on-demand > sync > live priority > rotation. The layer below the one shown
is paused, not advanced.

- **Rotation**: each entry is shown for its duration, then the next (wrapping). A
  dynamic-duration entry ends on ``cycle_complete()``, at the latest after its cap,
  never sooner than ``MIN_DYNAMIC_SLOT`` after it began (a plugin saying "complete" at
  once keeps the slot that long, so such plugins cannot make the rotation spin).
- **Live priority** (``set_live``): while plugins report live content, their live
  modes are shown in rotation order instead; then the rotation resumes.
- **Sync** (``follow``): a follower panel shows the rotation entry its leader shows,
  until the next ``follow`` or ``unfollow`` (``display_service/sync/``); its own
  rotation and live content wait underneath.
- **On-demand**: one plugin mode, for ``duration`` seconds unless pinned (default: the
  entry's rotation duration). Afterwards live content comes back, else the rotation.

Resuming: the interrupted rotation entry comes back with the time it had left (at least
``MIN_RESUME`` seconds, so it is not just a flash). Live entries start afresh.

No content (``display()`` returned False): the shown list moves to its next entry at
once; after a whole round with nothing to show the caller waits ``NO_CONTENT_BACKOFF``.

``starts`` counts rotation and live slots that began afresh once shown (a resumed
entry does not count again), so the caller knows when ``reset_cycle_state()`` is due.

Holding (``hold``/``release``): a notification shown above every layer freezes the
controller. While held nothing expires or advances; on release the rotation or live
entry and the on-demand request continue with the time they had left (the rotation
entry at least ``MIN_RESUME`` seconds), as the rotation does after an on-demand request.

On-demand states and the request record: ``on_demand_record.py``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

from display_service.control.on_demand_record import (
    ACTIVE,
    ERROR,
    IDLE,
    STOPPED,
    OnDemand,
    request_problem,
    snapshot,
)
from display_service.control.rotation import (
    DEFAULT_DURATION,
    Cursor,
    Entry,
    build_entries,
    live_entries,
)

__all__ = ["ACTIVE", "DEFAULT_DURATION", "ERROR", "IDLE", "STOPPED", "Controller", "Entry",
           "OnDemand", "build_entries"]

NO_CONTENT_BACKOFF = 1.0
MIN_RESUME = 3.0
MIN_DYNAMIC_SLOT = 1.0

ROTATION, LIVE, ON_DEMAND, SYNC = "rotation", "live", "on_demand", "sync"


class Controller:
    """Which plugin mode to show now; what to do on requests, expiry and empty content."""

    def __init__(self, entries: list[Entry], now: float) -> None:
        self.rotation = Cursor(entries, now)
        self.live = Cursor([], now)
        self.live_modes: dict[str, list[str]] = {}  # live plugin id -> requested modes
        self.on_demand: OnDemand | None = None
        self.followed: Entry | None = None  # a follower panel: the leader's entry
        self.state = IDLE
        self.error: str | None = None
        self.last_request_id: str | None = None
        self.starts = 0
        self._paused_remaining: float | None = None
        self.held_at: float | None = None  # held by a notification since then
        self._count_start()

    # -- queries -------------------------------------------------------------

    @property
    def entries(self) -> list[Entry]:
        """The rotation's entries."""
        return self.rotation.entries

    def layer(self) -> str:
        """Return what is shown: ``on_demand``, ``sync``, ``live`` or ``rotation``."""
        if self.on_demand is not None:
            return ON_DEMAND
        if self.followed is not None:
            return SYNC
        return LIVE if self.live.entries else ROTATION

    def current(self, now: float) -> Entry | None:
        """Return the entry to render now (the on-demand one while active)."""
        od = self.on_demand
        if od is not None:
            return Entry(od.plugin_id, od.mode, od.ends_at - od.started_at if od.ends_at else 0.0)
        if self.followed is not None:
            return self.followed
        return self._shown().current()

    def next_deadline(self) -> float | None:
        """Return when the shown entry or on-demand ends by itself, if it does."""
        if self.held_at is not None:
            return None
        if self.on_demand is not None:
            return self.on_demand.ends_at
        if self.followed is not None:
            return None  # the leader says when
        cursor = self._shown()
        return cursor.ends if cursor.entries else None

    def modes_of(self, plugin_id: str) -> list[str]:
        """Return the modes of a plugin in the rotation, in order."""
        return [e.mode for e in self.rotation.entries if e.plugin_id == plugin_id]

    def _shown(self) -> Cursor:
        return self.live if self.live.entries else self.rotation

    def _own_rotation(self) -> bool:
        """Return whether the rotation or live list is shown (no on-demand, no leader)."""
        return self.on_demand is None and self.followed is None

    # -- time ----------------------------------------------------------------

    def tick(self, now: float) -> list[str]:
        """Apply expiries due at ``now``; return what happened (``expired``, ``advanced``)."""
        events: list[str] = []
        if self.held_at is not None:
            return events
        od = self.on_demand
        if od is not None and od.ends_at is not None and now >= od.ends_at:
            self._end_on_demand(now, IDLE)
            events.append("expired")
        cursor = self._shown()
        if self._own_rotation() and cursor.entries and now >= cursor.ends:
            self._start(cursor, cursor.index + 1, now)
            events.append("advanced")
        return events

    def cycle_complete(self, now: float) -> bool:
        """The shown plugin finished its cycle: end a dynamic entry; return True if it ended.

        Before ``MIN_DYNAMIC_SLOT`` in the slot, the slot is set to end then instead.
        """
        cursor = self._shown()
        entry = cursor.current()
        if (not self._own_rotation() or entry is None or not entry.dynamic
                or self.held_at is not None):
            return False
        if now < cursor.started + MIN_DYNAMIC_SLOT:
            cursor.ends = min(cursor.ends, cursor.started + MIN_DYNAMIC_SLOT)
            return False
        self._start(cursor, cursor.index + 1, now)
        return True

    def skip(self, now: float) -> bool:
        """End the shown rotation or live entry now and start the next (a request).

        Returns False while an on-demand request is in front or nothing is listed.
        """
        cursor = self._shown()
        if self.on_demand is not None or not cursor.entries:
            return False
        cursor.empty_streak = 0
        self._start(cursor, cursor.index + 1, now)
        return True

    def no_content(self, now: float) -> float:
        """The shown entry had nothing to show; return seconds to wait before rendering."""
        cursor = self._shown()
        if not self._own_rotation() or not cursor.entries:
            return NO_CONTENT_BACKOFF
        cursor.empty_streak += 1
        if cursor.empty_streak >= len(cursor.entries):
            cursor.empty_streak = 0
            self._start(cursor, cursor.index + 1, now + NO_CONTENT_BACKOFF)
            return NO_CONTENT_BACKOFF
        self._start(cursor, cursor.index + 1, now)
        return 0.0

    def had_content(self) -> None:
        """The shown entry drew something: the empty-rotation count starts over."""
        self._shown().empty_streak = 0

    def _start(self, cursor: Cursor, index: int, now: float) -> None:
        if not cursor.entries:
            return
        cursor.goto(index, now)
        cursor.fresh = True
        self._count_start()

    def _count_start(self) -> None:
        """Count a fresh start of the shown list's entry (once it is actually shown)."""
        cursor = self._shown()
        if self._own_rotation() and cursor.fresh:
            cursor.fresh = False
            self.starts += 1

    # -- live priority -------------------------------------------------------

    def set_live(self, live: Mapping[str, Sequence[str]], now: float) -> list[str]:
        """Take the plugins with live content now (id -> live modes, empty: all modes).

        Returns ``live_started``, ``live_ended`` or ``live_changed`` when the live set
        changed what would be shown.
        """
        self.live_modes = {p: list(m) for p, m in live.items() if self.modes_of(p)}
        entries = live_entries(self.rotation.entries, self.live_modes)
        if [e.key for e in entries] == self.live.keys():
            return []
        was_rotation = self.layer() == ROTATION
        current = self.live.current()
        had_live = bool(self.live.entries)
        self.live.entries = entries
        self.live.empty_streak = 0
        if not entries:
            self.live.index = 0
            self._resume_rotation(now, was_rotation)
            return ["live_ended"]
        keys = self.live.keys()
        if current is not None and current.key in keys:
            self.live.index = keys.index(current.key)  # keeps its start and end
        else:
            self._start(self.live, 0, now)
        self._pause_rotation(now, was_rotation)
        return ["live_changed" if had_live else "live_started"]

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
        problem = request_problem(plugin_id, mode, duration, modes)
        if problem is not None:
            self.refuse(request_id, problem, now)
            return problem
        chosen = mode or modes[0]
        if duration is None:
            duration = next(e.duration for e in self.entries if e.key == (plugin_id, chosen))
        was_rotation = self.layer() == ROTATION
        self.on_demand = OnDemand(
            plugin_id, chosen, bool(pinned), request_id, now, None if pinned else now + duration
        )
        self._pause_rotation(now, was_rotation)
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
        if self.followed is not None:
            return  # the leader's entry comes back; the rotation stays paused
        if self.live.entries:
            self._start(self.live, self.live.index, now)
        else:
            self._resume_rotation(now, False)

    # -- sync: a follower shows its leader's entry -----------------------------

    def follow(self, plugin_id: str, mode: str, now: float) -> bool:
        """Show the rotation entry ``plugin_id``/``mode`` from now, as a new slot.

        Returns False (and stops following) when the rotation has no such entry.
        """
        entry = next((e for e in self.rotation.entries if e.key == (plugin_id, mode)), None)
        if entry is None:
            self.unfollow(now)
            return False
        was_rotation = self.layer() == ROTATION
        self.followed = entry
        self.starts += 1  # a new slot: drawn afresh even when the entry is the same
        self._pause_rotation(now, was_rotation)
        return True

    def unfollow(self, now: float) -> None:
        """Stop showing the leader's entry: live content or the rotation resumes."""
        if self.followed is None:
            return
        self.followed = None
        if self.on_demand is not None:
            return
        if self.live.entries:
            self._start(self.live, self.live.index, now)
        else:
            self._resume_rotation(now, False)

    # -- pausing the rotation ------------------------------------------------

    def _pause_rotation(self, now: float, was_shown: bool) -> None:
        if was_shown and self.layer() != ROTATION:
            self._paused_remaining = max(0.0, self.rotation.ends - now)

    def _resume_rotation(self, now: float, was_shown: bool) -> None:
        if was_shown or self.layer() != ROTATION:
            return
        remaining, self._paused_remaining = self._paused_remaining, None
        if self.rotation.entries:
            limit = self.rotation.limit()
            if remaining is not None:
                # A sliver of time left would only flash the entry: give it a moment.
                limit = max(remaining, min(MIN_RESUME, limit))
            self.rotation.started = now
            self.rotation.ends = now + limit
        self._count_start()  # an entry started while hidden has not begun its cycle yet

    # -- held under a notification ------------------------------------------

    def hold(self, now: float) -> None:
        """Freeze every layer's time (a notification is shown above them)."""
        if self.held_at is None:
            self.held_at = now

    def release(self, now: float) -> None:
        """Continue every layer with the time it had left when held."""
        held_at, self.held_at = self.held_at, None
        if held_at is None:
            return
        for cursor in (self.rotation, self.live):
            if not cursor.entries:
                continue
            paused = now - max(held_at, cursor.started)
            cursor.started += paused
            cursor.ends += paused
            if cursor is self.rotation and self.layer() == ROTATION:
                cursor.ends = max(cursor.ends, now + min(MIN_RESUME, cursor.limit()))
        od = self.on_demand
        if od is not None and od.ends_at is not None:
            paused = now - max(held_at, od.started_at)
            self.on_demand = dataclasses.replace(od, ends_at=od.ends_at + paused)

    # -- config reload -------------------------------------------------------

    def rebuild(self, entries: list[Entry], now: float) -> list[str]:
        """Take a new rotation, keeping the current entry when it still exists."""
        events: list[str] = []
        rotation = self.rotation
        current = rotation.current()
        old_keys = rotation.keys()
        rotation.entries = list(entries)
        rotation.empty_streak = 0
        keys = rotation.keys()
        if current is not None and current.key in keys:
            rotation.index = keys.index(current.key)
            if self._paused_remaining is not None:
                self._paused_remaining = min(self._paused_remaining, rotation.limit())
            else:
                rotation.ends = rotation.started + rotation.limit()
        else:
            # Continue with the first surviving entry after the old position.
            later = [k for k in old_keys[rotation.index + 1 :] if k in keys] if current else []
            self._start(rotation, keys.index(later[0]) if later else 0, now)
            if self._paused_remaining is not None:
                self._paused_remaining = rotation.limit()
        if self.followed is not None:
            self.followed = next((e for e in entries if e.key == self.followed.key), None)
            if self.followed is None:
                self._resume_rotation(now, False)
        od = self.on_demand
        if od is not None and od.mode not in self.modes_of(od.plugin_id):
            self._end_on_demand(now, IDLE)
            events.append("expired")
        events += self.set_live(self.live_modes, now)
        return events

    def snapshot_on_demand(self) -> dict[str, Any]:
        """Return the on-demand block for the published state (times on this clock)."""
        return snapshot(self.on_demand, self.state, self.last_request_id, self.error)
