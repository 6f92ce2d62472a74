"""The ``display_state`` record: what the display daemon tells the web about itself.

Fields: ``service`` (``running``/``stopped``), ``pid``, ``started_at``, ``updated_at``
(when this record was written), ``plugin_id`` and ``mode`` of the entry shown (None
while the panel is off or a notification shows), ``showing`` (``notification``,
``on_demand``, ``sync`` (a follower showing its leader's entry), ``wall`` (a follower
showing its part of its leader's wall), ``live``, ``full_screen``, ``rotation``, or
``off`` while the power schedule blanks the panel), ``notification`` (the one shown:
``id``, ``text``, ``source``, ``priority``; None when none is), ``on_demand``
(state block, wall-clock times), ``live_plugins``, ``power`` (``on`` or ``off``),
``power_cause`` (``hand`` when turned off, or on against the schedule, by hand;
``schedule`` when the power schedule keeps it off; None otherwise), ``reason`` (one
sentence saying why the panel shows what it shows: ``reason.py``),
``dimmed``, ``brightness`` (the value on the matrix), ``fps``, ``config_seq``,
``last_request_id``, ``requests`` (outcomes by request id), ``loaded_plugins``,
``loading_plugins`` (enabled plugins queued at start and not tried yet),
``load_errors``, ``load_warnings`` (per loaded plugin, the warnings it logged while it
loaded: ``shared.plugin_system.load_warnings``), ``plugins_applied`` (outcomes of the
last ``plugins_changed`` requests by request id: ``shared.plugin_system.changes``),
``backend``, ``width``, ``height``, ``first_frame_ms``, ``sync`` (this panel's part in
its group: ``role``, ``state``, ``leader``, ... ``display_service.sync.link``).

The record is written when its content changes, not on a timer; nothing in it counts
frames. ``fps`` is republished when it moves noticeably (``state.FPS_TOLERANCE``).

While the full-screen mode is shown (``showing: full_screen``) the rotation entry
underneath is paused and not reported: ``plugin_id``, ``mode`` and ``fps`` come from
the mode's ``status(now)`` when it has one (Vegas: the plugin covering most of the
panel, None over a separator or blank gap; ``mode`` ``"vegas"``; ticker frames drawn
per second), else ``plugin_id`` None, ``mode`` ``"full_screen"`` and the loop's fps.
"""

from __future__ import annotations

import os
import time
from typing import Any, Protocol

from display_service.control.controller import LIVE, ROTATION
from display_service.loop.compose import FULL_SCREEN, NOTIFICATION, OFF, WALL
from display_service.loop.reason import Scene, reason


class RenderLoop(Protocol):
    """What the record is read from: the render loop's parts, by name (the loop itself
    is ``display_service.loop.render_loop.RenderLoop``, which this module never imports)."""

    controller: Any
    fps: Any
    frames: Any
    publisher: Any
    started_at: float
    clock: Any
    panel: Any
    backend: Any
    config_problem: Any
    config_seq: Any
    on_demand: Any
    control: Any
    plugins: Any
    plugin_changes: Any
    display: Any
    painter: Any
    notifier: Any
    sync: Any

    def layer(self) -> str: ...


def shown(loop: RenderLoop, now: float) -> tuple[str, str | None, str | None, float]:
    """Return the layer shown and its ``plugin_id``, ``mode`` and ``fps``.

    While the panel is off (power schedule) or the service stops, no plugin is named:
    the entry paused underneath is not what the panel shows.
    """
    layer = loop.layer()
    entry = loop.controller.current(now) if layer not in (OFF, NOTIFICATION) else None
    fps = loop.fps.rate(now)  # read even when replaced: keeps its window current
    if layer == WALL:
        return layer, None, WALL, fps
    if layer == FULL_SCREEN:
        fields = _full_screen(loop.frames.full_screen, now, fps)
        return layer, fields["plugin_id"], fields["mode"], fields["fps"]
    return (layer, entry.plugin_id if entry else None, entry.mode if entry else None, fps)


