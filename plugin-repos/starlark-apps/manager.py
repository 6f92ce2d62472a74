"""Scripted Apps: the installed Tidbyt/Tronbyt (pixlet) apps, one display mode each.

The apps live in ``<assets>/plugins/starlark-apps/apps/<id>/`` (the web installs them);
their settings in this plugin's config section (``settings.py``). On load and on every
config change the folder is read again: ``modes`` becomes ``starlark-<id>`` for each
installed, enabled app without a problem, in id order (none: an empty list; the
rotation then has the plugin's one fallback mode, for which ``display`` returns False,
so the slot is skipped, never black).

Renders run on the plugin's own thread (``renders.AppRenders``), never on the render
thread; ``display`` only picks the frame for the time elapsed in the slot at the app's
own frame delay, and pushes it when it changed. ``needs_high_fps`` is set only while a
multi-frame app shows. Each app's slot lasts its own ``duration``: the plugin uses
dynamic duration (the slot ends when that app's time is up; the cap is the longest
duration of the shown apps).

An app whose Root sets ``show_full_animation`` keeps its slot until its animation has
played through once when that is longer than its duration (at most the longest
duration allowed, ``APP_DURATION``).
"""

from __future__ import annotations

import time
from typing import Any

from PIL import Image

from shared.bus.core import STARLARK_APPS, Bus
from shared.paths import Paths, resolve_paths
from shared.plugin_api.base_plugin import BasePlugin
from shared.starlark.installed.app_ids import app_of, mode_of
from shared.starlark.installed.folder import AppsFolder, InstalledApp, apps_root
from shared.starlark.installed.render_status import runtime_version

from .app_state import AppPlan
from .renders import AppRenders
from .scaling import render_size
from .settings import APP_DURATION, Settings, read_settings

DEFAULT_FRAME_DELAY_MS = 50


