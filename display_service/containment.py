"""What keeps a plugin from taking the display process down, wired for one process.

- Every plugin call goes through ``shared.plugin_system.boundary``: exceptions of every
  kind (``sys.exit()``, ``KeyboardInterrupt`` too) end the call, not the daemon.
- ``os._exit()`` called inside a plugin call raises ``SystemExit`` there instead of
  ending the process (``guard_os_exit``); called from a thread a plugin started itself,
  it ends the process, but the trail names the plugin whose code called it first.
- The call trail (``call_trail.py``) remembers the calls in flight, so a process that
  dies anyway (a crash, a kill at the memory limit, systemd's watchdog) names them at
  the next start and they go to safe mode (``safe_mode.py``).
- The hang watch (``hang_watch.py``) finds a ``display()`` that never returns; the
  daemon then records the verdict and starts afresh in place (``restart``), without it.
"""

from __future__ import annotations

import logging
import os
import sys
from collections.abc import Callable
from pathlib import Path
from types import FrameType
from typing import Any, NoReturn

from display_service.call_trail import TRAIL_FILE, Call, CallTrail, read_leftover
from display_service.hang_watch import HangWatch
from shared import sd_notify
from shared.plugin_system import boundary

logger = logging.getLogger(__name__)

EXIT_PLUGIN_ENDED = 70  # a plugin's own thread ended the process (EX_SOFTWARE)

# Which plugin's code is on a stack (``plugin_output.OutputLog.owner``), if any.
Owner = Callable[[FrameType | None], "str | None"]


class Containment:
    """The call trail, the hang watch and the exit guard of one display process."""

    def __init__(self, cache_dir: Path, hang_seconds: float, owner: Owner | None = None
                 ) -> None:
        path = cache_dir / TRAIL_FILE
        self.leftover = read_leftover(path)
        self.trail = CallTrail(path)
        boundary.install(self.trail)
        guard_os_exit(self.trail, owner)
        self.watch = HangWatch(self.trail, self._hung, hang_seconds=hang_seconds,
                               notifier=sd_notify.from_env())
        self.watch.start()

    def attach(self, loop: Any) -> None:
        """Watch the render loop's sign of life too."""
        self.watch.loop = loop

    def close(self) -> None:
        """A clean stop: nobody is to blame at the next start."""
        self.watch.stop()
        boundary.install(None)
        self.trail.close()

    def _hung(self, call: Call, limit: float) -> None:
        reason = f"{call.where}() did not return within {limit:g} s"
        logger.error("%s: %s; starting the display daemon afresh without it (safe mode)",
                     call.plugin_id, reason)
        self.trail.convict(call.plugin_id, call.where, reason)
        restart()


def restart() -> NoReturn:
    """Start this daemon afresh in the same process (same pid, same arguments).

    Python cannot stop a thread stuck in a plugin, so the whole image is replaced:
    ``exec`` ends every thread, closes the close-on-exec descriptors (the daemon lock
    among them) and runs the same command line again. The service manager sees the same
    process carry on; a supervisor is not needed for the panel to come back.
    """
    for handler in logging.getLogger().handlers:
        handler.flush()
    for stream in (sys.stdout, sys.stderr, sys.__stdout__, sys.__stderr__):
        try:
            if stream is not None:
                stream.flush()
        except (OSError, ValueError):
            pass
    argv = list(sys.orig_argv) or [sys.executable]
    os.execv(sys.executable, argv)


_real_exit: Callable[[int], NoReturn] | None = None


def guard_os_exit(trail: CallTrail, owner: Owner | None = None) -> None:
    """Make ``os._exit`` inside a plugin call raise ``SystemExit`` (contained) instead.

    Outside a call (a thread the plugin started) the exit goes ahead, after the trail
    records the plugin whose code is on the stack (``owner``), so it goes to safe mode.
    """
    global _real_exit
    if _real_exit is not None:
        return
    _real_exit = real = os._exit

    def _exit(status: int) -> NoReturn:
        plugin_id = boundary.current_plugin()
        if plugin_id is not None:
            raise SystemExit(f"os._exit({status}) called inside a plugin call; refused")
        culprit = owner(sys._getframe(1)) if owner is not None else None
        if culprit is not None:
            trail.convict(culprit, "thread", f"called os._exit({status}) from a thread of "
                                             "its own, which ended the display daemon")
            status = EXIT_PLUGIN_ENDED  # not the plugin's status: 3 would stop restarts
        real(status)

    os._exit = _exit
