"""Failed password attempts, counted per client address and in total, in memory.

A client with ``per_client`` failures inside ``window`` seconds is refused (429) until
the oldest of them leaves the window, whether its next password is right or not, so
guessing is capped at a few tries per window; ``total`` caps guessing from many
addresses at once. Counts live in this process only: a restart of the web service
forgets them. Memory is bounded: at most ``max_clients`` addresses are remembered.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable

PER_CLIENT = 5
TOTAL = 50
WINDOW = 300.0
MAX_CLIENTS = 1024


class Throttle:
    """Count failures and say how long a client must wait before trying again."""

    def __init__(self, *, per_client: int = PER_CLIENT, total: int = TOTAL,
                 window: float = WINDOW, max_clients: int = MAX_CLIENTS,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.per_client, self.total, self.window = per_client, total, window
        self.max_clients, self.clock = max_clients, clock
        self._lock = threading.Lock()
        self._clients: OrderedDict[str, deque[float]] = OrderedDict()
        self._all: deque[float] = deque()

    def wait_seconds(self, client: str) -> float:
        """Return how long ``client`` must wait before its next attempt (0: go ahead)."""
        with self._lock:
            now = self.clock()
            self._forget_before(now - self.window)
            waits = [0.0]
            mine = self._clients.get(client)
            if mine is not None and len(mine) >= self.per_client:
                waits.append(mine[-self.per_client] + self.window - now)
            if len(self._all) >= self.total:
                waits.append(self._all[-self.total] + self.window - now)
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
