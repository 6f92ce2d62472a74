"""Apply ``display_on_demand_request`` commands to the controller and tell the bus.

On activation ``display_on_demand_config`` is written; on stop, expiry or when a
refused request ends a running one, it is removed (a clean shutdown removes it too).
A record still there at start was left by a display that was killed: ``resume``
carries it on (pinned: until stopped; timed: for the time it had left), ends it when
its time ran out while the display was down, or, when its plugin or mode is gone,
ends it with state ``error`` and the reason. Every request's outcome is
published in ``display_state`` under ``requests.<request_id>`` (the last
``KEEP_OUTCOMES``), so every caller finds its own answer even when several requests
were handled between two state writes.
"""

from __future__ import annotations

import logging
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from display_service.control.controller import Controller
from display_service.state import BusWriter, StatePublisher
from shared.bus.core import DISPLAY_ON_DEMAND_CONFIG
from shared.bus.display_status import timestamp
from shared.config.limits import MAX_ON_DEMAND_SECONDS, MIN_DISPLAY_SECONDS

logger = logging.getLogger("display_service.control.on_demand")

# A request this old by its ``requested_at`` (e.g. left over from before a restart) is
# not applied; its outcome is ``error``, "request is stale; ignored".
STALE_AFTER = 60.0
KEEP_OUTCOMES = 16
# A timed on-demand with less than this left (seconds) when the display is back is over.
RESUME_AT_LEAST = 1.0


def _duration(value: Any) -> tuple[float | None, str | None]:
    """Parse a request's duration: absent, null, "" or 0 mean the entry's own duration."""
    if value in (None, "", 0) and not isinstance(value, bool):
        return None, None
    if isinstance(value, str):
        try:
            value = float(value)
        except ValueError:
            return None, f"duration must be a number of seconds, not {value!r}"
    if isinstance(value, bool) or not isinstance(value, int | float) or value < 0:
        return None, f"duration must be a positive number of seconds, not {value!r}"
    if not MIN_DISPLAY_SECONDS <= value <= MAX_ON_DEMAND_SECONDS:  # NaN fails this too
        return None, (f"duration must be {MIN_DISPLAY_SECONDS:g} to "
                      f"{MAX_ON_DEMAND_SECONDS:g} seconds, not {value!r}")
    return float(value), None


