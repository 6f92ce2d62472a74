"""Plugin ``update()`` calls, off the render thread, one at a time per plugin.

Each plugin's update runs on a small worker pool at its manifest ``update_interval``
(default 60 s), and once as soon as it is loaded. A call still running after the time
budget marks the plugin overrun: the render loop skips it in the rotation until that
call returns. A call that raises is recorded and the next one runs on schedule.

Updates are only started by ``poll()``, on the render thread, so when ``busy()`` says
False there, no update of that plugin can begin until the render thread polls again:
the lifecycle hooks it calls meanwhile cannot overlap ``update()``. ``on_done`` is
called (on the worker) after each update returns, to wake the render loop.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Collection, Mapping
from concurrent.futures import Future, ThreadPoolExecutor, wait
from dataclasses import dataclass
from typing import Any

from display_service.plugin_errors import PluginErrors

logger = logging.getLogger(__name__)

DEFAULT_INTERVAL = 60.0
DEFAULT_BUDGET = 30.0
WORKERS = 2


@dataclass
class _Slot:
    plugin: Any
    interval: float
    due: float
    running: Future[None] | None = None
    started: float = 0.0
    overrun: bool = False
    runs: int = 0


class UpdateScheduler:
    """When each plugin's next ``update()`` is due, and which ones are overrunning."""

    def __init__(
        self,
        errors: PluginErrors,
        clock: Callable[[], float],
        budget: float = DEFAULT_BUDGET,
        *,
        workers: int = WORKERS,
        on_done: Callable[[], None] | None = None,
    ) -> None:
        self.errors = errors
        self.clock = clock
        self.budget = budget
        self.on_done = on_done
        self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="plugin-update")
        self._slots: dict[str, _Slot] = {}
        self._lock = threading.Lock()

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

    def poll(self, now: float, hold: Collection[str] = ()) -> None:
        """Start the updates that are due (not those in ``hold``); mark the ones over budget."""
        with self._lock:
            for plugin_id, slot in self._slots.items():
                if slot.running is None and now >= slot.due and plugin_id not in hold:
                    slot.started = now
                    slot.running = self._pool.submit(self._run, plugin_id, slot)
                elif slot.running is not None and not slot.overrun:
                    if now - slot.started >= self.budget:
                        slot.overrun = True
                        self.errors.record_message(
                            plugin_id,
                            "update",
                            f"update() still running after {self.budget:g} s; "
                            "skipped in the rotation until it returns",
                        )

    def _run(self, plugin_id: str, slot: _Slot) -> None:
        try:
            slot.plugin.update()
        except Exception as err:  # isolation boundary: one plugin's update
            self.errors.record(plugin_id, "update", err)
        finally:
            with self._lock:
                finished = self.clock()
                if slot.overrun:
                    logger.info(
                        "%s: update() returned after %.1f s", plugin_id, finished - slot.started
                    )
                slot.overrun = False
                slot.running = None
                slot.runs += 1
                slot.due = finished + slot.interval
            if self.on_done is not None:
                self.on_done()

    def next_due(self) -> float | None:
        """Return the earliest time something here needs the loop's attention."""
        with self._lock:
            times = [
                slot.due if slot.running is None else slot.started + self.budget
                for slot in self._slots.values()
                if slot.running is None or not slot.overrun
            ]
        return min(times) if times else None

    def busy(self, plugin_id: str) -> bool:
        """Return True while a plugin's update is queued or running."""
        with self._lock:
            slot = self._slots.get(plugin_id)
            return bool(slot and slot.running is not None and not slot.running.done())

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
        """Stop scheduling; queued calls are dropped, running ones get ``grace`` seconds."""
        self._pool.shutdown(wait=False, cancel_futures=True)
        with self._lock:
            running = [s.running for s in self._slots.values() if s.running is not None]
        if running and grace > 0:
            wait(running, timeout=grace)
