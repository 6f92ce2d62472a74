"""Putting custom-app requests on the bus, for the web and the MQTT bridge alike.

Each is a queued ``CUSTOM_APP_REQUEST`` (``shared.bus.core``) that the display's
``custom-apps`` plugin takes: ``set`` adds or replaces the app ``name`` (already checked
by ``shared.notify.custom_fields.parse_custom_app``), ``remove`` drops it. The bus adds
``request_id`` and ``requested_at`` (wall time: an app's lifetime counts from it).
"""

from __future__ import annotations

from typing import Any

from shared.bus.core import CUSTOM_APP_REQUEST, Bus

SOURCES = ("http", "mqtt")
PLUGIN_ID = "custom-apps"
MODE_PREFIX = "custom-"


def mode_of(name: str) -> str:
    """The display mode of the custom app ``name``."""
    return f"{MODE_PREFIX}{name}"


def set_custom_app(bus: Bus, name: str, checked: dict[str, Any], source: str) -> str:
    """Queue adding or replacing the custom app ``name``; return the request id."""
    return bus.request(CUSTOM_APP_REQUEST, {"action": "set", "name": name, "app": checked,
                                            "source": _source(source)})


def remove_custom_app(bus: Bus, name: str, source: str) -> str:
    """Queue removing the custom app ``name``; return the request id."""
    return bus.request(CUSTOM_APP_REQUEST, {"action": "remove", "name": name,
                                            "source": _source(source)})


def _source(source: str) -> str:
    if source not in SOURCES:
        raise ValueError(f"unknown request source {source!r}")
    return source
