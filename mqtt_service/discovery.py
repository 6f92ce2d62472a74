"""Home Assistant MQTT discovery: the retained config messages that make the panel a device.

Pure functions, no client: ``discovery_messages`` returns (topic, JSON payload) pairs
for every entity in ``ha_entities``, ``clear_messages`` the empty payloads that remove
them (older versions' entities too). The bridge publishes both retained.

Topics follow Home Assistant's discovery layout
``<discovery_prefix>/<component>/<node_id>/<object_id>/config``; the node id is the base
topic made one safe level (``ledpanel/kitchen`` -> ``ledpanel_kitchen``), so each panel
on a broker, which needs a base topic of its own anyway, is a device of its own. The
entity id Home Assistant first gives is ``default_entity_id``
(``<component>.<node>_<object id>``); ``object_id`` (``<node>_<object id>``), which said
the same before Home Assistant 2025.10, is sent too for older installs (newer ones
ignore it).
"""

from __future__ import annotations

import ipaddress
import json
import re
import socket
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from mqtt_service.ha_entities import (
    AVAILABILITY,
    ENTITIES,
    OFFLINE,
    ONLINE,
    Entity,
    every_config,
)
from shared.hardware.rules import effective_size
from shared.mqtt import topics
from shared.mqtt.settings import MqttSettings, topic_name
from shared.version import CORE_VERSION

MANUFACTURER = "ledpanel"
MAX_OPTIONS = 200  # plugins offered by the select; more are left out
MAX_OPTION_CHARS = 100

_WILDCARDS = {"0.0.0.0", "::", ""}
_NOT_SLUG = re.compile(r"[^a-z0-9]+")
_OPTION = re.compile(rf"(?!\.)[A-Za-z0-9_.-]{{1,{MAX_OPTION_CHARS}}}")


@dataclass(frozen=True)
class HaDevice:
    """What Home Assistant shows of the panel on its device page."""

    name: str
    model: str
    sw_version: str = CORE_VERSION
    configuration_url: str | None = None


def node_id(settings: MqttSettings) -> str:
    """Return the node id level of this panel's discovery topics (``[a-z0-9_-]``)."""
    return topic_name(settings.base_topic.replace("/", "_"))


def config_topic(settings: MqttSettings, component: str, object_id: str) -> str:
    """Return the discovery config topic of one entity."""
    return f"{settings.discovery_prefix}/{component}/{node_id(settings)}/{object_id}/config"


def _slug(text: str) -> str:
    return _NOT_SLUG.sub("_", text.lower()).strip("_") or "panel"


def entity_ids(settings: MqttSettings, entity: Entity) -> tuple[str, str]:
    """Return (unique id, default entity id) of ``entity`` on this panel."""
    node = node_id(settings)
    return f"{node}_{entity.object_id}", f"{entity.component}.{_slug(node)}_{entity.object_id}"


def _older_object_id(default_entity_id: str) -> str:
    """Return what Home Assistant before 2025.10 took for the entity id: the part after
    the component."""
    return default_entity_id.split(".", 1)[1]


def select_options(plugin_ids: object) -> list[str]:
    """Return the plugin ids the select offers: plain ids (letters, digits, ``_.-``; no
    leading dot), each once, in order, bounded (the list comes from config.json:
    untrusted). ``none`` is left out: Home Assistant takes it for "no option"."""
    if not isinstance(plugin_ids, list | tuple):
        return []
    options: list[str] = []
    for plugin_id in plugin_ids:
        if (isinstance(plugin_id, str) and _OPTION.fullmatch(plugin_id)
                and plugin_id.lower() != "none" and plugin_id not in options):
            options.append(plugin_id)
        if len(options) == MAX_OPTIONS:
            break
    return options


def _device_fields(settings: MqttSettings, device: HaDevice) -> dict[str, Any]:
    fields: dict[str, Any] = {"identifiers": [node_id(settings)], "name": device.name,
                              "manufacturer": MANUFACTURER, "model": device.model,
                              "sw_version": device.sw_version}
    if device.configuration_url:
        fields["configuration_url"] = device.configuration_url
    return fields


