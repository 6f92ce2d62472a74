"""What keeps a plugin from taking the display process down, wired for one process.

- Every plugin call goes through ``shared.plugin_api.boundary``: exceptions of every
  kind (``sys.exit()``, ``KeyboardInterrupt`` too) end the call, not the daemon.
- ``os._exit()`` in plugin code (a plugin call, or a thread the plugin started) raises
  ``SystemExit`` there instead of ending the process, and a signal the plugin aims at
  the daemon itself raises ``PermissionError`` (``guard_exits``). An ``os._exit``
  that still happens outside plugin code never exits 0 (systemd must restart us), and
  the trail names the plugin whose code is on the stack, if any.
- The call trail (``call_trail.py``) remembers the calls in flight, so a process that
  dies anyway (a crash, a kill at the memory limit, systemd's watchdog) names them at
  the next start and they go to safe mode (``safe_mode.py``).
- The hang watch (``hang_watch.py``) finds a ``display()`` that never returns; the
  daemon then records the verdict and starts afresh in place (``restart``), without it
  (after root was dropped: exits for systemd to start it, ``privileges.EXIT_RESTART``).
"""

from __future__ import annotations

import _thread
import contextlib
import logging
import os
import signal
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from types import FrameType
from typing import Any, NoReturn

from display_service.plugins.call_trail import (
    TRAIL_FILE,
    Call,
    CallTrail,
    Leftover,
    read_leftover,
    trail_path,
)
from display_service.plugins.hang_watch import HangWatch
from display_service import privileges, sd_notify
from shared.paths import Paths
from shared.plugin_api import boundary

logger = logging.getLogger(__name__)

EXIT_PLUGIN_ENDED = 70  # a plugin's own thread ended the process (EX_SOFTWARE)

# Which plugin's code is on a stack (``plugin_output.OutputLog.owner``), if any.
Owner = Callable[[FrameType | None], "str | None"]


class Containment:
    """The call trail, the hang watch and the exit guard of one display process."""

    def __init__(self, paths: Paths, hang_seconds: float, owner: Owner | None = None
                 ) -> None:
        path = trail_path(paths)
        try:
            path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        except OSError as err:
            logger.warning("runtime folder %s unusable (%s); the call trail goes to the bus "
                           "folder", path.parent, err.strerror or err)
            path = paths.cache_dir / TRAIL_FILE
        self.leftover = read_leftover(path) or _earlier_leftover(paths.cache_dir / TRAIL_FILE)
        self.trail = CallTrail(path)
        boundary.install(self.trail)
        guard_exits(self.trail, owner)
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


def _earlier_leftover(path: Path) -> Leftover | None:
    """Read and remove the trail an earlier version kept in the bus folder."""
    leftover = read_leftover(path)
    with contextlib.suppress(OSError):
        path.unlink()
    return leftover


def restart() -> NoReturn:
    """Start this daemon afresh in the same process (same pid, same arguments).

    Python cannot stop a thread stuck in a plugin, so the whole image is replaced:
    ``exec`` ends every thread, closes the close-on-exec descriptors (the daemon lock
    among them) and runs the same command line again. The service manager sees the same
    process carry on; a supervisor is not needed for the panel to come back.

    After root was dropped (``display_service.privileges``) the new image could not
    open the panel: the process exits with ``EXIT_RESTART`` instead and the service
    manager starts it again as root (the unit's ``Restart=on-failure``).
    """
    user = privileges.dropped_to()
    if user is not None:
        logger.error("running as %s, the display daemon cannot open the panel again "
                     "itself: exiting (status %d) for the service manager to start it",
                     user, privileges.EXIT_RESTART)
    _flush_output()
    if user is not None:
        os._exit(privileges.EXIT_RESTART)
    argv = list(sys.orig_argv) or [sys.executable]
    os.execv(sys.executable, argv)


def _flush_output() -> None:
    for handler in logging.getLogger().handlers:
        handler.flush()
    for stream in (sys.stdout, sys.stderr, sys.__stdout__, sys.__stderr__):
        try:
            if stream is not None:
                stream.flush()
        except (OSError, ValueError):
            pass


_guarded = False


def guard_exits(trail: CallTrail, owner: Owner | None = None) -> None:
    """Keep plugin code from ending or stopping the process by the calls that bypass
    exceptions: ``os._exit``, a signal to itself (``os.kill``, ``os.killpg``,
    ``signal.raise_signal``, ``signal.pthread_kill``) and ``_thread.interrupt_main``.

    In plugin code (a plugin call, or a thread a plugin started: ``boundary``) they
    raise instead: ``SystemExit`` for ``os._exit`` (ending the call, or just that
    thread), ``PermissionError`` for the signals. Elsewhere ``os._exit`` goes ahead,
    after the trail records the plugin whose code is on the stack (``owner``), if any,
    and never with status 0 or 3: systemd must restart the daemon.
    """
    global _guarded
    if _guarded:
        return
    _guarded = True
    _guard_threads()
    real_exit = os._exit

    def _exit(status: int) -> NoReturn:
        plugin_id = boundary.current_plugin()
        if plugin_id is not None:
            logger.warning("%s: os._exit(%s) refused (plugin code may not end the daemon)",
                           plugin_id, status)
            raise SystemExit(f"os._exit({status}) called by plugin code; refused")
        culprit = owner(sys._getframe(1)) if owner is not None else None
        if culprit is not None:
            trail.convict(culprit, "thread", f"called os._exit({status}) from a thread of "
                                             "its own, which ended the display daemon")
        real_exit(EXIT_PLUGIN_ENDED if culprit is not None or status in (0, 3) else status)

    os._exit = _exit
    _refuse_in_plugins(os, "kill", lambda pid, *_: _own_process(pid))
    _refuse_in_plugins(os, "killpg", lambda group, *_: group in (0, os.getpgrp()))
    _refuse_in_plugins(signal, "raise_signal", lambda *_: True)
    _refuse_in_plugins(signal, "pthread_kill", lambda *_: True)
    _refuse_in_plugins(_thread, "interrupt_main", lambda *_: True)


def _own_process(pid: int) -> bool:
    return pid in (0, -1, os.getpid()) or pid == -os.getpgrp()


def _refuse_in_plugins(module: Any, name: str, aims_at_us: Callable[..., bool]) -> None:
    """Wrap ``module.name`` so plugin code cannot aim it at this process."""
    real = getattr(module, name)

    def guarded(*args: Any, **kwargs: Any) -> Any:
        plugin_id = boundary.current_plugin()
        if plugin_id is not None and aims_at_us(*args):
            raise PermissionError(f"{name}() at the display daemon itself called by plugin "
                                  f"{plugin_id}; refused")
        return real(*args, **kwargs)

    setattr(module, name, guarded)


def _guard_threads() -> None:
    """Threads a plugin starts carry its id (``boundary.STARTED_BY``): their code is its."""
    real_start = threading.Thread.start

    def start(self: threading.Thread) -> None:
        plugin_id = boundary.current_plugin()
        if plugin_id is not None:
            setattr(self, boundary.STARTED_BY, plugin_id)
        real_start(self)

    threading.Thread.start = start  # type: ignore[method-assign]
