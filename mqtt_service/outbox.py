"""What the bridge publishes, kept while the broker is away, and bounded.

Retained state topics coalesce: only the newest payload per topic is kept, and every
kept one is published again on each connect (a broker restarted without persistence
has forgotten them). Messages that are not retained (errors) wait in a queue of at most
``MAX_PENDING``; past that the oldest are dropped and counted. Nothing here touches the
network: the link hands ``drain()`` to the client once it is connected.
"""

from __future__ import annotations

import threading
from collections import deque
from dataclasses import dataclass

MAX_PENDING = 50
MAX_RETAINED = 1000  # topics; the bridge's own are a handful, discovery adds a few dozen


@dataclass(frozen=True)
class Message:
    """One message to publish."""

    topic: str
    payload: bytes
    retain: bool
    qos: int = 1


class Outbox:
    """The newest retained payload per topic, and a bounded queue of the others."""

    def __init__(self, max_pending: int = MAX_PENDING,
                 max_retained: int = MAX_RETAINED) -> None:
        self._lock = threading.Lock()
        self._retained: dict[str, Message] = {}
        self._pending: deque[Message] = deque()
        self.max_pending = max_pending
        self.max_retained = max_retained
        self.dropped = 0

    def keep(self, message: Message) -> bool:
        """Remember ``message``; return False when it was dropped for want of room."""
        with self._lock:
            if message.retain:
                if message.topic in self._retained or len(self._retained) < self.max_retained:
                    self._retained[message.topic] = message
                    return True
                self.dropped += 1
                return False
            if len(self._pending) >= self.max_pending:
                self._pending.popleft()
                self.dropped += 1
            self._pending.append(message)
            return True

    def forget(self, topic: str) -> None:
        """Stop republishing ``topic`` (its retained message was cleared)."""
        with self._lock:
            self._retained.pop(topic, None)

    def drain(self) -> list[Message]:
        """Return every retained message and the waiting others (which are emptied)."""
        with self._lock:
            waiting = list(self._pending)
            self._pending.clear()
            return [*self._retained.values(), *waiting]

    def retained(self, topic: str) -> bytes | None:
        """Return the payload kept for ``topic``, None when there is none."""
        with self._lock:
            message = self._retained.get(topic)
            return message.payload if message else None

    def pending_count(self) -> int:
        with self._lock:
            return len(self._pending)