def entity_config(settings: MqttSettings, device: HaDevice, entity: Entity,
                  options: list[str]) -> dict[str, Any]:
    """Return the discovery payload of one entity, as a dict."""
    unique_id, default_entity_id = entity_ids(settings, entity)
    base = settings.base_topic
    config: dict[str, Any] = {
        "name": entity.name, "unique_id": unique_id, "default_entity_id": default_entity_id,
        "object_id": _older_object_id(default_entity_id),
        "availability_topic": f"{base}/{AVAILABILITY}",
        "payload_available": ONLINE, "payload_not_available": OFFLINE,
        "device": _device_fields(settings, device),
        "origin": {"name": MANUFACTURER, "sw_version": device.sw_version},
    }
    if entity.commands:
        config["qos"] = topics.COMMAND_QOS  # at least once, as the bridge subscribes
    config.update(entity.fields(lambda suffix: f"{base}/{suffix}", options))
    return config


def discovery_messages(settings: MqttSettings, device: HaDevice,
                       plugin_ids: object) -> list[tuple[str, str]]:
    """Return (config topic, JSON payload) for every entity, to publish retained.

    With no plugin to offer the select's payload is empty: it is removed rather than
    shown with nothing to choose.
    """
    options = select_options(plugin_ids)
    messages: list[tuple[str, str]] = []
    for entity in ENTITIES:
        topic = config_topic(settings, entity.component, entity.object_id)
        if entity.component == "select" and not options:
            messages.append((topic, ""))
            continue
        payload = entity_config(settings, device, entity, options)
        messages.append((topic, json.dumps(payload, ensure_ascii=False,
                                           separators=(",", ":"))))
    return messages


def clear_messages(settings: MqttSettings) -> list[tuple[str, str]]:
    """Return (config topic, empty payload) for every entity this or an older version
    published: retained, they remove the panel from Home Assistant."""
    return [(config_topic(settings, component, object_id), "")
            for component, object_id in every_config()]


def device_name(settings: MqttSettings) -> str:
    """Return the device's shown name: the base topic's last level (the host name by
    default, ``ledpanel/<device name>``)."""
    return settings.base_topic.rsplit("/", 1)[-1]


def model_name(config: Mapping[str, Any]) -> str:
    """Return the model shown for the panel: its size from the config (untrusted)."""
    display = config.get("display")
    hardware = display.get("hardware") if isinstance(display, Mapping) else None
    width, height = effective_size(dict(hardware) if isinstance(hardware, Mapping) else {})
    return f"LED matrix {width}x{height}"


def configuration_url(address: Mapping[str, Any] | None,
                      host_name: str | None = None) -> str | None:
    """Return the web UI's address as another machine reaches it, or None.

    ``address`` is the web daemon's published ``{"host", "port"}``. Listening on every
    interface: the host's ``.local`` name (mDNS); on loopback only: None, since Home
    Assistant elsewhere cannot open it.
    """
    if not address:
        return None
    host, port = str(address.get("host", "")), address.get("port")
    if not isinstance(port, int) or isinstance(port, bool) or not 0 < port < 65536:
        return None
    if host in _WILDCARDS:
        name = (host_name or socket.gethostname()).split(".")[0]
        return f"http://{name}.local:{port}" if name else None
    if host == "localhost":
        return None
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return f"http://{host}:{port}"
    if ip.is_loopback:
        return None
    return f"http://[{host}]:{port}" if ip.version == 6 else f"http://{host}:{port}"


def panel_device(settings: MqttSettings, config: Mapping[str, Any],
                 web_address: Mapping[str, Any] | None) -> HaDevice:
    """Return the panel as a Home Assistant device, from the settings, the config and
    the web daemon's published address (None when it is not running)."""
    return HaDevice(name=device_name(settings), model=model_name(config),
                    configuration_url=configuration_url(web_address))
