"""Apply ``display_on_demand_request`` commands to the controller and tell the bus.

On activation ``display_on_demand_config`` is written; on stop, expiry or when a
refused request ends a running one, it is removed. Every request's outcome is
published in ``display_state`` under the same ``request_id``.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from display_service.controller import Controller
from display_service.state import BusWriter, StatePublisher
from shared.bus import DISPLAY_ON_DEMAND_CONFIG

logger = logging.getLogger("display_service.on_demand")

# A start request found this old (e.g. left over from before a restart) is dropped.
STALE_AFTER = 60.0


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
    return float(value) or None, None


class OnDemandHandler:
    """Turn one request into controller calls, a bus record and one log line."""

    def __init__(self, controller: Controller, writer: BusWriter, publisher: StatePublisher):
        self.controller = controller
        self.writer = writer
        self.publisher = publisher

    def handle(self, request: dict[str, Any], now: float) -> None:
        """Apply a start or stop request."""
        action = request.get("action")
        request_id = request.get("request_id")
        request_id = str(request_id) if request_id is not None else None
        self.publisher.mark_dirty()
        requested_at = request.get("requested_at")
        if isinstance(requested_at, int | float) and time.time() - requested_at > STALE_AFTER:
            logger.info("on-demand %s request %s is stale; ignored", action, request_id)
            return
        if action == "stop":
            if self.controller.stop_on_demand(request_id, now):
                self.writer.remove(DISPLAY_ON_DEMAND_CONFIG)
                logger.info("on-demand stopped (request %s); rotation resumes", request_id)
            else:
                logger.info("on-demand stop (request %s): nothing was running", request_id)
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
        od = self.controller.on_demand
        assert od is not None
        self.writer.put(
            DISPLAY_ON_DEMAND_CONFIG,
            {
                "plugin_id": od.plugin_id,
                "mode": od.mode,
                "duration": None if od.ends_at is None else od.ends_at - od.started_at,
                "pinned": od.pinned,
                "request_id": od.request_id,
                "started_at": self.publisher.to_wall(od.started_at, now),
                "ends_at": self.publisher.to_wall(od.ends_at, now),
            },
        )
        until = "pinned" if od.ends_at is None else f"for {od.ends_at - od.started_at:g} s"
        logger.info("on-demand start: %s/%s %s (request %s)", od.plugin_id, od.mode, until,
                    request_id)

    def expired(self, now: float) -> None:
        """The on-demand ended by itself: clear its record."""
        self.writer.remove(DISPLAY_ON_DEMAND_CONFIG)
        self.publisher.mark_dirty()
        logger.info("on-demand ended (duration over); rotation resumes")

    def _refuse(self, request_id: str | None, problem: str, now: float) -> None:
        self.controller.refuse(request_id, problem, now)
        self._after_refusal(request_id, problem)

    def _after_refusal(self, request_id: str | None, problem: str) -> None:
        self.writer.remove(DISPLAY_ON_DEMAND_CONFIG)
        logger.warning("on-demand request %s refused: %s", request_id, problem)
