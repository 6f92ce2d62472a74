"""The plugin call boundary: what every call into plugin code goes through.

``with plugin_call(plugin_id, "display"):`` marks the current thread as running that
plugin's hook for as long as the block runs. The mark serves three things:

- The process-wide ``CallTracker`` (the display daemon installs one: ``call_trail``)
  learns of every call, so a process that dies inside one (``os._exit``, a kill by the
  memory limit or the watchdog) can name the plugin at the next start.
- ``current_plugin()`` says whose code is running, so what a plugin prints is logged
  under its id.
- ``CONTAINED`` lists what the caller's ``except`` catches: every exception a plugin
  can raise, ``SystemExit`` and ``KeyboardInterrupt`` included. A plugin calling
  ``sys.exit()`` ends its own call, not the daemon. (The daemons turn SIGINT into a
  stop request, so a ``KeyboardInterrupt`` never comes from the terminal here.)

Without an installed tracker (the web daemon, unit tests) the mark costs one
thread-local assignment.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Protocol

# What the boundary catches: everything but GeneratorExit, which only a generator's own
# close() raises inside that generator.
CONTAINED: tuple[type[BaseException], ...] = (Exception, SystemExit, KeyboardInterrupt)


class CallTracker(Protocol):
    """Told of every plugin call: ``enter`` before it, ``leave(token)`` after it."""

    def enter(self, plugin_id: str, where: str) -> object: ...

    def leave(self, token: object) -> None: ...


class _Untracked:
    def enter(self, plugin_id: str, where: str) -> object:
        return None

    def leave(self, token: object) -> None:
        return None


# The attribute the display sets on a thread a plugin started: that plugin's id.
STARTED_BY = "_ledpanel_started_by"

_tracker: CallTracker = _Untracked()
_local = threading.local()


def install(tracker: CallTracker | None) -> None:
    """Make ``tracker`` the process's call tracker (None: track nothing)."""
    global _tracker
    _tracker = tracker if tracker is not None else _Untracked()


@contextmanager
def plugin_call(plugin_id: str, where: str) -> Iterator[None]:
    """Mark the block as plugin ``plugin_id`` running its ``where`` hook; re-raise errors."""
    outer = getattr(_local, "plugin", None)
    _local.plugin = plugin_id
    token = _tracker.enter(plugin_id, where)
    try:
        yield
    finally:
        _tracker.leave(token)
        _local.plugin = outer


def current_plugin() -> str | None:
    """Return the id of the plugin whose code this thread is running, if any.

    Inside a plugin call that is the call's plugin; on a thread a plugin started (when
    the display marks them, ``STARTED_BY``), the plugin that started it.
    """
    plugin = getattr(_local, "plugin", None)
    if plugin is None:
        plugin = getattr(threading.current_thread(), STARTED_BY, None)
    return plugin

