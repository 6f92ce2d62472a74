"""The ``notifications`` bus record: written from the stack, read back after a restart.

Shape: ``{"queue": [...], "recent": [...]}``. ``queue`` holds the showing notification
first (``state: showing``), then the waiting ones in the order they will show
(``state: waiting``); each entry has ``id``, ``text``, ``priority``, ``behavior``,
``state``, ``source``, ``added_at`` (wall time), ``icon``, ``color``, ``duration``,
``repeat`` (the checked fields), and ``shown_at`` (wall time) while showing.
``recent`` holds the last 20 finished, oldest first: ``id``, ``state`` (``shown``,
``dismissed``, ``expired``, ``dropped``), ``reason``, ``source``, ``text``.

The record outlives the daemon: at start the display reads it back (as untrusted:
each entry is checked again with ``parse_notification``) and every notification that
was waiting or showing waits again, its age kept, so expiry still counts from its
arrival. One showing when the daemon stopped shows again from its start.
"""

from __future__ import annotations

from typing import Any

from display_service.notify.queue import (
    MAX_WAITING,
    SHOWING,
    WAITING,
    Notification,
    NotificationQueue,
)
from shared.notify.fields import FIELDS, parse_notification
from shared.notify.requests import ID_PATTERN, SOURCES


def entry(notification: Notification, state: str, wall_of: Any) -> dict[str, Any]:
    """Return one queue entry of the record (``wall_of`` turns loop time into wall time)."""
    data: dict[str, Any] = {**notification.fields, "id": notification.id, "state": state,
                            "source": notification.source, "added_at": notification.added_at}
    if notification.shown_at is not None:
        data["shown_at"] = wall_of(notification.shown_at)
    return data


def snapshot(queue: NotificationQueue, wall_of: Any) -> dict[str, Any]:
    """Return the record of the stack as it is now."""
    entries = [entry(queue.showing, SHOWING, wall_of)] if queue.showing else []
    entries += [entry(n, WAITING, wall_of) for n in queue.waiting]
    return {"queue": entries, "recent": list(queue.recent)}


def restore(record: Any, now: float, wall_now: float,
            max_wait: float) -> tuple[list[Notification], list[dict[str, Any]]]:
    """Return the notifications to wait again and the recent list of an old record."""
    if not isinstance(record, dict):
        return [], []
    queue = record.get("queue")
    waiting = [n for n in (_notification(e, now, wall_now, max_wait)
                           for e in (queue if isinstance(queue, list) else [])[:MAX_WAITING + 1])
               if n is not None]
    recent = record.get("recent")
    kept = [{k: r.get(k) for k in ("id", "state", "reason", "source", "text")}
            for r in (recent if isinstance(recent, list) else [])[-20:]
            if isinstance(r, dict) and isinstance(r.get("id"), str)
            and isinstance(r.get("state"), str)]
    return waiting, kept


def _notification(data: Any, now: float, wall_now: float,
                  max_wait: float) -> Notification | None:
    if not isinstance(data, dict):
        return None
    nid, source, added_at = data.get("id"), data.get("source"), data.get("added_at")
    if (not isinstance(nid, str) or not ID_PATTERN.match(nid) or source not in SOURCES
            or not isinstance(added_at, (int, float)) or isinstance(added_at, bool)):
        return None
    body = {k: data[k] for k in FIELDS if k in data and data[k] is not None}
    fields, problem = parse_notification(body)
    if fields is None or problem is not None:
        return None
    age = min(max(0.0, wall_now - float(added_at)), max_wait)
    return Notification(nid, fields, str(source), float(added_at), now - age, due=True)
