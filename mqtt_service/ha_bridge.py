"""Home Assistant discovery wired into the bridge's connection (part DISCOVERY's
``Announcer`` does the publishing; this says when).

- On every connect: subscribe to Home Assistant's ``<discovery_prefix>/status`` and
  publish every discovery config (with the web UI's address as it is now).
- When the plugin list changes: the configs that changed.
- When Home Assistant says ``online``: every config again.
- Before the connection closes because MQTT was switched off, or the broker, the base
  topic or the discovery prefix changed: the empty configs that remove the panel.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from mqtt_service.discovery import HaDevice, panel_device
from mqtt_service.ha_announcer import Announcer, ha_status_topic
from shared.bus.web_address import published_web_address
from shared.mqtt.settings import MqttSettings

logger = logging.getLogger(__name__)
STATUS_QOS = 1
FORGET_WITHIN = 5.0  # seconds the empty configs may take before the disconnect


class HaBridge:
    """Discovery for one connection's settings."""

    def __init__(self, settings: MqttSettings, config: Mapping[str, Any], cache_dir: Path,
                 plugins: list[str]) -> None:
        self.settings = settings
        self.cache_dir = cache_dir
        self.config = config  # the newest seen: the panel size for the device's model
        self.status_topic = ha_status_topic(settings)
        self.announcer = Announcer(settings, self._device(config), plugins)

    def _device(self, config: Mapping[str, Any]) -> HaDevice:
        return panel_device(self.settings, config, published_web_address(self.cache_dir))

    def connected(self, client: Any, plugins: list[str]) -> None:
        client.subscribe(self.status_topic, STATUS_QOS)
        # The device again: the web daemon may have started (its address) since.
        count = self.announcer.announce(client, plugins, self._device(self.config))
        logger.info("mqtt: Home Assistant discovery published (%d configs)", count)

    def plugins_changed(self, client: Any, plugins: list[str],
                        config: Mapping[str, Any]) -> None:
        self.config = config
        self.announcer.update(client, plugins, self._device(config))

    def message(self, client: Any, topic: str, payload: bytes) -> bool:
        """Take Home Assistant's birth message; return whether ``topic`` was its."""
        if topic != self.status_topic:
            return False
        self.announcer.ha_status(client, payload)
        return True

    def forget(self, client: Any) -> None:
        if not self.announcer.forget(client, FORGET_WITHIN):
            logger.warning("mqtt: the broker did not take the discovery removal in time")

    def must_forget(self, new: MqttSettings) -> bool:
        """Return whether ``new`` settings leave this panel's discovery behind: MQTT off,
        another broker (the old one would keep a ghost panel), base topic or prefix."""
        where = ("host", "port", "base_topic", "discovery_prefix")
        return not new.usable or any(getattr(new, name) != getattr(self.settings, name)
                                     for name in where)
