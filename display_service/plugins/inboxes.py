"""Queued bus requests that a plugin takes itself, in its own ``update()``.

A bundled plugin whose content comes from outside (the ``custom-apps`` plugin: apps
pushed over HTTP or MQTT) reads its queue of requests on the bus in ``update()``. The
display watches the key; when a request is queued the render loop runs that plugin's
update at once, rather than at its next interval. The plugin changes its ``modes``
there, and the rotation follows when the update returns (``RenderLoop._follow_modes``).
"""

from __future__ import annotations

from shared.bus.core import CUSTOM_APP_REQUEST

# bus key -> the plugin that takes its requests
PLUGIN_INBOXES: dict[str, str] = {CUSTOM_APP_REQUEST: "custom-apps"}
