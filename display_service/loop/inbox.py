"""What changed since the render thread last looked: the only thing watchers touch.

Watcher threads (bus keys, config files) call ``notify(key)``, which records the key
and wakes the loop; the render thread takes each key with ``take`` and acts on it. The
daemon creates the inbox and starts its watchers before it reads anything, so a change
made while it starts up waits here for the loop's first turn.
"""

from __future__ import annotations

import threading


class Inbox:
    """Keys changed by other threads, and the event that wakes the render loop."""

    def __init__(self) -> None:
        self.wake = threading.Event()
        self._changed: set[str] = set()

    def notify(self, key: str) -> None:
        """Note that ``key`` changed and wake the loop (safe from any thread)."""
        self._changed.add(key)  # set.add is atomic
        self.wake.set()

    def take(self, key: str) -> bool:
        """Return whether ``key`` changed since the last take, and forget it."""
        present = key in self._changed
        if present:  # discard only what was seen, or a change arriving now could be lost
            self._changed.discard(key)
        return present
