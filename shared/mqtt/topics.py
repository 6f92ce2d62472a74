"""The bridge's topics under the base topic: fixed names other parts rely on.

State (retained): ``<base>/state``, ``<base>/plugins``, ``<base>/availability``.
Errors (not retained): ``<base>/error``. Commands (subscribed with QoS 1): the names
in ``COMMANDS`` plus ``<base>/custom/<name>``. docs/API.md, "MQTT", is the reference.
"""

from __future__ import annotations

STATE = "state"
PLUGINS = "plugins"
AVAILABILITY = "availability"
ERROR = "error"
ONLINE, OFFLINE = "online", "offline"
CUSTOM = "custom"
COMMAND_QOS = 1

# Command name -> its topic under the base.
COMMANDS: dict[str, str] = {
    "power": "power/set",
    "brightness": "brightness/set",
    "plugin": "plugin/set",
    "on_demand": "on_demand/set",
    "next": "next/set",
    "restart": "restart/set",
    "notify": "notify",
}
_BY_TOPIC = {suffix: name for name, suffix in COMMANDS.items()}


def topic(base: str, suffix: str) -> str:
    """Return ``<base>/<suffix>``."""
    return f"{base}/{suffix}"


def subscriptions(base: str) -> list[tuple[str, int]]:
    """Return every command topic filter with its QoS, for one subscribe call."""
    filters = [topic(base, suffix) for suffix in COMMANDS.values()]
    filters.append(topic(base, f"{CUSTOM}/+"))
    return [(name, COMMAND_QOS) for name in filters]


def command_of(base: str, name: str) -> tuple[str, str] | None:
    """Return ``(command, argument)`` for a topic under ``base``, None for any other.

    The argument is the custom app's name for ``custom``, else empty.
    """
    prefix = f"{base}/"
    if not name.startswith(prefix):
        return None
    rest = name[len(prefix):]
    if rest in _BY_TOPIC:
        return _BY_TOPIC[rest], ""
    if rest.startswith(f"{CUSTOM}/") and rest.count("/") == 1:
        return CUSTOM, rest[len(CUSTOM) + 1:]
    return None
