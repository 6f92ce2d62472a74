"""Putting a notification request on the bus: what the web and the MQTT bridge call.

Both are queued commands under ``NOTIFY_REQUEST`` (the bus's ``request``: one file
each, never overwritten, taken by the display with ``take_all``). The notification id
is made here, so the caller can answer with it before the display has seen it.
"""

from __future__ import annotations

import re
import uuid
from typing import Any

from shared.bus.core import NOTIFY_REQUEST, Bus

SOURCES = ("http", "mqtt")
# What a notification id may be: the display checks ids read from the bus against it.
ID_PATTERN = re.compile(r"^[A-Za-z0-9_-]{1,64}$")


def new_notification_id() -> str:
    """Return a fresh notification id (16 hex digits)."""
    return uuid.uuid4().hex[:16]


def submit_notification(bus: Bus, checked: dict[str, Any], source: str) -> str:
    """Queue a checked notification (``parse_notification``'s) for the display; return its id."""
    notification_id = new_notification_id()
    bus.request(NOTIFY_REQUEST, {"action": "add", "id": notification_id,
                                 "notification": checked, "source": source})
    return notification_id


def dismiss_notification(bus: Bus, notification_id: str, source: str) -> None:
    """Queue the dismissal of a notification, waiting or showing."""
    if not ID_PATTERN.match(notification_id):
        raise ValueError(f"not a notification id: {notification_id[:70]!r}")
    bus.request(NOTIFY_REQUEST, {"action": "dismiss", "id": notification_id, "source": source})
