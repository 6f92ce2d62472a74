"""The services views call, kept in ``app.extensions`` and reached by ``services()``."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, cast

from flask import current_app

from shared import bus as bus_keys
from shared.bus import Bus
from shared.config.store import ConfigStore
from web_service.display_link import DisplayLink
from web_service.plugin_catalog import PluginCatalog
from web_service.settings import WebSettings

EXTENSION_KEY = "ledpanel"

SavePlan = Callable[[dict[str, Any], dict[str, Any]],
                    tuple[dict[str, Any], dict[str, Any], list[str]]]


@dataclass
class WebServices:
    """One web app's services."""

    settings: WebSettings
    store: ConfigStore
    bus: Bus
    catalog: PluginCatalog
    display: DisplayLink
    started_at: float = field(default_factory=time.time)

    @classmethod
    def build(cls, settings: WebSettings) -> WebServices:
        """Wire the services for ``settings``."""
        store = ConfigStore(settings.paths)
        bus = Bus(settings.paths.cache_dir)
        return cls(
            settings=settings,
            store=store,
            bus=bus,
            catalog=PluginCatalog(settings.paths, store),
            display=DisplayLink(bus, settings),
        )

    def save_config(self, plan: SavePlan) -> list[str]:
        """Apply ``plan`` to the stored config under the lock, then tell the display.

        ``plan(main, secrets)`` returns ``(new_main, new_secrets, changed_sections)`` or
        raises; nothing is written when it raises. Returns the changed sections.
        """
        changed: list[str] = []

        def change(main: dict[str, Any], secrets: dict[str, Any]) -> tuple[dict, dict]:
            new_main, new_secrets, sections = plan(main, secrets)
            changed.extend(sections)
            return new_main, new_secrets

        self.store.update(change)
        if changed:
            self.notify_config_changed(changed)
        return sorted(changed)

    def notify_config_changed(self, sections: list[str]) -> dict[str, Any]:
        """Tell the display daemon that the config was saved."""
        change = {"seq": time.time_ns(), "sections": sorted(sections), "saved_at": time.time()}
        self.bus.publish(bus_keys.CONFIG_CHANGED, change)
        return change


def services() -> WebServices:
    """Return the services of the current app."""
    return cast(WebServices, current_app.extensions[EXTENSION_KEY])
