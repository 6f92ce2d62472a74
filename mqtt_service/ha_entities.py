"""The panel's Home Assistant entities: one table, the one place their object ids live.

Each entity is a component (Home Assistant's MQTT platform name), an object id (the
last level of its discovery topic, and the end of its unique id and entity id) and the
fields of its own platform, written against the bridge's topics below. ``RETIRED`` keeps
the entities older versions published, so that clearing removes them from Home
Assistant too: when an entity is renamed or dropped, its old (component, object id)
moves there and stays.

Field names are Home Assistant's (the MQTT light's default schema, select, button,
sensor and notify platforms); the values are templates over the bridge's retained JSON
state ``<base>/state``.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from shared.mqtt import topics

# The bridge's topics, each under the base topic (shared.mqtt.topics fixes them).
AVAILABILITY = topics.AVAILABILITY
STATE = topics.STATE
POWER_SET = topics.COMMANDS["power"]
BRIGHTNESS_SET = topics.COMMANDS["brightness"]
PLUGIN_SET = topics.COMMANDS["plugin"]
NEXT_SET = topics.COMMANDS["next"]
RESTART_SET = topics.COMMANDS["restart"]
NOTIFY = topics.COMMANDS["notify"]

ONLINE = topics.ONLINE
OFFLINE = topics.OFFLINE
PAYLOAD_ON = "ON"
PAYLOAD_OFF = "OFF"
PAYLOAD_PRESS = "PRESS"
BRIGHTNESS_SCALE = 100  # the panel's brightness is a percentage: 0-100

Topic = Callable[[str], str]  # a suffix above -> the full topic under the base


def _value(field: str) -> str:
    """Return the template reading ``field`` of the state JSON (``None`` when absent)."""
    return "{{ value_json." + field + " }}"


def _light(topic: Topic, _plugins: list[str]) -> dict[str, Any]:
    return {
        "command_topic": topic(POWER_SET), "payload_on": PAYLOAD_ON,
        "payload_off": PAYLOAD_OFF,
        "state_topic": topic(STATE), "state_value_template": _value("power"),
        "brightness_command_topic": topic(BRIGHTNESS_SET),
        "brightness_state_topic": topic(STATE),
        # An unknown brightness (null) renders empty, which Home Assistant skips.
        "brightness_value_template": ("{{ value_json.brightness "
                                      "if value_json.brightness is number else '' }}"),
        "brightness_scale": BRIGHTNESS_SCALE,
        "icon": "mdi:led-strip-variant",
    }


def _select(topic: Topic, plugins: list[str]) -> dict[str, Any]:
    # A plugin that is not an option (none, a disabled one shown on demand) reads as
    # "None": Home Assistant shows unknown instead of logging an invalid option. The
    # options are plain ids (discovery.select_options), safe inside a template literal.
    options = json.dumps(plugins)
    template = ("{{ value_json.plugin_id if value_json.plugin_id in " + options
                + " else 'None' }}")
    return {
        "command_topic": topic(PLUGIN_SET), "options": list(plugins),
        "state_topic": topic(STATE), "value_template": template,
        "icon": "mdi:view-carousel",
    }


def _next(topic: Topic, _plugins: list[str]) -> dict[str, Any]:
    return {"command_topic": topic(NEXT_SET), "payload_press": PAYLOAD_PRESS,
            "icon": "mdi:skip-next"}


def _restart(topic: Topic, _plugins: list[str]) -> dict[str, Any]:
    return {"command_topic": topic(RESTART_SET), "payload_press": PAYLOAD_PRESS,
            "device_class": "restart", "entity_category": "config"}


def _showing(topic: Topic, _plugins: list[str]) -> dict[str, Any]:
    # Every state field (mode, plugin, on-demand, reason) rides along as an attribute.
    return {"state_topic": topic(STATE), "value_template": _value("showing"),
            "json_attributes_topic": topic(STATE), "icon": "mdi:television-play"}


def _errors(topic: Topic, _plugins: list[str]) -> dict[str, Any]:
    return {"state_topic": topic(STATE), "value_template": _value("errors"),
            "state_class": "measurement", "entity_category": "diagnostic",
            "icon": "mdi:alert-circle-outline"}


def _temperature(topic: Topic, _plugins: list[str]) -> dict[str, Any]:
    # A null temperature renders as "None", which Home Assistant shows as unknown.
    return {"state_topic": topic(STATE), "value_template": _value("temperature"),
            "device_class": "temperature", "unit_of_measurement": "°C",
            "state_class": "measurement", "entity_category": "diagnostic"}


def _notify(topic: Topic, _plugins: list[str]) -> dict[str, Any]:
    # Home Assistant sends the message as it is: the bridge takes plain text.
    return {"command_topic": topic(NOTIFY), "icon": "mdi:message-text"}


@dataclass(frozen=True)
class Entity:
    """One entity: its platform, object id, shown name (None: the device's name) and
    the builder of its platform's fields."""

    component: str
    object_id: str
    name: str | None
    fields: Callable[[Topic, list[str]], dict[str, Any]]
    commands: bool = False  # whether Home Assistant publishes on one of its topics


ENTITIES: tuple[Entity, ...] = (
    Entity("light", "light", None, _light, commands=True),
    Entity("select", "plugin", "Plugin", _select, commands=True),
    Entity("button", "next", "Next", _next, commands=True),
    Entity("button", "restart_display", "Restart display", _restart, commands=True),
    Entity("sensor", "showing", "Showing", _showing),
    Entity("sensor", "plugin_errors", "Plugin errors", _errors),
    Entity("sensor", "temperature", "Temperature", _temperature),
    Entity("notify", "notify", "Notification", _notify, commands=True),
)

# (component, object id) of entities an older version published; cleared with the rest.
RETIRED: tuple[tuple[str, str], ...] = ()


def every_config() -> list[tuple[str, str]]:
    """Return (component, object id) of every entity ever published, current first."""
    current = [(entity.component, entity.object_id) for entity in ENTITIES]
    return current + [pair for pair in RETIRED if pair not in current]
