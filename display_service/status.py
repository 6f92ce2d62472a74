"""The ``display_state`` record: what the display daemon tells the web about itself.

Fields: ``service`` (``running``/``stopped``), ``pid``, ``started_at``, ``updated_at``,
``plugin_id`` and ``mode`` of the entry shown, ``showing`` (``on_demand``, ``live``,
``full_screen``, ``rotation``, or ``off`` while the power schedule blanks the panel),
``on_demand`` (state block, wall-clock times), ``live_plugins``, ``power`` (``on`` or
``off``), ``dimmed``, ``brightness`` (the value on the matrix), ``fps``, ``config_seq``,
``last_request_id``, ``requests`` (outcomes by request id), ``loaded_plugins``,
``load_errors``, ``backend``, ``width``, ``height``, ``frames_pushed``,
``first_frame_ms``.

While the full-screen mode is shown (``showing: full_screen``) the rotation entry
underneath is paused and not reported: ``plugin_id``, ``mode`` and ``fps`` come from
the mode's ``status(now)`` when it has one (Vegas: the plugin covering most of the
panel, None over a separator or blank gap; ``mode`` ``"vegas"``; ticker frames drawn
per second), else ``plugin_id`` None, ``mode`` ``"full_screen"`` and the loop's fps.
"""

from __future__ import annotations

import os
import time
from typing import TYPE_CHECKING, Any

from display_service.compose import FULL_SCREEN

if TYPE_CHECKING:
    from display_service.render_loop import RenderLoop


def display_state(loop: RenderLoop, service: str = "running") -> dict[str, Any]:
    """Return the ``display_state`` record of ``loop`` as of now."""
    now = loop.clock()
    controller = loop.controller
    running = service == "running"
    entry = controller.current(now) if running else None
    on_demand = controller.snapshot_on_demand()
    for key in ("started_at", "ends_at"):
        on_demand[key] = loop.publisher.to_wall(on_demand[key], now)
    showing = loop.layer() if running else "off"
    shown: dict[str, Any] = {
        "plugin_id": entry.plugin_id if entry else None,
        "mode": entry.mode if entry else None,
        "fps": loop.fps.rate(now),  # read even when replaced: keeps its window current
    }
    if showing == FULL_SCREEN:
        shown.update(_full_screen(loop.frames.full_screen, now, shown["fps"]))
    return {
        "service": service,
        "pid": os.getpid(),
        "started_at": loop.started_at,
        "updated_at": time.time(),
        "plugin_id": shown["plugin_id"],
        "mode": shown["mode"],
        "showing": showing,
        "on_demand": on_demand,
        "live_plugins": sorted(controller.live_modes),
        "power": "on" if loop.panel.power_on else "off",
        "dimmed": loop.panel.dimmed,
        "brightness": loop.backend.brightness,
        "config_problem": loop.config_problem,
        "fps": shown["fps"],
        "config_seq": loop.config_seq,
        "last_request_id": controller.last_request_id,
        "requests": loop.on_demand.outcomes(),
        "loaded_plugins": sorted(loop.plugins.instances),
        "load_errors": dict(getattr(loop.plugins, "load_errors", {}) or {}),
        "backend": loop.backend.name,
        "width": loop.display.width,
        "height": loop.display.height,
        "frames_pushed": loop.display.frames_pushed,
        "first_frame_ms": loop.painter.first_frame_ms,
    }


def _full_screen(mode: Any, now: float, loop_fps: float) -> dict[str, Any]:
    """Return ``plugin_id``, ``mode`` and ``fps`` of the full-screen mode being shown."""
    describe = getattr(mode, "status", None)
    fields: dict[str, Any] = {"plugin_id": None, "mode": FULL_SCREEN, "fps": loop_fps}
    if callable(describe):
        fields.update({k: v for k, v in describe(now).items() if k in fields})
    return fields
