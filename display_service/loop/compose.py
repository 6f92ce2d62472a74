"""What the next frame shows, and drawing it: the layers above the plugin call.

By priority: a notification (``display_service.notify``: it holds the controller, so
every layer below keeps its time left), an on-demand request, live content, the
full-screen mode when one is set and active (``full_screen.py``), then the rotation
(``controller.py``). While the power schedule says off, the panel is blank unless an
on-demand request is active (an explicit request shows even at night) or a critical
notification may wake it (``notifications.critical_wakes_panel``). Turned off by hand
(a ``display_control`` power request), the panel is blank whatever is active, a
critical notification too, until turned on.

A frame is drawn when its time has come or when what should be shown changed (another
entry, a new slot of the same entry, another request, power on or off), so a change is
drawn at the loop's next wake, never at the end of the current entry.

No stale pictures: when the shown plugin draws nothing (``display()`` returned False,
raised, or the plugin is skipped), the rotation tries the next entry at once, whose
frame replaces the old picture; when there is nothing left to try (a whole round drew
nothing, or the on-demand plugin draws nothing) the panel is blanked, so it never goes
on showing the previous plugin's picture under another plugin's name.

Dynamic duration: the plugin is asked ``is_cycle_complete()`` after each frame it draws;
the controller ends the slot no sooner than ``MIN_DYNAMIC_SLOT`` after it began (a
plugin that always says "complete" would otherwise be redrawn thousands of times a
second). The next entry's first frame follows at once; when the same entry starts a
new cycle (it is alone in the list), its first frame comes at its usual cadence.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from display_service.control.controller import LIVE, ON_DEMAND, ROTATION, Controller
from display_service.control.rotation import Entry
from display_service.loop.frames import STATIC_INTERVAL, FramePainter
from display_service.loop.full_screen import FullScreenMode
from display_service.loop.schedules import PanelSchedule
from display_service.plugins.display_manager import DisplayManager

FULL_SCREEN, OFF, NOTIFICATION, WALL = "full_screen", "off", "notification", "wall"
Key = tuple[Any, ...]
_START: Key = ("<start>",)  # differs from every real key: the first frame always draws


class Compositor:
    """Pick the layer to show, draw its frame, and keep the next frame's deadline."""

    def __init__(self, *, controller: Controller, panel: PanelSchedule, painter: FramePainter,
                 display: DisplayManager, full_screen: FullScreenMode | None,
                 on_switch: Callable[[], None], notifications: Any = None) -> None:
        self.controller = controller
        self.notifications = notifications  # a NotificationLayer, or None
        self.panel = panel
        self.painter = painter
        self.display = display
        self.full_screen = full_screen
        self.on_switch = on_switch
        # A follower's part of its leader's wall (``sync.wall.WallView``): above live
        # content and the rotation, below an on-demand request; set by the loop.
        self.wall: FullScreenMode | None = None
        self.due = 0.0
        self._last_key: Key | None = _START
        self._starts_seen = -1
        self._blanked = False  # the panel was blanked under the shown plugin: redraw it all

    @property
    def blanked(self) -> bool:
        """Return whether the panel was blanked because the shown entry drew nothing."""
        return self._blanked

    def layer(self) -> str:
        """Return what the panel shows: notification, on_demand, live, full_screen,
        rotation or off."""
        if self.notifications is not None and self.notifications.showing() is not None:
            return NOTIFICATION
        return self.base_layer()

    def base_layer(self) -> str:
        """Return what the layers below notifications show (``layer`` without them)."""
        layer = self.controller.layer()
        panel = self.panel
        if not panel.power_on and (layer != ON_DEMAND or panel.manual is False):
            return OFF  # an on-demand shows at night, not when turned off by hand
        if layer != ON_DEMAND and self.wall is not None and self.wall.active():
            return WALL  # a follower's part of its leader's wall (display_service/sync)
        fs = self.full_screen
        if fs is not None and fs.active():
            # Live content outranks the full-screen mode only when the mode allows it
            # (vegas_scroll.live_priority / live_interrupt).
            allows = getattr(fs, "allows_live_interrupt", None)
            if layer == ROTATION or (layer == LIVE and callable(allows) and not allows()):
                return FULL_SCREEN
        return layer

    def key(self, now: float) -> Key | None:
        """Return what identifies the shown slot; None when the panel is blank."""
        shown = self.notifications.showing() if self.notifications is not None else None
        if shown is not None:
            return (NOTIFICATION, shown.id, shown.seq, shown.shown_at)
        return self.base_key(now)

    def base_key(self, now: float) -> Key | None:
        """Return what identifies the slot of the layers below notifications."""
        layer = self.base_layer()
        entry = self.controller.current(now)
        if layer in (FULL_SCREEN, WALL):
            return (layer,)
        if layer == OFF or entry is None:
            return None
        od = self.controller.on_demand
        return (entry.plugin_id, entry.mode, od.request_id if od else None,
                self.controller.starts)

    def needs_frame(self, now: float) -> bool:
        """Return whether a frame is due now or what is shown changed."""
        return now >= self.due or self.key(now) != self._last_key

    def render(self, now: float) -> None:
        """Draw the frame for ``now`` and set ``due`` for the next one."""
        key = self.key(now)
        force = key != self._last_key
        if force:
            self._last_key = key
            self.display.set_scrolling_state(False)
            self.on_switch()
        entry = self.controller.current(now)
        if key is not None and key[0] == NOTIFICATION and self.notifications is not None:
            self.due = self.notifications.render(now)
            self._blanked = False  # the notification covers the whole panel
        elif self.wall is not None and key == (WALL,):  # needs no entry of its own
            self.due = self.wall.render(now, force)
        elif key is None or entry is None:
            if force:
                self.display.blank()
            self.due = now + STATIC_INTERVAL
        elif self.full_screen is not None and key == (FULL_SCREEN,):
            self.due = self.full_screen.render(now, force)
        else:
            self._render_entry(entry, now, force)

    def _render_entry(self, entry: Entry, now: float, force: bool) -> None:
        """Draw an on-demand, live or rotation entry and set ``due`` for its next frame."""
        if self._starts_seen != self.controller.starts:
            self._starts_seen = self.controller.starts
            if entry.dynamic:
                self.painter.reset_cycle(entry)
        if not self.painter.draw(entry, force or self._blanked):
            wait = self.controller.no_content(now)
            self.due = now + wait
            if wait > 0:  # nothing else to try now: take the old picture off the panel
                self.display.blank()
                self._blanked = True
            return
        self._blanked = False
        self.controller.had_content()
        if self._hands_over(entry, now):
            self.due = now  # the next entry's first frame, at once
            return
        interval = self.painter.interval(entry)
        late = not (self.due <= now < self.due + interval)
        self.due = (now if late or force else self.due) + interval

    def _hands_over(self, entry: Entry, now: float) -> bool:
        """Return whether a dynamic entry's finished cycle hands the panel to another entry.

        The same entry starting a new cycle draws its first frame at the usual cadence.
        """
        if not (entry.dynamic and self.controller.layer() in (ROTATION, LIVE)
                and self.painter.cycle_complete(entry) and self.controller.cycle_complete(now)):
            return False
        following = self.controller.current(now)
        return following is not None and following.key != entry.key
