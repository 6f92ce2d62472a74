"""The reason's words for a custom app on the panel: which app, and where it came from.

A custom app is a mode ``custom-<name>`` of the ``custom-apps`` plugin, shown in the
rotation or on demand; the layer's sentence (``reason.py``) stays and gets
"; custom app <name> pushed over HTTP" (or MQTT, as the app's request said).
``install()`` wraps those layers' functions in ``reason.REASONS`` once; the render loop
calls it when it is imported.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from display_service.loop.reason import REASONS, Scene
from shared.notify.custom_requests import MODE_PREFIX, PLUGIN_ID

SOURCES = {"http": "HTTP", "mqtt": "MQTT"}
LAYERS = ("rotation", "on_demand")
_WRAPPED = "_ledpanel_custom_app_reason"


def custom_app_clause(scene: Scene) -> str:
    """"; custom app <name> pushed over <source>" when a custom app shows, else ""."""
    mode = scene.mode
    if scene.plugin_id != PLUGIN_ID or not mode or not mode.startswith(MODE_PREFIX):
        return ""
    name = mode[len(MODE_PREFIX):]
    source = _source_of(scene.loop, name)
    if source is None:  # not an app the plugin holds (its fallback mode "custom-apps")
        return ""
    return f"; custom app {name}" + (f" pushed over {SOURCES[source]}" if source in SOURCES
                                     else "")


def _source_of(loop: Any, name: str) -> str | None:
    """The source the plugin holds for app ``name``, "" when it holds none, None when it
    holds no such app (read defensively: plugin state)."""
    instances = getattr(getattr(loop, "plugins", None), "instances", None)
    plugin = instances.get(PLUGIN_ID) if isinstance(instances, dict) else None
    apps = getattr(plugin, "apps", None)
    if not isinstance(apps, dict) or name not in apps:
        return None
    source = getattr(apps[name], "source", None)
    return source if isinstance(source, str) else ""


def with_custom_app(describe: Callable[[Scene], str]) -> Callable[[Scene], str]:
    """``describe`` followed by the custom app's clause."""
    def described(scene: Scene) -> str:
        return describe(scene) + custom_app_clause(scene)

    setattr(described, _WRAPPED, True)
    return described


def install() -> None:
    """Add the clause to the layers a custom app shows in (once, however often called)."""
    for layer in LAYERS:
        describe = REASONS.get(layer)
        if describe is not None and not getattr(describe, _WRAPPED, False):
            REASONS[layer] = with_custom_app(describe)
