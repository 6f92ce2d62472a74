"""Failed password attempts, counted per client address and in total, in memory.

Per address: a client with ``per_client`` failures inside ``window`` seconds is refused
(429) until the oldest of them leaves the window, whether its next password is right
or not, so one address guesses at most a few times per window. Refused attempts are
not counted, so a client cannot renew its own wait by hammering, and never anyone
else's.

In total: once ``total`` failures from all addresses fall inside the window (many
addresses guessing together), the ceiling slows, it never locks: an address that
failed in the window must then wait ``slow`` seconds after its own last failure before
it tries again, while an address with no failure in the window (the owner, typing the
right password on another device) is let on at once. Guessing from many addresses is
thus held to one try per address per ``slow`` seconds, and nobody else is shut out.

Counts live in this process only: a restart of the web service forgets them. Memory is
bounded: at most ``max_clients`` addresses are remembered.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable

PER_CLIENT = 5
TOTAL = 50
WINDOW = 300.0
SLOW = 60.0
MAX_CLIENTS = 1024


class Throttle:
    """Count failures and say how long a client must wait before trying again."""

    def __init__(self, *, per_client: int = PER_CLIENT, total: int = TOTAL,
                 window: float = WINDOW, slow: float = SLOW, max_clients: int = MAX_CLIENTS,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.per_client, self.total, self.window = per_client, total, window
        self.slow, self.max_clients, self.clock = slow, max_clients, clock
        self._lock = threading.Lock()
        self._clients: OrderedDict[str, deque[float]] = OrderedDict()
        self._all: deque[float] = deque()

    def wait_seconds(self, client: str) -> float:
        """Return how long ``client`` must wait before its next attempt (0: go ahead)."""
        with self._lock:
            now = self.clock()
            self._forget_before(now - self.window)
            mine = self._clients.get(client)
            if not mine:  # no failure from here in the window: never held up by others
                return 0.0
            waits = [0.0]
            if len(mine) >= self.per_client:
                waits.append(mine[-self.per_client] + self.window - now)
            if len(self._all) >= self.total:
                waits.append(mine[-1] + self.slow - now)
            return max(waits)

    def failed(self, client: str) -> None:
        """Record one failed attempt by ``client``."""
        with self._lock:
            now = self.clock()
            mine = self._clients.pop(client, None) or deque(maxlen=self.per_client)
            mine.append(now)
            self._clients[client] = mine  # most recent last
            while len(self._clients) > self.max_clients:
                self._clients.popitem(last=False)
            self._all.append(now)
            while len(self._all) > self.total:
                self._all.popleft()

    def _forget_before(self, start: float) -> None:
        while self._all and self._all[0] <= start:
            self._all.popleft()
        for client in [c for c, times in self._clients.items() if times[-1] <= start]:
            del self._clients[client]
        for times in self._clients.values():
            while times and times[0] <= start:
                times.popleft()
