"""A follower's view of the leaders of its group: which one to follow, and what it shows.

Pure: messages and times in, answers out (times on the loop's monotonic clock). A
leader is alive from its last ``online`` status until ``LOST_AFTER_BEATS`` of its
heartbeats are missing, or until it says ``offline`` (its last will included). With
``sync.leader`` set only that leader is followed; empty, the leader followed stays
while it is alive, else the first alive one by name.
"""

from __future__ import annotations

from dataclasses import dataclass

from display_service.sync.messages import Status, Switch

LOST_AFTER_BEATS = 3.0


@dataclass
class Seen:
    """What a follower knows of one leader."""

    online: bool = False
    heartbeat: float = 1.0
    seen: float = float("-inf")  # when its last online status came
    switch: Switch | None = None

    def alive(self, now: float) -> bool:
        return self.online and now - self.seen <= LOST_AFTER_BEATS * self.heartbeat

    def lost_at(self) -> float:
        return self.seen + LOST_AFTER_BEATS * self.heartbeat


class Follower:
    """The leaders seen, and the one followed now."""

    def __init__(self, wanted: str) -> None:
        self.wanted = wanted  # "" for any leader of the group
        self.leaders: dict[str, Seen] = {}
        self.current: str | None = None  # the leader followed (or last followed)
        self.had_leader = False

    def take(self, message: Switch | Status, now: float) -> None:
        """Note one message received at ``now``."""
        if self.wanted and message.leader != self.wanted:
            return
        seen = self.leaders.setdefault(message.leader, Seen())
        if isinstance(message, Switch):
            seen.switch = message
            return
        seen.online = message.online
        if message.online:
            seen.heartbeat, seen.seen = message.heartbeat, now

    def choose(self, now: float) -> str | None:
        """Return the leader to follow now, or None when none is alive."""
        current = self.leaders.get(self.current or "")
        if current is None or not current.alive(now):
            alive = sorted(n for n, s in self.leaders.items() if s.alive(now))
            if not alive:
                return None
            self.current = alive[0]
            self.had_leader = True
        return self.current

    def switch(self, leader: str) -> Switch | None:
        """Return the leader's latest switch, if one came."""
        seen = self.leaders.get(leader)
        return seen.switch if seen else None

    def next_due(self, now: float) -> float | None:
        """Return when the leader followed would count as lost, if it is alive now."""
        seen = self.leaders.get(self.current or "")
        return seen.lost_at() if seen is not None and seen.alive(now) else None
