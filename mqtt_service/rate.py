"""A bound on how fast commands are taken, so a broker that floods the bridge cannot
flood the display's bus or the config file (each brightness is a save with a backup).

A token bucket: ``BURST`` commands at once, then ``PER_SECOND`` a second. A command
over the bound is refused like a bad payload (answered on ``<base>/error``,
acknowledged: it was handled).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

PER_SECOND = 10.0
BURST = 30


class RateLimit:
    """Tokens refilled over time; ``take`` spends one when there is one."""

    def __init__(self, per_second: float = PER_SECOND, burst: int = BURST,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.per_second = per_second
        self.burst = burst
        self.clock = clock
        self._tokens = float(burst)
        self._at = clock()
        self._lock = threading.Lock()

    def take(self) -> bool:
        """Spend a token; return False when none is left."""
        with self._lock:
            now = self.clock()
            self._tokens = min(self.burst, self._tokens + (now - self._at) * self.per_second)
            self._at = now
            if self._tokens < 1:
                return False
            self._tokens -= 1
            return True
