"""The hang watch: a plugin call that never returns must not freeze the panel for good.

The render thread calls every ``display()``; one that never returns freezes the panel,
and Python cannot stop a thread. A watcher thread looks at the call trail twice a
second: when the render thread has been inside one plugin call for longer than its
limit (``hang_seconds`` for drawing calls, ``LOAD_SECONDS`` for loading and lifecycle
hooks), ``on_hang`` runs, which puts the plugin in safe mode and starts the daemon
afresh (``daemon.restart_after_hang``).

The same thread is the service manager's keep-alive: it sends ``WATCHDOG=1`` while the
render loop shows signs of life (``loop.beat``). When the whole interpreter is stuck
(a C extension spinning with the GIL held, so this thread cannot run either), the
keep-alives stop and systemd's ``WatchdogSec=`` kills and restarts the daemon; the call
trail then names the plugin at the next start.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any

from display_service.plugins.call_trail import Call, CallTrail
from display_service.sd_notify import Notifier

logger = logging.getLogger(__name__)

DEFAULT_HANG_SECONDS = 8.0
LOAD_SECONDS = 60.0  # importing a plugin (and what it imports) may be slow on a Pi
SLOW_HOOKS = frozenset({"load", "on_config_change", "on_enable", "on_disable", "cleanup"})
CHECK_EVERY = 0.5
LOOP_STALL = 60.0  # the render loop silent this long outside plugin calls: not alive

OnHang = Callable[[Call, float], None]


class HangWatch:
    """Watch the render thread's plugin calls; keep the service manager's watchdog fed."""

    def __init__(self, trail: CallTrail, on_hang: OnHang, *, hang_seconds: float,
                 notifier: Notifier | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.trail = trail
        self.on_hang = on_hang
        self.hang_seconds = hang_seconds
        self.notifier = notifier
        self.clock = clock
        self.render_thread = threading.get_ident()  # built on the thread that renders
        self.loop: Any = None  # the render loop, once built: its ``beat``
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="hang-watch", daemon=True)
        self._last_keepalive = float("-inf")
        self._stalled = False

    def limit(self, where: str) -> float:
        """Return how long a call of ``where`` may run on the render thread."""
        return max(LOAD_SECONDS, self.hang_seconds) if where in SLOW_HOOKS else self.hang_seconds

    def start(self) -> None:
        """Start watching."""
        self._thread.start()

    def stop(self) -> None:
        """Stop watching (a clean shutdown)."""
        self._stop.set()

    def _run(self) -> None:
        while not self._stop.wait(CHECK_EVERY):
            try:
                self.check()
            except Exception:  # the watch must outlive any surprise of its own
                logger.exception("hang watch: check failed")

    def check(self) -> None:
        """Act on a hung call; otherwise send a keep-alive when one is due."""
        now = self.clock()
        call = self.trail.running_on(self.render_thread)
        if call is not None and now - call.started > self.limit(call.where):
            self.on_hang(call, self.limit(call.where))
            return
        if self.notifier is None or self.notifier.watchdog_seconds is None:
            return
        beat = getattr(self.loop, "beat", None)
        if call is None and beat is not None and now - beat > LOOP_STALL:
            if not self._stalled:
                logger.error("render loop silent for %.0f s; keep-alives stopped", now - beat)
            self._stalled = True
            return
        self._stalled = False
        if now - self._last_keepalive >= self.notifier.watchdog_seconds / 3:
            self.notifier.send("WATCHDOG=1")
            self._last_keepalive = now
