"""The render loop's handlers of requests put on the bus by the web and the MQTT bridge,
one per bus flag, applied in the order of ``REQUESTS`` (each when its flag was set)."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Protocol

from display_service.control.display_control import ControlHandler
from display_service.control.on_demand import OnDemandHandler
from display_service.loop.metrics import MetricsPublisher
from display_service.notify.layer import NotificationLayer
from display_service.plugins.display_manager import DisplayManager
from display_service.plugins.errors import PluginErrors
from display_service.plugins.host import PluginHost
from display_service.plugins.safe_mode import SafeMode
from display_service.state import StatePublisher
from shared.bus.core import (
    DISPLAY_CONTROL,
    DISPLAY_ON_DEMAND_REQUEST,
    FONTS_CHANGED,
    METRICS_VIEWER,
    NOTIFY_REQUEST,
    PLUGIN_ERRORS_CLEAR,
    PLUGIN_SAFE_MODE_RELEASE,
    PREVIEW_VIEWER,
    Bus,
)

logger = logging.getLogger(__name__)


class RenderLoop(Protocol):
    """What of the render loop (``render_loop.RenderLoop``) the handlers use."""

    bus: Bus
    plugins: PluginHost
    display: DisplayManager
    errors: PluginErrors
    safe_mode: SafeMode | None
    on_demand: OnDemandHandler
    notifier: NotificationLayer
    control: ControlHandler
    publisher: StatePublisher
    metrics: MetricsPublisher

    def plugins_changed(self, changed: list[str], now: float) -> None: ...

    def unblock(self, released: list[str], now: float) -> None: ...


def on_demand(loop: RenderLoop, now: float) -> None:
    for request in loop.bus.take_all(DISPLAY_ON_DEMAND_REQUEST):
        plugin_id = request.get("plugin_id") if isinstance(request, dict) else None
        if isinstance(plugin_id, str) and plugin_id in loop.plugins.loading:
            # Still queued from the start: loaded now rather than refused as unknown.
            loop.plugins_changed(loop.plugins.load_now(plugin_id), now)
        loop.on_demand.handle(request, now)


def notify(loop: RenderLoop, now: float) -> None:
    for request in loop.bus.take_all(NOTIFY_REQUEST):
        loop.notifier.handle(request, now)


def control(loop: RenderLoop, now: float) -> None:
    for request in loop.bus.take_all(DISPLAY_CONTROL):
        loop.control.handle(request, now)


def clear_plugin_errors(loop: RenderLoop, now: float) -> None:
    for request in loop.bus.take_all(PLUGIN_ERRORS_CLEAR):
        plugin_id = request.get("plugin_id")  # None: every plugin
        if plugin_id is None or isinstance(plugin_id, str):
            loop.errors.clear(plugin_id, request.get("request_id"))


def release_safe_mode(loop: RenderLoop, now: float) -> None:
    if loop.safe_mode is not None:
        loop.unblock(loop.safe_mode.take_releases(), now)


def refresh_viewer(loop: RenderLoop, now: float) -> None:
    loop.publisher.refresh_viewer()


def refresh_metrics_viewer(loop: RenderLoop, now: float) -> None:
    loop.metrics.refresh_viewer()


def reload_fonts(loop: RenderLoop, now: float) -> None:
    """Rescan the fonts after one was uploaded or deleted through the web."""
    loop.display.font_manager.reload()
    logger.info("fonts: rescanned, %d in the catalog", len(loop.display.font_manager.catalog()))


REQUESTS: tuple[tuple[str, Callable[[RenderLoop, float], None]], ...] = (
    (DISPLAY_ON_DEMAND_REQUEST, on_demand),
    (NOTIFY_REQUEST, notify),
    (DISPLAY_CONTROL, control),
    (PLUGIN_ERRORS_CLEAR, clear_plugin_errors),
    (PLUGIN_SAFE_MODE_RELEASE, release_safe_mode),
    (PREVIEW_VIEWER, refresh_viewer),
    (METRICS_VIEWER, refresh_metrics_viewer),
    (FONTS_CHANGED, reload_fonts),
)
