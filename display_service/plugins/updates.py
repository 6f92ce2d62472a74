"""Plugin ``update()`` calls, off the render thread, one at a time per plugin.

Each plugin's update runs at its manifest ``update_interval`` (default 60 s), and once
as soon as it is loaded. A call that raises is recorded and the next one runs on
schedule.

**Each call runs on a thread of its own** (``update-<plugin_id>``, a daemon thread),
started when the call is due; a plugin has at most one call in flight, so there is at
most one such thread per loaded plugin. A plugin whose update hangs can therefore only
stall itself: no shared pool exists whose workers it could occupy, so every other
plugin's update still starts on time. (A hung thread cannot be killed; it ends when the
call returns, and being a daemon thread it does not hold up the process at exit.)
The cost is that updates due together run together, where a pool would have queued
them; plugins' updates are mostly network waits, which overlap well.

**The time budget** of a call (``DEFAULT_BUDGET``, 30 s) is measured from the moment
its thread starts the call. A call still running after it marks the plugin overrun: the
render loop skips it in the rotation until that call returns.

Updates are only started by ``poll()``, on the render thread, so when ``busy()`` says
False there, no update of that plugin can begin until the render thread polls again:
the lifecycle hooks it calls meanwhile cannot overlap ``update()``. ``on_done`` is
called (on the update's thread) after each update returns, to wake the render loop.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field
from typing import Any

from display_service.plugins.errors import PluginErrors
from shared.plugin_api.boundary import CONTAINED, plugin_call

logger = logging.getLogger(__name__)

DEFAULT_INTERVAL = 60.0
DEFAULT_BUDGET = 30.0


@dataclass
class _Call:
    """One update() call: asked for at ``queued``, begun at ``started``."""

    queued: float
    started: float | None = None
    done: threading.Event = field(default_factory=threading.Event)


@dataclass
class _Slot:
    plugin: Any
    interval: float
    due: float
    call: _Call | None = None  # the call in flight, if any
    overrun: bool = False
    runs: int = 0
    again: bool = False  # asked for while a call was in flight: run again when it returns


class UpdateScheduler:
    """When each plugin's next ``update()`` is due, and which ones are overrunning."""

    def __init__(
        self,
        errors: PluginErrors,
        clock: Callable[[], float],
        budget: float = DEFAULT_BUDGET,
        *,
        on_done: Callable[[], None] | None = None,
    ) -> None:
        self.errors = errors
        self.clock = clock
        self.budget = budget
        self.on_done = on_done
        # Told each update()'s plugin id and seconds, on the update's thread (metrics).
        self.on_timed: Callable[[str, float], None] | None = None
        self._slots: dict[str, _Slot] = {}
        self._lock = threading.Lock()
        self._closed = False

    def sync(self, plugins: Mapping[str, Any], intervals: Mapping[str, float], now: float) -> None:
        """Follow the loaded plugins: new ones are due now, unloaded ones are dropped."""
        with self._lock:
            for plugin_id in list(self._slots):
                if plugins.get(plugin_id) is not self._slots[plugin_id].plugin:
                    del self._slots[plugin_id]
            for plugin_id, plugin in plugins.items():
                interval = intervals.get(plugin_id) or DEFAULT_INTERVAL
                slot = self._slots.get(plugin_id)
                if slot is None:
                    self._slots[plugin_id] = _Slot(plugin, interval, now)
                else:
                    slot.interval = interval

    def request(self, plugin_id: str, now: float) -> None:
        """Run a plugin's update as soon as it is not already running."""
        with self._lock:
            slot = self._slots.get(plugin_id)
            if slot is not None:
                slot.due = min(slot.due, now)
                slot.again = slot.call is not None

    def poll(self, now: float, hold: Collection[str] = ()) -> None:
        """Start the updates that are due (not those in ``hold``); mark the ones over budget."""
        starting: list[tuple[str, _Slot, threading.Thread]] = []
        with self._lock:
            for plugin_id, slot in self._slots.items():
                call = slot.call
                if call is None:
                    if now >= slot.due and plugin_id not in hold and not self._closed and (
                            not self.errors.resting(plugin_id)):  # circuit breaker open
                        slot.call = _Call(now)
                        starting.append((plugin_id, slot, threading.Thread(
                            target=self._run, args=(plugin_id, slot, slot.call),
                            name=f"update-{plugin_id}", daemon=True,
                        )))
                elif not slot.overrun and call.started is not None and (
                        now - call.started >= self.budget):
                    slot.overrun = True
                    self.errors.record_message(
                        plugin_id,
                        "update",
                        f"update() still running after {self.budget:g} s; "
                        "skipped in the rotation until it returns",
                    )
        for plugin_id, slot, thread in starting:
            try:
                thread.start()
            except RuntimeError as err:  # out of threads: try again at the next interval
                with self._lock:
                    slot.call = None
                    slot.due = now + slot.interval
                self.errors.record(plugin_id, "update", err)

    def _run(self, plugin_id: str, slot: _Slot, call: _Call) -> None:
        with self._lock:
            if self._closed:  # shut down before the call began: it never does
                slot.call = None
                call.done.set()
                return
            call.started = started = self.clock()
        try:
            with plugin_call(plugin_id, "update"):
                slot.plugin.update()
            self.errors.succeeded(plugin_id, "update")
        except CONTAINED as err:  # isolation boundary: one plugin's update
            self.errors.record(plugin_id, "update", err)
        finally:
            with self._lock:
                finished = self.clock()
                if slot.overrun:
                    logger.info("%s: update() returned after %.1f s",
                                plugin_id, finished - started)
                slot.overrun = False
                slot.call = None
                slot.runs += 1
                slot.due = finished if slot.again else finished + slot.interval
                slot.again = False
            if self.on_timed is not None:
                self.on_timed(plugin_id, finished - started)
            call.done.set()
            if self.on_done is not None:
                self.on_done()

    def next_due(self) -> float | None:
        """Return the earliest time something here needs the loop's attention."""
        with self._lock:
            times = []
            for plugin_id, slot in self._slots.items():
                call = slot.call
                if call is None:
                    rest_until = self.errors.rest_until(plugin_id)  # circuit breaker open
                    times.append(max(slot.due, rest_until or slot.due))
                elif not slot.overrun:  # when it would overrun (early, if not begun yet)
                    times.append((call.started or call.queued) + self.budget)
        return min(times) if times else None

    def busy(self, plugin_id: str) -> bool:
        """Return True while a plugin's update is starting or running."""
        with self._lock:
            slot = self._slots.get(plugin_id)
            return bool(slot and slot.call is not None)

    def is_overrun(self, plugin_id: str) -> bool:
        """Return True while a plugin's update is over budget."""
        with self._lock:
            slot = self._slots.get(plugin_id)
            return bool(slot and slot.overrun)

    def runs(self, plugin_id: str) -> int:
        """Return how many updates of a plugin have finished."""
        with self._lock:
            slot = self._slots.get(plugin_id)
            return slot.runs if slot else 0

    def shutdown(self, grace: float = 0.0) -> None:
        """Start no more updates; running ones get ``grace`` seconds in all to return."""
        with self._lock:
            self._closed = True
            running = [s.call for s in self._slots.values() if s.call is not None]
        deadline = time.monotonic() + grace
        for call in running:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                break
            call.done.wait(remaining)
