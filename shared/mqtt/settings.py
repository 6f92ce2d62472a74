"""The MQTT settings: config.json's ``mqtt`` section and its credentials.

``mqtt`` in config.json holds ``enabled``, ``host``, ``port``, ``tls``,
``base_topic`` and ``discovery_prefix``; ``username`` and ``password`` live in
config_secrets.json under the same section name, never in config.json and never in an
answer. Reading is tolerant: a value of the wrong type or out of range is taken as
its default and named in ``problems``, so a hand-edited file never stops a daemon.

The base topic defaults to ``ledpanel/<device name>``, the device name being the
host name made topic-safe (``topic_name``).
"""

from __future__ import annotations

import re
import socket
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

SECTION = "mqtt"
DEFAULT_PORT = 1883
DEFAULT_TLS_PORT = 8883
DEFAULT_DISCOVERY_PREFIX = "homeassistant"
MAX_TOPIC = 200
MAX_HOST = 253
MAX_CREDENTIAL = 256

_UNSAFE = re.compile(r"[^a-z0-9_-]+")


def topic_name(text: str) -> str:
    """Return ``text`` as one safe topic level: lower case, letters, digits, ``_``, ``-``."""
    name = _UNSAFE.sub("-", text.lower()).strip("-")
    return name[:64] or "panel"


def device_name() -> str:
    """Return this device's name for topics: the host name's first label, topic-safe."""
    return topic_name(socket.gethostname().split(".")[0])


def default_base_topic() -> str:
    """Return the base topic used when none is set: ``ledpanel/<device name>``."""
    return f"ledpanel/{device_name()}"


def topic_problem(topic: str, what: str = "base_topic") -> str | None:
    """Return why ``topic`` cannot be a topic prefix, or None when it can."""
    if not topic:
        return f"{what} must not be empty"
    if len(topic) > MAX_TOPIC:
        return f"{what} must be at most {MAX_TOPIC} characters"
    if any(c in topic for c in "+#\0") or topic.startswith("$"):
        return f"{what} must not contain +, # or a NUL, nor start with $"
    if topic.startswith("/") or topic.endswith("/") or "//" in topic:
        return f"{what} must not start or end with / nor hold an empty level"
    return None


@dataclass(frozen=True)
class MqttSettings:
    """The bridge's settings as read; ``problems`` names each value that was replaced."""

    enabled: bool = False
    host: str = ""
    port: int = DEFAULT_PORT
    tls: bool = False
    username: str = ""
    password: str = ""
    base_topic: str = field(default_factory=default_base_topic)
    discovery_prefix: str = DEFAULT_DISCOVERY_PREFIX
    problems: tuple[str, ...] = ()

    @property
    def usable(self) -> bool:
        """Return whether a connection should be made: enabled, with a host."""
        return self.enabled and bool(self.host)


def _text(raw: Mapping[str, Any], key: str, default: str, limit: int,
          problems: list[str]) -> str:
    value = raw.get(key, default)
    if value is None or value == "":
        return default
    if not isinstance(value, str) or len(value) > limit or "\0" in value:
        problems.append(f"mqtt.{key} is not a text of at most {limit} characters")
        return default
    return value


def _flag(raw: Mapping[str, Any], key: str, problems: list[str]) -> bool:
    value = raw.get(key, False)
    if not isinstance(value, bool):
        problems.append(f"mqtt.{key} is not true or false")
        return False
    return value


def _port(raw: Mapping[str, Any], tls: bool, problems: list[str]) -> int:
    default = DEFAULT_TLS_PORT if tls else DEFAULT_PORT
    value = raw.get("port", default)
    if value is None or value == "":
        return default
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 65535:
        problems.append("mqtt.port is not a port number (1-65535)")
        return default
    return value


def _topic(raw: Mapping[str, Any], key: str, default: str, problems: list[str]) -> str:
    value = _text(raw, key, default, MAX_TOPIC, problems)
    problem = topic_problem(value, f"mqtt.{key}")
    if problem:
        problems.append(problem)
        return default
    return value


def read_settings(config: Mapping[str, Any], secrets: Mapping[str, Any]) -> MqttSettings:
    """Return the settings from the main config and the secrets file (both untrusted)."""
    raw = config.get(SECTION)
    raw = raw if isinstance(raw, Mapping) else {}
    creds = secrets.get(SECTION)
    creds = creds if isinstance(creds, Mapping) else {}
    problems: list[str] = []
    if config.get(SECTION) is not None and not isinstance(config.get(SECTION), Mapping):
        problems.append("mqtt is not an object")
    tls = _flag(raw, "tls", problems)
    return MqttSettings(
        enabled=_flag(raw, "enabled", problems),
        host=_text(raw, "host", "", MAX_HOST, problems).strip(),
        port=_port(raw, tls, problems),
        tls=tls,
        username=_text(creds, "username", "", MAX_CREDENTIAL, problems),
        password=_text(creds, "password", "", MAX_CREDENTIAL, problems),
        base_topic=_topic(raw, "base_topic", default_base_topic(), problems),
        discovery_prefix=_topic(raw, "discovery_prefix", DEFAULT_DISCOVERY_PREFIX, problems),
        problems=tuple(problems),
    )
