"""Where Home Assistant discovery plugs into the bridge (part DISCOVERY fills these).

``on_connected`` runs after every connect, once the availability and state topics are
out: the place to publish the retained discovery messages. ``on_disabled`` runs while
the old connection still stands, when MQTT is switched off or its base topic or
discovery prefix changes: the place to clear them. Both get the ``Link`` (its
``settings`` and ``publish``) and the enabled plugin ids.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from mqtt_service.link import Link


def on_connected(link: Link, plugins: list[str]) -> None:
    """Publish what must follow every connect (discovery); nothing yet."""


def on_disabled(link: Link, plugins: list[str]) -> None:
    """Clear what ``on_connected`` published, before the connection closes; nothing yet."""