class OnDemandHandler:
    """Turn one request into controller calls, a bus record and one log line."""

    def __init__(self, controller: Controller, writer: BusWriter, publisher: StatePublisher,
                 wall: Callable[[], float] = time.time):
        self.controller = controller
        self.wall = wall  # the clock ``requested_at`` is read against
        self.writer = writer
        self.publisher = publisher
        self._outcomes: OrderedDict[str, dict[str, Any]] = OrderedDict()

    def outcomes(self) -> dict[str, dict[str, Any]]:
        """Return the outcomes of the most recent requests, keyed by ``request_id``."""
        return dict(self._outcomes)

    def _record(self, request_id: str | None, action: Any, state: str,
                error: str | None = None) -> None:
        if request_id is None:
            return
        od = self.controller.on_demand
        self._outcomes[request_id] = {
            "action": action if isinstance(action, str) else None,
            "state": state,
            "plugin_id": od.plugin_id if od and state == "active" else None,
            "mode": od.mode if od and state == "active" else None,
            "error": error,
        }
        self._outcomes.move_to_end(request_id)
        while len(self._outcomes) > KEEP_OUTCOMES:
            self._outcomes.popitem(last=False)

    def handle(self, request: dict[str, Any], now: float) -> None:
        """Apply a start or stop request."""
        action = request.get("action")
        request_id = request.get("request_id")
        request_id = str(request_id) if request_id is not None else None
        self.publisher.mark_dirty()
        requested_at = request.get("requested_at")
        if (isinstance(requested_at, int | float) and not isinstance(requested_at, bool)
                and self.wall() - requested_at > STALE_AFTER):
            logger.info("on-demand %s request %s is stale; ignored", action, request_id)
            self._record(request_id, action, "error", "request is stale; ignored")
            return
        if action == "stop":
            if self.controller.stop_on_demand(request_id, now):
                self.writer.remove(DISPLAY_ON_DEMAND_CONFIG)
                logger.info("on-demand stopped (request %s); rotation resumes", request_id)
            else:
                logger.info("on-demand stop (request %s): nothing was running", request_id)
            self._record(request_id, action, "stopped")
            return
        if action != "start":
            self._refuse(request_id, f"unknown action {action!r} (expected start or stop)", now)
            return
        plugin_id, mode = request.get("plugin_id"), request.get("mode") or None
        duration, problem = _duration(request.get("duration"))
        if mode is not None and not isinstance(mode, str):
            problem = "mode must be a string"
        if not isinstance(plugin_id, str) or not plugin_id:
            problem = "plugin_id is required"
        if problem is not None or not isinstance(plugin_id, str):
            self._refuse(request_id, problem or "plugin_id is required", now)
            return
        pinned = request.get("pinned") is True
        problem = self.controller.start_on_demand(
            plugin_id, mode, duration, pinned, request_id, now
        )
        if problem is not None:
            self._after_refusal(request_id, problem)
            return
        od = self._write_record(now)
        self._record(request_id, action, "active")
        until = "pinned" if od.ends_at is None else f"for {od.ends_at - od.started_at:g} s"
        logger.info("on-demand start: %s/%s %s (request %s)", od.plugin_id, od.mode, until,
                    request_id)

    def _write_record(self, now: float, **earlier: Any) -> Any:
        """Write ``display_on_demand_config`` for the active on-demand; return it."""
        od = self.controller.on_demand
        assert od is not None
        self.writer.put(DISPLAY_ON_DEMAND_CONFIG, {
            "plugin_id": od.plugin_id,
            "mode": od.mode,
            "duration": None if od.ends_at is None else od.ends_at - od.started_at,
            "pinned": od.pinned,
            "request_id": od.request_id,
            "started_at": self.publisher.to_wall(od.started_at, now),
            "ends_at": self.publisher.to_wall(od.ends_at, now),
            **earlier,
        })
        return od

    def resume(self, record: dict[str, Any] | None, now: float) -> None:
        """Carry on the on-demand a killed display left in ``display_on_demand_config``."""
        if record is None:
            return
        self.publisher.mark_dirty()
        plugin_id, mode = record.get("plugin_id"), record.get("mode")
        request_id = record.get("request_id")
        request_id = str(request_id) if request_id is not None else None
        pinned = record.get("pinned") is True
        what = f"{plugin_id}/{mode}"
        ends_at = timestamp(record.get("ends_at"))
        left = None if pinned or ends_at is None else ends_at - self.wall()
        if not isinstance(plugin_id, str) or not plugin_id or (not pinned and ends_at is None):
            self.writer.remove(DISPLAY_ON_DEMAND_CONFIG)
            logger.warning("on-demand left by the last run is malformed; not resumed: %r",
                           record)
            return
        if left is not None and left < RESUME_AT_LEAST:
            self.writer.remove(DISPLAY_ON_DEMAND_CONFIG)
            logger.info("on-demand %s (request %s) ran out while the display was down; "
                        "rotation resumes", what, request_id)
            return
        problem = self.controller.start_on_demand(
            plugin_id, mode if isinstance(mode, str) and mode else None, left, pinned,
            request_id, now)
        if problem is not None:
            self.controller.error = f"not resumed after a restart: {problem}"
            self.writer.remove(DISPLAY_ON_DEMAND_CONFIG)
            logger.warning("on-demand %s (request %s) not resumed after a restart: %s", what,
                           request_id, problem)
            return
        first = timestamp(record.get("started_at"))
        od = self._write_record(now, **({"started_at": first} if first is not None else {}),
                                resumed_at=self.publisher.to_wall(now, now))
        until = "pinned" if left is None else f"for the {left:.0f} s it had left"
        logger.info("on-demand resumed after a restart: %s/%s %s (request %s)", od.plugin_id,
                    od.mode, until, request_id)

    def expired(self, now: float) -> None:
        """The on-demand ended by itself: clear its record."""
        self.writer.remove(DISPLAY_ON_DEMAND_CONFIG)
        self.publisher.mark_dirty()
        logger.info("on-demand ended (duration over); rotation resumes")

    def _refuse(self, request_id: str | None, problem: str, now: float) -> None:
        self.controller.refuse(request_id, problem, now)
        self._after_refusal(request_id, problem)

    def _after_refusal(self, request_id: str | None, problem: str) -> None:
        self._record(request_id, "start", "error", problem)
        self.writer.remove(DISPLAY_ON_DEMAND_CONFIG)
        logger.warning("on-demand request %s refused: %s", request_id, problem)