def frame_index(elapsed: float, delay_ms: int, count: int) -> int:
    """The frame shown ``elapsed`` seconds into a slot (the animation loops)."""
    if count <= 1:
        return 0
    step = delay_ms if delay_ms > 0 else DEFAULT_FRAME_DELAY_MS
    return int(max(0.0, elapsed) * 1000 // step) % count


class StarlarkAppsPlugin(BasePlugin):
    """Shows the installed scripted apps (module docstring)."""

    def __init__(self, plugin_id: str, config: dict[str, Any], display_manager: Any,
                 cache_manager: Any, plugin_manager: Any) -> None:
        super().__init__(plugin_id, config, display_manager, cache_manager, plugin_manager)
        self.needs_high_fps = False
        self.modes: list[str] = []
        paths = self._paths()
        self.folder = AppsFolder(apps_root(paths))
        self.settings: Settings = read_settings(self.config)
        bus = Bus(paths.cache_dir)
        self.renders = AppRenders(self._panel, lambda record: bus.publish(STARLARK_APPS, record),
                                  paths.cache_dir, runtime_version())
        self._slot_mode: str | None = None
        self._slot_started: float | None = None
        self._slot_duration = APP_DURATION[2]
        self._pushed: tuple[int, int] | None = None
        self._frame: Image.Image | None = None
        self.rescan()

    # -- lifecycle -----------------------------------------------------------

    def on_enable(self) -> None:
        super().on_enable()
        self.renders.start()

    def on_disable(self) -> None:
        super().on_disable()
        self.renders.stop()

    def cleanup(self) -> None:
        self.renders.stop()

    def on_config_change(self, new_config: dict[str, Any]) -> None:
        """Take the new settings, read the folder again and render what changed."""
        super().on_config_change(new_config)
        self.settings = read_settings(self.config)
        self.rescan()

    def update(self) -> None:
        """Keep the render thread running and the app list current (a safety net: the
        web saves the config after every install, which rescans at once)."""
        self.rescan()
        if self.enabled:
            self.renders.start()

    def rescan(self) -> None:
        """Read the apps folder: set ``modes`` and hand the render thread its plan."""
        installed = self.folder.apps()
        shown = [app for app in installed
                 if app.problem is None and self.settings.app(app.id).enabled]
        plans = {app.id: self._plan(app) for app in shown}
        self.modes = [mode_of(app.id) for app in shown]
        self.renders.set_plan(plans, self.settings.render_interval,
                              self.settings.render_seconds, {app.id for app in installed})

    def _plan(self, app: InstalledApp) -> AppPlan:
        own = self.settings.app(app.id)
        return AppPlan(app_id=app.id, main_path=self.folder.main_path(app),
                       config=dict(own.config), revision=own.revision,
                       duration=own.duration,
                       size=render_size(self.settings.scale, self._panel(), app.supports2x),
                       scale=self.settings.scale, installed_at=app.installed_at)

    # -- drawing -------------------------------------------------------------

    def display(self, force_clear: bool = False, display_mode: str | None = None) -> bool:
        """Show the app's frame for the time elapsed in its slot; False: nothing yet."""
        app_id = app_of(display_mode or "")
        shown = self.renders.shown(app_id) if app_id is not None else None
        if app_id is None or shown is None or not len(shown):
            self.needs_high_fps = False
            return False
        now = time.monotonic()
        if force_clear or self._slot_mode != display_mode or self._slot_started is None:
            self._start_slot(app_id, display_mode, now)
        index = frame_index(now - (self._slot_started or now), shown.delay_ms, len(shown))
        self.needs_high_fps = len(shown) > 1
        if self.needs_high_fps:
            self._pace(shown.delay_ms)
        wanted = (id(shown), index)
        if wanted != self._pushed or self._frame is None:
            self._frame, self._pushed = shown.image(index), wanted
        elif len(shown) > 1:
            return True  # the frame on the panel is still the one to show
        self.display_manager.image.paste(self._frame, (0, 0))
        self.display_manager.update_display()
        return True

    def _pace(self, delay_ms: int) -> None:
        """Ask for a call about twice per frame of the animation rather than at the
        panel's full refresh rate: the frame is picked by the time elapsed, so the
        animation keeps its speed; the loop does a quarter of the work for 90 ms frames."""
        pace = getattr(self.display_manager, "set_scrolling_state", None)
        refresh_hz = getattr(self.display_manager, "refresh_hz", None)
        if callable(pace) and isinstance(refresh_hz, int | float) and refresh_hz > 0:
            step = delay_ms if delay_ms > 0 else DEFAULT_FRAME_DELAY_MS
            pace(True, max(1, int(step * refresh_hz / 2000)))

    def _start_slot(self, app_id: str, mode: str | None, now: float) -> None:
        self._slot_mode, self._slot_started, self._pushed = mode, now, None
        self._slot_duration = self._app_seconds(app_id)

    def _app_seconds(self, app_id: str) -> float:
        """How long an app's slot lasts: its duration, or its whole animation when it
        asks for that (Root's show_full_animation), within the longest duration allowed."""
        seconds = self.settings.app(app_id).duration
        shown = self.renders.shown(app_id)
        if shown is not None and shown.full_animation:
            seconds = min(max(seconds, shown.length), APP_DURATION[1])
        return seconds

    def _panel(self) -> tuple[int, int]:
        return int(self.display_manager.width), int(self.display_manager.height)

    # -- each app's own duration ----------------------------------------------

    def supports_dynamic_duration(self) -> bool:
        return True

    def get_dynamic_duration_cap(self) -> float | None:
        durations = [self._app_seconds(app_of(mode) or "") for mode in self.modes]
        return max(durations, default=APP_DURATION[2])

    def reset_cycle_state(self) -> None:
        super().reset_cycle_state()
        self._slot_mode, self._slot_started, self._pushed = None, None, None

    def is_cycle_complete(self) -> bool:
        if self._slot_started is None:
            return False
        return time.monotonic() - self._slot_started >= self._slot_duration

    def _paths(self) -> Paths:
        paths = getattr(self.plugin_manager, "paths", None)
        return paths if isinstance(paths, Paths) else resolve_paths()

