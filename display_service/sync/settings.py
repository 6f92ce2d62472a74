"""The ``sync`` settings as the display acts on them, read tolerantly.

``sync.role`` (``standalone``, ``leader``, ``follower``), ``sync.group`` (a topic-safe
name, ``home`` by default), ``sync.leader`` (for a follower: the leader's panel name,
empty for any leader of the group) and ``sync.follower_position`` (``none``, ``left``,
``right``). Saves check them (``shared.config.values``); a hand-edited file with a bad
value gets the default for it and a problem line, never a stopped daemon.

A panel's name in its group is the last level of ``mqtt.base_topic`` (by default the
host's device name), made topic-safe: the same broker and the same identity the MQTT
bridge uses, so two panels on one host are told apart by their base topics.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from shared.config.values import FOLLOWER_POSITIONS, SYNC_ROLES
from shared.mqtt.settings import MqttSettings, read_settings, topic_name

STANDALONE, LEADER, FOLLOWER = SYNC_ROLES
DEFAULT_GROUP = "home"


@dataclass(frozen=True)
class SyncSettings:
    """What this panel does in its group, and the broker it meets the others on."""

    role: str = STANDALONE
    group: str = DEFAULT_GROUP
    leader: str = ""
    position: str = "none"
    name: str = "panel"
    mqtt: MqttSettings | None = None
    problems: tuple[str, ...] = ()

    @property
    def active(self) -> bool:
        """Return whether a client should be made: a role, and a usable broker."""
        return self.role != STANDALONE and self.mqtt is not None and self.mqtt.usable

    def why_inactive(self) -> str | None:
        """Return why a leader or follower makes no connection, or None."""
        if self.role == STANDALONE or self.active:
            return None
        return "MQTT is off or has no broker host (mqtt.enabled, mqtt.host)"


def _word(raw: Mapping[str, Any], key: str, allowed: tuple[str, ...],
          problems: list[str]) -> str:
    value = raw.get(key, allowed[0])
    if value in allowed:
        return str(value)
    problems.append(f"sync.{key} is not one of {', '.join(allowed)}")
    return allowed[0]


def _name(raw: Mapping[str, Any], key: str, default: str, problems: list[str]) -> str:
    value = raw.get(key, default)
    if value == default:
        return default
    if not isinstance(value, str) or topic_name(value) != value:
        problems.append(f"sync.{key} is not a topic-safe name (a-z, 0-9, _ and -)")
        return default
    return value


def read_sync_settings(config: Mapping[str, Any]) -> SyncSettings:
    """Return the sync settings of ``config`` (secrets merged in; untrusted)."""
    raw = config.get("sync")
    raw = raw if isinstance(raw, Mapping) else {}
    problems: list[str] = []
    mqtt = read_settings(config, config)
    return SyncSettings(
        role=_word(raw, "role", SYNC_ROLES, problems),
        group=_name(raw, "group", DEFAULT_GROUP, problems),
        leader=_name(raw, "leader", "", problems),
        position=_word(raw, "follower_position", FOLLOWER_POSITIONS, problems),
        name=topic_name(mqtt.base_topic.rsplit("/", 1)[-1]),
        mqtt=mqtt,
        problems=tuple(problems),
    )
