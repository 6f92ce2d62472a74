"""The notification stack as pure logic: order, when each may show, expiry, what ended.

No threads, no I/O, no drawing. Times are seconds on the caller's monotonic clock
(``added_at`` is wall time, for the record only).

Order: priority (``critical``, ``high``, ``normal``, ``low``), then behavior (``now``,
``next``, ``queue``), then arrival. One notification shows at a time; the others wait.

When a waiting notification may show (it is *due*):

- ``now``: at once. It also takes the panel from a showing notification of a lower
  priority, which goes back to waiting and later shows again from its start.
- ``next`` and ``queue``: when the display mode shown when it arrived ends (the
  rotation moves on, an on-demand request starts or ends; at once when nothing is
  shown), or at once while notifications are already being shown (the stack drains
  before the rotation resumes). ``next`` and ``queue`` differ only in order: at equal
  priority every ``next`` notification shows before any ``queue`` one.

The power schedule: while it keeps the panel off, nothing shows, except a ``critical``
notification when ``critical_wakes_panel`` is set. The others wait, and show when the
panel comes back on; a notification that waited longer than ``max_wait`` seconds
expires (state ``expired``) without being shown. A showing notification that the
schedule switches off goes back to waiting.

At most ``MAX_WAITING`` wait: one more drops the last in the order (``dropped``,
"queue full"), which may be the newcomer. The last ``RECENT_KEPT`` finished are kept
for the record: ``shown``, ``dismissed``, ``expired`` or ``dropped``, with a reason.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Any

PRIORITY_RANK = {"critical": 0, "high": 1, "normal": 2, "low": 3}
BEHAVIOR_RANK = {"now": 0, "next": 1, "queue": 2}
MAX_WAITING = 50
RECENT_KEPT = 20
DEFAULT_MAX_WAIT = 600.0
WAITING, SHOWING = "waiting", "showing"
SHOWN, DISMISSED, EXPIRED, DROPPED = "shown", "dismissed", "expired", "dropped"


@dataclass
class Notification:
    """One notification: its checked fields and where it is in its life."""

    id: str
    fields: dict[str, Any]
    source: str
    added_at: float
    arrived: float
    seq: int = 0
    due: bool = False
    shown_at: float | None = None
    ends_at: float | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def priority(self) -> str:
        """Return the priority (``normal`` when the fields lack a known one)."""
        value = self.fields.get("priority")
        return value if value in PRIORITY_RANK else "normal"

    @property
    def behavior(self) -> str:
        """Return the behavior (``queue`` when the fields lack a known one)."""
        value = self.fields.get("behavior")
        return value if value in BEHAVIOR_RANK else "queue"

    def order(self) -> tuple[int, int, int]:
        """Return the sort key: priority, then behavior, then arrival."""
        return (PRIORITY_RANK[self.priority], BEHAVIOR_RANK[self.behavior], self.seq)


@dataclass(frozen=True)
class Finished:
    """A notification that left the stack, and why."""

    notification: Notification
    state: str
    reason: str


class NotificationQueue:
    """The waiting notifications, the one showing, and the recently finished."""

    def __init__(self, max_wait: float = DEFAULT_MAX_WAIT, max_waiting: int = MAX_WAITING,
                 ) -> None:
        self.max_wait = max_wait
        self.max_waiting = max_waiting
        self.waiting: list[Notification] = []
        self.showing: Notification | None = None
        self.recent: deque[dict[str, Any]] = deque(maxlen=RECENT_KEPT)
        self._seq = 0
        self._draining = False

    def ids(self) -> set[str]:
        """Return the ids of the notifications waiting or showing."""
        shown = {self.showing.id} if self.showing else set()
        return shown | {n.id for n in self.waiting}

    def add(self, notification: Notification) -> list[Finished]:
        """Put a notification in the stack; return any dropped to keep it bounded."""
        self._seq += 1
        notification.seq = self._seq
        notification.due = notification.due or notification.behavior == "now"
        self.waiting.append(notification)
        self.waiting.sort(key=Notification.order)
        dropped = []
        while len(self.waiting) > self.max_waiting:
            dropped.append(self._finish(self.waiting.pop(), DROPPED, "queue full"))
        return dropped

    def dismiss(self, notification_id: str, reason: str) -> Finished | None:
        """Remove a waiting or showing notification; None when there is none of that id."""
        if self.showing is not None and self.showing.id == notification_id:
            return self.end_showing(DISMISSED, reason)
        for notification in self.waiting:
            if notification.id == notification_id:
                self.waiting.remove(notification)
                return self._finish(notification, DISMISSED, reason)
        return None

    def slot_ended(self) -> None:
        """The display mode shown below ended: every waiting notification is due."""
        for notification in self.waiting:
            notification.due = True

    def expire(self, now: float) -> list[Finished]:
        """Remove the waiting notifications older than ``max_wait``; return them."""
        old = [n for n in self.waiting if now - n.arrived >= self.max_wait]
        for notification in old:
            self.waiting.remove(notification)
        return [self._finish(n, EXPIRED, f"not shown within {self.max_wait:g} s") for n in old]

    def next_expiry(self) -> float | None:
        """Return when the oldest waiting notification expires, if one waits."""
        return min((n.arrived + self.max_wait for n in self.waiting), default=None)

    def pick(self, now: float, power_on: bool, critical_wakes: bool) -> bool:
        """Decide what shows now (module docstring); return True if that changed."""
        current = self.showing
        if current is not None and not _may_show(current, power_on, critical_wakes):
            self._back_to_waiting(current)
        elif current is not None:
            challenger = self._eligible(power_on, critical_wakes, now_only=True)
            if challenger is None or challenger.order()[0] >= current.order()[0]:
                return False
            self._back_to_waiting(current)
        chosen = self._eligible(power_on, critical_wakes, now_only=False)
        if chosen is None:
            self._draining = False
            return current is not None
        self.waiting.remove(chosen)
        chosen.shown_at, chosen.ends_at = now, now + float(chosen.fields.get("duration") or 0)
        self.showing = chosen
        return chosen is not current

    def end_showing(self, state: str, reason: str) -> Finished | None:
        """End the showing notification (shown to its end, or dismissed)."""
        current, self.showing = self.showing, None
        if current is None:
            return None
        self._draining = True
        return self._finish(current, state, reason)

    def _eligible(self, power_on: bool, critical_wakes: bool,
                  now_only: bool) -> Notification | None:
        for notification in self.waiting:  # in order
            ready = notification.behavior == "now" if now_only else (
                self._draining or notification.due)
            if ready and _may_show(notification, power_on, critical_wakes):
                return notification
        return None

    def _back_to_waiting(self, notification: Notification) -> None:
        self.showing = None
        notification.shown_at = notification.ends_at = None
        notification.due = True
        self.waiting.append(notification)
        self.waiting.sort(key=Notification.order)

    def _finish(self, notification: Notification, state: str, reason: str) -> Finished:
        self.recent.append({"id": notification.id, "state": state, "reason": reason,
                            "source": notification.source,
                            "text": notification.fields.get("text")})
        return Finished(notification, state, reason)


def _may_show(notification: Notification, power_on: bool, critical_wakes: bool) -> bool:
    return power_on or (critical_wakes and notification.priority == "critical")
