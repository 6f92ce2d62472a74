"""The notification layer: above on-demand, live, full-screen and rotation.

The render loop hands it each ``notify_request`` (``handle``) and calls ``step`` once
per pass with what the layers below show (``base_key``) and whether the power schedule
keeps the panel on. ``step`` notices the end of a display mode below (the key
changed), ends the showing notification when its time is up, expires those that
waited too long and picks what shows (``queue.py`` has the rules). While one shows,
the controller is held (every layer below keeps its time left) and ``render`` paints
it with ``shared.notify.draw``.

One log line per notification queued, shown, dismissed, expired or dropped, and the
same events in the operation history (``on_event``: the display's history writer's
``notification_event``); the
``notifications`` record (``record.py``) is published whenever the stack changes.
Settings: the config's ``notifications`` section (``critical_wakes_panel``,
``max_wait_seconds``).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from display_service.notify.queue import (
    DEFAULT_MAX_WAIT,
    SHOWN,
    Finished,
    Notification,
    NotificationQueue,
)
from display_service.notify.record import restore, snapshot
from shared.bus.core import NOTIFICATIONS
from shared.notify.fields import parse_notification
from shared.notify.icon_source import icon_image
from shared.notify.requests import ID_PATTERN, SOURCES

if TYPE_CHECKING:  # drawing is imported with the first notification shown: the start
    from shared.notify.draw import Card  # does not need it (the layout code, Pillow's fonts)

logger = logging.getLogger(__name__)

STATIC_REDRAW = 1.0
MIN_MAX_WAIT, MAX_MAX_WAIT = 10.0, 86400.0
_UNSET: Any = ("<unset>",)


def settings(config: dict[str, Any]) -> tuple[bool, float]:
    """Return (critical_wakes_panel, max_wait_seconds) from the config, read tolerantly."""
    section = config.get("notifications") if isinstance(config, dict) else None
    section = section if isinstance(section, dict) else {}
    wakes = section.get("critical_wakes_panel") is True
    wait = section.get("max_wait_seconds")
    if not isinstance(wait, (int, float)) or isinstance(wait, bool):
        wait = DEFAULT_MAX_WAIT
    return wakes, float(min(max(wait, MIN_MAX_WAIT), MAX_MAX_WAIT))


def notification_reason(scene: Any, shown: Notification | None) -> str:
    """Return the status's reason while a notification shows (``loop/reason.py``'s
    ``REASONS`` entry): "notification from mqtt (high priority)"."""
    if shown is None:
        return "notification"
    sentence = f"notification from {shown.source} ({shown.priority} priority)"
    if getattr(scene, "power_cause", None) == "schedule":
        sentence += "; a critical one wakes the panel the power schedule keeps off"
    return sentence


class NotificationLayer:
    """The stack, the controller hold while one shows, painting it, its record."""

    def __init__(self, display: Any, controller: Any, writer: Any,
                 clocks: tuple[Callable[[], float], Callable[[], float]],
                 assets_dir: Path | None) -> None:
        """``clocks``: the loop's monotonic clock and the wall clock."""
        self.display = display
        self.controller = controller
        self.writer = writer
        self.clock, self.wall = clocks
        self.assets_dir = assets_dir
        self.queue = NotificationQueue()
        self.critical_wakes = False
        self._base_key: Any = _UNSET
        self._card: tuple[str, int, Card] | None = None
        self._dirty = False
        # (notification id, what, origin, detail): the operation history's hook.
        self.on_event: Callable[[str, str, str, str], None] | None = None

    def _event(self, notification: Notification, what: str, detail: str) -> None:
        if self.on_event is not None:
            self.on_event(notification.id, what, notification.source, detail)

    # -- configuration and start ---------------------------------------------

    def configure(self, config: dict[str, Any]) -> None:
        """Apply the ``notifications`` config section."""
        self.critical_wakes, self.queue.max_wait = settings(config)

    def restore(self, record: Any, now: float) -> None:
        """Wait again for the notifications an earlier run left in its record."""
        waiting, recent = restore(record, now, self.wall(), self.queue.max_wait)
        self.queue.recent.extend(recent)
        for notification in waiting:
            self._log_finished(self.queue.add(notification))
        if waiting:
            logger.info("notifications: %d waiting again after a restart", len(waiting))
        self._dirty = True

    # -- requests ------------------------------------------------------------

    def handle(self, request: Any, now: float) -> None:
        """Apply one ``notify_request`` (untrusted: a malformed one is logged and skipped)."""
        if not isinstance(request, dict):
            return
        action, nid, source = request.get("action"), request.get("id"), request.get("source")
        if not isinstance(nid, str) or not ID_PATTERN.match(nid) or source not in SOURCES:
            logger.warning("notifications: request without a valid id or source skipped")
            return
        if action == "dismiss":
            self._dismiss(nid, str(source))
        elif action == "add":
            self._add(nid, str(source), request, now)
        else:
            logger.warning("notifications: unknown action in request %s skipped", nid)

    def _add(self, nid: str, source: str, request: dict[str, Any], now: float) -> None:
        if nid in self.queue.ids():
            return  # the same request seen twice
        fields, problem = parse_notification(request.get("notification"))
        if fields is None:
            logger.warning("notifications: %s from %s refused: %s", nid, source, problem)
            if self.on_event is not None:
                self.on_event(nid, "refused", source, str(problem))
            return
        added_at = request.get("requested_at")
        if not isinstance(added_at, (int, float)) or isinstance(added_at, bool):
            added_at = self.wall()
        notification = Notification(nid, fields, source, float(added_at), now)
        self._log_finished(self.queue.add(notification))
        logger.info("notification %s from %s queued (%s, %s)", nid, source,
                    fields["priority"], fields["behavior"])
        self._event(notification, "queued", fields["text"])
        self._dirty = True

    def _dismiss(self, nid: str, source: str) -> None:
        finished = self.queue.dismiss(nid, f"dismissed over {source}")
        if finished is None:
            logger.info("notification %s: dismissed over %s, but it is not waiting or "
                        "showing", nid, source)
            return
        self._log_finished([finished])
        self._dirty = True

    # -- each pass -----------------------------------------------------------

    def step(self, now: float, base_key: Any, power_on: bool, may_wake: bool = True) -> bool:
        """Follow the layers below and time; decide what shows; return True if it changed.

        ``may_wake`` False (the panel was turned off by hand) keeps even a critical
        notification waiting while the panel is off.
        """
        if base_key != self._base_key or base_key is None:
            self._base_key = base_key
            self.queue.slot_ended()
        showing = self.queue.showing
        if showing is not None and showing.ends_at is not None and now >= showing.ends_at:
            self._log_finished([self.queue.end_showing(SHOWN, "shown to its end")])
            self._dirty = True
        self._log_finished(self.queue.expire(now))
        before = self.queue.showing
        changed = self.queue.pick(now, power_on, self.critical_wakes and may_wake)
        changed = changed or before is not showing
        if changed:
            self._dirty = True
            self._started(self.queue.showing, now)
        self._publish()
        return changed

    def _started(self, shown: Notification | None, now: float) -> None:
        if shown is None:
            self.controller.release(now)
            return
        self.controller.hold(now)
        logger.info("notification %s from %s shown (%s): %s", shown.id, shown.source,
                    shown.priority, str(shown.fields.get("text"))[:60])
        self._event(shown, "shown", str(shown.fields.get("text")))

    def showing(self) -> Notification | None:
        """Return the notification on the panel, if one is."""
        return self.queue.showing

    def next_due(self) -> float | None:
        """Return when the showing one ends or a waiting one expires."""
        showing = self.queue.showing
        times = [showing.ends_at] if showing is not None and showing.ends_at else []
        expiry = self.queue.next_expiry()
        return min([*times, *([expiry] if expiry is not None else [])], default=None)

    # -- drawing -------------------------------------------------------------

    def render(self, now: float) -> float:
        """Paint the showing notification; return when its next frame is due."""
        shown = self.queue.showing
        if shown is None or shown.shown_at is None:
            return now + STATIC_REDRAW
        from shared.notify.draw import SCROLL_PX_PER_S, render

        painted = render(self._card_of(shown), self.display, now - shown.shown_at)
        self.display.update_display()
        repeat = shown.fields.get("repeat")
        if painted.scrolling and isinstance(repeat, int) and shown.extra.get("timed") is None:
            shown.extra["timed"] = True
            shown.ends_at = shown.shown_at + repeat * painted.pass_seconds
        if painted.scrolling:
            return now + 1.0 / SCROLL_PX_PER_S
        return now + STATIC_REDRAW

    def _card_of(self, shown: Notification) -> Card:
        from shared.notify.draw import Card

        held = self._card
        if held is not None and held[0] == shown.id and held[1] == shown.seq:
            return held[2]
        fields = shown.fields
        color = fields.get("color")
        rgb: Any = tuple(color) if isinstance(color, list) and len(color) == 3 else (255, 255, 255)
        card = Card(str(fields.get("text", "")), rgb,
                    icon_image(fields.get("icon"), self.assets_dir))
        self._card = (shown.id, shown.seq, card)
        return card

    # -- the record and the log ----------------------------------------------

    def _publish(self) -> None:
        if not self._dirty:
            return
        self._dirty = False
        now, wall = self.clock(), self.wall()
        self.writer.put(NOTIFICATIONS, snapshot(self.queue, lambda t: wall - (now - t)))

    def _log_finished(self, finished: Sequence[Finished | None]) -> None:
        for item in finished:
            if item is None:
                continue
            self._dirty = True
            n = item.notification
            logger.info("notification %s from %s %s: %s", n.id, n.source, item.state,
                        item.reason)
            if item.state != SHOWN:  # "shown" is recorded when it starts showing
                self._event(n, item.state, item.reason)
