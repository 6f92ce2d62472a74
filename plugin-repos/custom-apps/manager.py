"""Custom Apps: apps pushed from outside (HTTP or MQTT), one display mode each.

A custom app ``<name>`` is the mode ``custom-<name>``: its text, icon and colour (a card
painted by ``shared.notify.draw``, as notifications are), or its pixel frames, shown in
its rotation slot. Each slot lasts the app's own ``duration`` (the plugin uses dynamic
duration), or, for an app with ``repeat`` whose text scrolls, until the text scrolled
through that many times (at most ``REPEAT_CAP`` seconds).

Requests (``custom_app_request`` on the bus, queued by
``shared.notify.custom_requests``) are taken in ``update()``: the display runs it at once
when one is queued, and every ``update_interval`` seconds, which also drops the apps
whose lifetime ended. ``modes`` then changes and the display's rotation follows when the
update returns (docs/DESIGN.md, "Custom apps"); an app past its lifetime is never drawn
meanwhile (``display`` returns False, so its slot is skipped). With no app the rotation
has the plugin's one fallback mode, which is skipped the same way.

The apps are kept in ``app_store`` (they survive a restart) and published as the
``custom_apps`` bus record (``shared.notify.custom_record``) with the outcome of the
last requests, which the web waits for.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from PIL import Image

from shared.bus.core import CUSTOM_APP_REQUEST, CUSTOM_APPS, Bus
from shared.errors import AtomicWriteError
from shared.notify.custom_fields import DURATION
from shared.notify.custom_record import MAX_OUTCOMES, summary
from shared.notify.custom_requests import MODE_PREFIX, mode_of
from shared.notify.draw import Card, render
from shared.paths import Paths, resolve_paths
from shared.plugin_api.base_plugin import BasePlugin

from .app_requests import REMOVED, SET, apply_requests
from .app_store import AppStore, HeldApp, store_path
from .card import card_of
from .pixel_frames import frame_at, frame_images

logger = logging.getLogger(__name__)

REPEAT_CAP = 600.0  # the longest slot of an app that ends after its text scrolled through


class CustomAppsPlugin(BasePlugin):
    """Shows the custom apps pushed from outside (module docstring)."""

    def __init__(self, plugin_id: str, config: dict[str, Any], display_manager: Any,
                 cache_manager: Any, plugin_manager: Any) -> None:
        super().__init__(plugin_id, config, display_manager, cache_manager, plugin_manager)
        paths = self._paths()
        self.store = AppStore(store_path(paths))
        self.assets_dir = paths.assets_dir
        self.bus = Bus(paths.cache_dir)
        now = time.time()
        self.apps: dict[str, HeldApp] = {n: a for n, a in self.store.load().items()
                                         if not a.expired(now)}
        self.modes: list[str] = [mode_of(name) for name in sorted(self.apps)]
        self.needs_high_fps = False
        self._outcomes: dict[str, dict[str, Any]] = {}
        self._published: dict[str, Any] | None = None
        self._slot: tuple[str, float] | None = None  # the mode shown and when it began
        # What the panel shows and what was made for it, each with the app it was made of
        # (compared by identity: a replaced app is a new object, never a reused id).
        self._pushed: tuple[HeldApp, int, tuple[int, int]] | None = None
        self._images: tuple[HeldApp, tuple[int, int], list[Image.Image]] | None = None
        self._card: tuple[HeldApp, Card] | None = None
        self._passes: int | None = None  # scroll passes of the shown card (None: it fits)
        self._publish(now)

    # -- requests and lifetimes (the update thread) ----------------------------

    def update(self) -> None:
        """Take the queued requests, drop expired apps, keep the file and record current."""
        now = time.time()
        apps, outcomes = apply_requests(self.apps, self.bus.take_all(CUSTOM_APP_REQUEST), now)
        for outcome in outcomes:
            self._outcomes.pop(outcome.request_id, None)
            self._outcomes[outcome.request_id] = outcome.as_record()
            logger.info("custom app %s: %s%s", outcome.name or "?", outcome.outcome,
                        f" ({outcome.problem})" if outcome.problem else "")
        for name in [n for n, app in apps.items() if app.expired(now)]:
            del apps[name]
            logger.info("custom app %s: lifetime over, removed", name)
        while len(self._outcomes) > MAX_OUTCOMES:
            del self._outcomes[next(iter(self._outcomes))]
        if apps.keys() != self.apps.keys() or any(o.outcome in (SET, REMOVED)
                                                  for o in outcomes):
            self.store.save(apps)
            self.apps = apps  # one assignment: the render thread sees old or new
            self.modes = [mode_of(name) for name in sorted(apps)]
        self._publish(now)

    def _publish(self, now: float) -> None:
        apps = [summary(a.name, a.app, a.source, a.set_at, a.expires_at)
                for a in self.apps.values()]
        record = {"apps": sorted(apps, key=lambda a: a["name"]),
                  "requests": dict(self._outcomes)}
        if record != self._published:
            try:
                self.bus.publish(CUSTOM_APPS, {**record, "updated_at": now})
            except AtomicWriteError as err:  # the next update tries again
                logger.error("custom apps: cannot publish the record: %s", err)
                return
            self._published = record

    # -- drawing (the render thread) -------------------------------------------

    def display(self, force_clear: bool = False, display_mode: str | None = None) -> bool:
        """Draw the app of ``display_mode``; False when there is none (or it expired)."""
        held = self._app_of(display_mode)
        if held is None or held.expired(time.time()):
            self.needs_high_fps = False
            return False
        now = time.monotonic()
        if force_clear or self._slot is None or self._slot[0] != display_mode:
            self._slot, self._pushed, self._passes = (display_mode or "", now), None, None
        elapsed = now - self._slot[1]
        if held.app.get("frames"):
            self._show_frame(held, elapsed)
        else:
            self._show_card(held, elapsed)
        return True

    def _show_frame(self, held: HeldApp, elapsed: float) -> None:
        frames = held.app["frames"]
        index = frame_at(elapsed, held.app.get("frame_ms"), len(frames))
        self.needs_high_fps = len(frames) > 1
        if self._is_pushed(held, index):
            return  # what the panel shows is still what to show
        self.display_manager.image.paste(self._frames(held)[index], (0, 0))
        self.display_manager.update_display()
        self._pushed = (held, index, self._panel())

    def _show_card(self, held: HeldApp, elapsed: float) -> None:
        if self._is_pushed(held, 0):
            return  # a card that fits is drawn once per slot
        if self._card is None or self._card[0] is not held:
            self._card = (held, card_of(held.app, self.assets_dir))
        painted = render(self._card[1], self.display_manager, elapsed)
        self.display_manager.update_display()
        self.needs_high_fps = painted.scrolling
        self._passes = painted.passes if painted.scrolling else None
        self._pushed = None if painted.scrolling else (held, 0, self._panel())

    def _is_pushed(self, held: HeldApp, index: int) -> bool:
        pushed = self._pushed
        return (pushed is not None and pushed[0] is held
                and (pushed[1], pushed[2]) == (index, self._panel()))

    def _frames(self, held: HeldApp) -> list[Image.Image]:
        made, panel = self._images, self._panel()
        if made is None or made[0] is not held or made[1] != panel:
            made = self._images = (held, panel, frame_images(held.app["frames"], panel))
        return made[2]

    def _app_of(self, mode: str | None) -> HeldApp | None:
        if not mode or not mode.startswith(MODE_PREFIX):
            return None
        return self.apps.get(mode[len(MODE_PREFIX):])

    def _panel(self) -> tuple[int, int]:
        return int(self.display_manager.width), int(self.display_manager.height)

    # -- each app's own duration ------------------------------------------------

    def supports_dynamic_duration(self) -> bool:
        return True

    def get_dynamic_duration_cap(self) -> float | None:
        return max((_longest(a) for a in self.apps.values()), default=DURATION[2])

    def reset_cycle_state(self) -> None:
        super().reset_cycle_state()
        self._slot, self._pushed = None, None

    def is_cycle_complete(self) -> bool:
        if self._slot is None:
            return False
        held = self._app_of(self._slot[0])
        if held is None:
            return True
        repeat = held.app.get("repeat")
        if repeat is not None and self._passes is not None:  # its text scrolls
            return self._passes >= repeat
        return time.monotonic() - self._slot[1] >= float(held.app["duration"])

    def _paths(self) -> Paths:
        paths = getattr(self.plugin_manager, "paths", None)
        return paths if isinstance(paths, Paths) else resolve_paths()


def _longest(held: HeldApp) -> float:
    """The longest slot an app may take: its duration, or the repeat cap."""
    duration = float(held.app["duration"])
    return max(duration, REPEAT_CAP) if held.app.get("repeat") is not None else duration
