"""The counting behind the limits: Flask-Limiter, imported on the first limited request.

Importing Flask-Limiter (and its ``limits`` library) takes about 35 ms on a desktop
and several times that on a Pi-class board, so the web's start does not pay it: the
first request that a limit applies to does. Its hooks cannot be added to the web's app
then (Flask refuses new hooks once a request was served), so the limiter is set up on a
private app of its own and asked through its public decorator from the web's own check
(``gate``), which also decides who is exempt and how a refusal looks.

One moving window per client address and group, in this process's memory: the web is
one process, and a restart forgets the counts (no file on the SD card to wear).
"""

from __future__ import annotations

import math
import os
import threading
import time
from collections.abc import Callable, Mapping

from flask import Flask

# The window the per-minute numbers count over; tests shorten it with the environment
# (``LEDPANEL_RATE_LIMIT_WINDOW``, seconds, 1 to 3600), the config cannot.
WINDOW_ENV = "LEDPANEL_RATE_LIMIT_WINDOW"
DEFAULT_WINDOW = 60


def window_seconds() -> int:
    """Return the window in seconds: the environment's whole number taken into 1-3600
    (as the streams' variables are), else the default."""
    try:
        seconds = int(os.environ.get(WINDOW_ENV, ""))
    except ValueError:
        return DEFAULT_WINDOW
    return min(max(seconds, 1), 3600)


class Counter:
    """Counts requests per group and key with Flask-Limiter's moving window."""

    def __init__(self, key: Callable[[], str], per_minute: Callable[[], Mapping[str, int]],
                 groups: list[str]) -> None:
        from flask_limiter import Limiter  # deferred: see the module docstring

        self.window = window_seconds()
        self._limiter = Limiter(key, storage_uri="memory://", strategy="moving-window",
                                headers_enabled=False)
        self._limiter.init_app(Flask(f"{__name__}.limits"))
        self._checks = {group: self._check_for(group, per_minute) for group in groups}

    def _check_for(self, group: str,
                   per_minute: Callable[[], Mapping[str, int]]) -> Callable[[], None]:
        def check() -> None:
            return None

        # Flask-Limiter keeps decorated limits by the function's qualified name.
        check.__qualname__ = f"Counter.check.{group}"
        shared = self._limiter.shared_limit(
            lambda: f"{per_minute()[group]} per {self.window} second", scope=f"ledpanel-{group}")
        return shared(check)

    def hit(self, group: str) -> int | None:
        """Count the current request in ``group``; return seconds to wait when over."""
        from flask_limiter import RateLimitExceeded

        try:
            self._checks[group]()
        except RateLimitExceeded:
            found = self._limiter.current_limit
            reset_at = found.reset_at if found is not None else time.time() + self.window
            return max(1, math.ceil(reset_at - time.time()))
        return None


_LOCK = threading.Lock()


def built_once(holder: dict[str, Counter], make: Callable[[], Counter]) -> Counter:
    """Return ``holder``'s counter, made by ``make`` the first time (one per app)."""
    counter = holder.get("counter")
    if counter is None:
        with _LOCK:
            counter = holder.get("counter")
            if counter is None:
                counter = holder["counter"] = make()
    return counter
