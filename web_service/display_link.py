"""The web side of the bus: what the display daemon says, and requests to it.

Every read goes through ``shared.bus.core``, which takes only regular files and never blocks:
a FIFO or folder in a bus file's place reads as absent, so no request thread waits on it.
The records the status asks for on every request are parsed once per change of their
file (``shared.bus.read_cache``: one ``lstat`` per read, never a stale value); callers
only read what they get.
"""

from __future__ import annotations

import contextlib
import time
from typing import Any

from shared.bus import core as keys
from shared.bus.core import Bus
from shared.bus.daemon_lock import DISPLAY, lock_holder
from shared.bus.display_status import (
    RUNNING,
    STARTING,
    plugin_errors,
    service_state,
    timestamp,
)
from shared.bus.read_cache import CachedReads
from shared.config.hardware_rule import restart_settings_changed
from shared.errors import AtomicWriteError
from web_service.settings import WebSettings

PREVIEW_VIEWER_WINDOW = 10.0


class DisplayLink:
    """Read display state fresh from the bus and send it on-demand requests."""

    def __init__(self, bus: Bus, settings: WebSettings) -> None:
        self.bus = bus
        self.settings = settings
        self.reads = CachedReads(bus)

    def state(self) -> tuple[dict[str, Any] | None, int | None]:
        """Return the display's last published state and the pid holding its lock."""
        return self.reads.read(keys.DISPLAY_STATE), lock_holder(self.bus.directory, DISPLAY)

    def service_state(self) -> str:
        """Return ``running``, ``starting``, ``stopped`` or ``not_running`` (its lock)."""
        return service_state(*self.state())

    def plugin_errors(self, service: str | None = None) -> dict[str, dict[str, Any]]:
        """Return the running display's failures per plugin; {} while it is not running.

        A display that stopped left its last run's record behind: that is not current.
        """
        if (service or self.service_state()) != RUNNING:
            return {}
        return plugin_errors(self.errors_record())

    def errors_record(self) -> dict[str, Any] | None:
        """Return the ``plugin_errors`` record as the display published it."""
        return self.reads.read(keys.PLUGIN_ERRORS)

    def hardware(self) -> dict[str, Any] | None:
        """Return the hardware status record."""
        return self.reads.read(keys.HARDWARE_STATUS)

    def safe_mode_record(self) -> dict[str, Any] | None:
        """Return the ``plugin_safe_mode`` record as the display published it."""
        return self.reads.read(keys.PLUGIN_SAFE_MODE)

    def restart_settings(self, config: dict[str, Any], *, service: str | None = None,
                         hardware: dict[str, Any] | None = None) -> list[str]:
        """Return the panel settings of ``config`` that differ from the running display's.

        Empty while the display service is not running: it reads them when it starts.
        ``service`` and ``hardware``, when the caller has read them already, are used
        instead of reading the bus again.
        """
        if (service or self.service_state()) != RUNNING:
            return []
        hardware = hardware if hardware is not None else self.hardware() or {}
        running = hardware.get("settings")
        return restart_settings_changed(running, config) if isinstance(running, dict) else []

    def on_demand(
        self, payload: dict[str, Any]
    ) -> tuple[str, dict[str, Any] | None, dict[str, Any] | None]:
        """Queue an on-demand request and wait for the display's answer to it.

        Returns the request id, the display's outcome for that request and the state
        that carried it; both are None when the display did not answer in time.
        """
        request_id = self.bus.request(keys.DISPLAY_ON_DEMAND_REQUEST, payload)
        if self.service_state() not in (RUNNING, STARTING):
            return request_id, None, None

        def answered(value: dict[str, Any] | None) -> bool:
            return isinstance(value, dict) and request_id in _requests(value)

        state = self.bus.wait_for(keys.DISPLAY_STATE, answered,
                                  timeout=self.settings.ack_timeout)
        if state is None or not answered(state):
            return request_id, None, None
        return request_id, _requests(state)[request_id], state

    def preview(self) -> dict[str, Any] | None:
        """Mark a viewer present and return the latest preview frame."""
        self.mark_viewer()
        return self.preview_frame()

    def preview_frame(self) -> dict[str, Any] | None:
        """Return the latest preview frame, without marking a viewer."""
        return self.bus.read(keys.PREVIEW_FRAME)

    def mark_viewer(self) -> None:
        """Tell the display someone watches its preview for the next while."""
        viewer = self.bus.read(keys.PREVIEW_VIEWER) or {}
        now = time.time()
        # Refresh the viewer mark only when it is about to lapse: fewer bus writes.
        until = timestamp(viewer.get("until")) or 0.0
        if until - now < PREVIEW_VIEWER_WINDOW / 2:
            self._set_viewer(now + PREVIEW_VIEWER_WINDOW)

    def release_viewer(self) -> None:
        """Let the viewer mark lapse now; a poller still watching marks it again."""
        self._set_viewer(time.time())

    def _set_viewer(self, until: float) -> None:
        # A folder in the mark's place: no live preview, but the last frame is shown.
        with contextlib.suppress(AtomicWriteError):
            self.bus.publish(keys.PREVIEW_VIEWER, {"until": until})


def _requests(state: dict[str, Any]) -> dict[str, Any]:
    requests = state.get("requests")
    return requests if isinstance(requests, dict) else {}
