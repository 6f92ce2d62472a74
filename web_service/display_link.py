"""The web side of the bus: what the display daemon says, and requests to it."""

from __future__ import annotations

import time
from typing import Any

from shared import bus as keys
from shared.bus import Bus
from web_service.settings import WebSettings

PREVIEW_VIEWER_WINDOW = 10.0


class DisplayLink:
    """Read display state fresh from the bus and send it on-demand requests."""

    def __init__(self, bus: Bus, settings: WebSettings) -> None:
        self.bus = bus
        self.settings = settings

    def state(self) -> dict[str, Any] | None:
        """Return the display daemon's last published state."""
        return self.bus.read(keys.DISPLAY_STATE)

    def service_state(self, state: dict[str, Any] | None = None) -> str:
        """Return ``running``, ``stopped`` or ``not_running`` from the heartbeat."""
        state = self.state() if state is None else state
        if not state:
            return "not_running"
        if state.get("service") == "stopped":
            return "stopped"
        age = time.time() - float(state.get("updated_at") or 0)
        return "running" if age <= self.settings.heartbeat_stale_after else "not_running"

    def hardware(self) -> dict[str, Any] | None:
        """Return the hardware status record."""
        return self.bus.read(keys.HARDWARE_STATUS)

    def on_demand(self, payload: dict[str, Any]) -> tuple[str, dict[str, Any] | None]:
        """Write an on-demand request; wait for the display's acknowledgement.

        Returns the request id and the acknowledging state (None when the display did
        not answer within the timeout).
        """
        request_id = self.bus.request(keys.DISPLAY_ON_DEMAND_REQUEST, payload)
        if self.service_state() != "running":
            return request_id, None
        state = self.bus.wait_for(
            keys.DISPLAY_STATE,
            lambda value: bool(value) and value.get("last_request_id") == request_id,
            timeout=self.settings.ack_timeout,
        )
        acked = state is not None and state.get("last_request_id") == request_id
        return request_id, state if acked else None

    def preview(self) -> dict[str, Any] | None:
        """Mark a viewer present and return the latest preview frame."""
        viewer = self.bus.read(keys.PREVIEW_VIEWER) or {}
        now = time.time()
        # Refresh the viewer mark only when it is about to lapse: fewer bus writes.
        if float(viewer.get("until") or 0) - now < PREVIEW_VIEWER_WINDOW / 2:
            self.bus.publish(keys.PREVIEW_VIEWER, {"until": now + PREVIEW_VIEWER_WINDOW})
        return self.bus.read(keys.PREVIEW_FRAME)