def display_state(loop: RenderLoop, service: str = "running") -> dict[str, Any]:
    """Return the ``display_state`` record of ``loop`` as of now."""
    now = loop.clock()
    controller = loop.controller
    running = service == "running"
    on_demand = controller.snapshot_on_demand()
    for key in ("started_at", "ends_at"):
        on_demand[key] = loop.publisher.to_wall(on_demand[key], now)
    showing, plugin_id, mode, _fps = shown(loop, now) if running else (OFF, None, None, 0.0)
    fps = loop.publisher.fps if running else 0.0
    return {
        "service": service,
        "pid": os.getpid(),
        "started_at": loop.started_at,
        "updated_at": time.time(),
        "plugin_id": plugin_id,
        "mode": mode,
        "showing": showing,
        "notification": _notification(loop) if running else None,
        "on_demand": on_demand,
        "live_plugins": sorted(controller.live_modes),
        "power": "on" if loop.panel.power_on else "off",
        "power_cause": loop.panel.power_cause,
        "reason": (reason(scene(loop, showing, plugin_id, mode, now)) if running
                   else "display service stopped"),
        "dimmed": loop.panel.dimmed,
        "brightness": loop.backend.brightness,
        "config_problem": loop.config_problem,
        "fps": fps,
        "config_seq": loop.config_seq,
        "last_request_id": controller.last_request_id,
        "requests": {**loop.on_demand.outcomes(), **loop.control.outcomes()},
        "loaded_plugins": sorted(loop.plugins.instances),
        "loading_plugins": list(getattr(loop.plugins, "loading", None) or []),
        "load_errors": dict(getattr(loop.plugins, "load_errors", {}) or {}),
        "load_warnings": {plugin_id: list(lines) for plugin_id, lines in
                          (getattr(loop.plugins, "load_warnings", {}) or {}).items()},
        "plugins_applied": loop.plugin_changes.applied(),
        "backend": loop.backend.name,
        "width": loop.display.width,
        "height": loop.display.height,
        "first_frame_ms": loop.painter.first_frame_ms,
        "sync": loop.sync.snapshot(),
    }


def _notification(loop: RenderLoop) -> dict[str, Any] | None:
    """Return the notification on the panel, as the status names it, or None."""
    shown = loop.notifier.showing()
    if shown is None:
        return None
    return {"id": shown.id, "text": shown.fields.get("text"), "source": shown.source,
            "priority": shown.priority}


def scene(loop: RenderLoop, layer: str, plugin_id: str | None, mode: str | None,
          now: float) -> Scene:
    """Return what the reason is told from (``reason.py``), as of ``now``."""
    controller, panel = loop.controller, loop.panel
    cursor = controller.live if layer == LIVE else controller.rotation
    listed = layer in (LIVE, ROTATION)
    od = controller.on_demand
    wall = panel.wall()  # the clock the schedules are read against
    until = wall - (now - od.ends_at) if od is not None and od.ends_at is not None else None
    return Scene(
        layer=layer, plugin_id=plugin_id, mode=mode,
        slot=cursor.index + 1 if listed and cursor.entries else None,
        slots=len(cursor.entries) if listed else None,
        until=until, power_cause=panel.power_cause, power_until=panel.power_until(),
        dimmed=panel.dimmed, dim_until=panel.dim_until(), blank=loop.frames.blanked, wall=wall,
        zone=panel.zone, loop=loop)


def _full_screen(mode: Any, now: float, loop_fps: float) -> dict[str, Any]:
    """Return ``plugin_id``, ``mode`` and ``fps`` of the full-screen mode being shown."""
    describe = getattr(mode, "status", None)
    fields: dict[str, Any] = {"plugin_id": None, "mode": FULL_SCREEN, "fps": loop_fps}
    if callable(describe):
        fields.update({k: v for k, v in describe(now).items() if k in fields})
    return fields
