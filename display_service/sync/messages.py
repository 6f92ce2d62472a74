"""The sync topics and their payloads, written and read (everything read is untrusted).

Under ``ledpanel/sync/<group>/leader/<name>/``:

- ``switch`` (retained, QoS 0): ``{"v": 1, "seq", "plugin_id", "mode", "started_at",
  "sent_at"}``, published by the leader at every switch of what its panel shows;
  ``plugin_id`` and ``mode`` are null while it shows no plugin mode (off, blank, a
  full-screen mode). ``started_at`` is the slot's start on the leader's wall clock.
- ``frame-left``, ``frame-right`` (retained, QoS 0): a wall's side parts of the
  leader's picture, binary (``wall.py``).
- ``status`` (retained): ``{"v": 1, "state": "online", "heartbeat", "at"}`` every
  ``heartbeat`` seconds while the leader runs (QoS 0); ``{"v": 1, "state": "offline"}``
  when it stops, and as its last will when its connection is lost (QoS 1).

A message that is not one of these (too long, not JSON, a field of the wrong type, a
topic of another shape) is refused with the reason, which the follower logs.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import Any

from shared.files.jsontext import JsonLimitError, parse_bounded
from shared.ids import is_plain_segment

ROOT = "ledpanel/sync"
SWITCH, STATUS = "switch", "status"
FRAME_LEFT, FRAME_RIGHT = "frame-left", "frame-right"  # a wall's side parts (wall.py)
KINDS = (SWITCH, STATUS, FRAME_LEFT, FRAME_RIGHT)
ONLINE, OFFLINE = "online", "offline"
VERSION = 1
MAX_PAYLOAD = 2048
MAX_MODE = 128


class BadMessage(ValueError):
    """A message on a sync topic that is not one we publish; the text says why."""


@dataclass(frozen=True)
class Switch:
    """A leader's switch: what it shows from ``started_at`` (its wall clock) on."""

    leader: str
    seq: int
    plugin_id: str | None
    mode: str | None
    started_at: float


@dataclass(frozen=True)
class Status:
    """A leader's availability: online with its heartbeat interval, or offline."""

    leader: str
    online: bool
    heartbeat: float


def leader_topic(group: str, name: str, kind: str) -> str:
    """Return the topic of one leader's ``switch`` or ``status``."""
    return f"{ROOT}/{group}/leader/{name}/{kind}"


def follow_topics(group: str, leader: str, position: str) -> list[str]:
    """Return a follower's subscriptions: one named leader, or any (``+``); its side of
    a wall when it sits at one."""
    kinds = [SWITCH, STATUS] + ([f"frame-{position}"] if position in ("left", "right") else [])
    return [leader_topic(group, leader or "+", kind) for kind in kinds]


def switch_payload(seq: int, plugin_id: str | None, mode: str | None, started_at: float,
                   sent_at: float) -> bytes:
    return _encode({"seq": seq, "plugin_id": plugin_id, "mode": mode,
                    "started_at": round(started_at, 4), "sent_at": round(sent_at, 4)})


def status_payload(online: bool, heartbeat: float, at: float) -> bytes:
    body: dict[str, Any] = {"state": ONLINE if online else OFFLINE}
    if online:
        body.update(heartbeat=heartbeat, at=round(at, 3))
    return _encode(body)


def _encode(body: dict[str, Any]) -> bytes:
    return json.dumps({"v": VERSION, **body}, separators=(",", ":")).encode()


def topic_kind(topic: str, group: str) -> tuple[str, str]:
    """Return the leader and the kind (``switch``, ``status``, ``frame-left``, ...) of a
    topic; raise BadMessage when it is none of the group's leader topics."""
    prefix = f"{ROOT}/{group}/leader/"
    levels = topic[len(prefix):].split("/") if topic.startswith(prefix) else []
    if len(levels) != 2 or not levels[0] or levels[1] not in KINDS:
        raise BadMessage(f"topic {topic[:120]!r} is not a leader's switch, status or frame")
    return levels[0], levels[1]


def parse(topic: str, payload: bytes, group: str) -> Switch | Status:
    """Return the switch or status on ``topic``; raise BadMessage saying why it is not one
    (frames are read by ``wall.decode_frame``)."""
    leader, kind = topic_kind(topic, group)
    if kind not in (SWITCH, STATUS):
        raise BadMessage(f"topic {topic[:120]!r} is not a leader's switch or status")
    body = _body(payload)
    if kind == SWITCH:
        return _switch(leader, body)
    return _status(leader, body)


def _body(payload: bytes) -> dict[str, Any]:
    if len(payload) > MAX_PAYLOAD:
        raise BadMessage(f"payload of {len(payload)} bytes (at most {MAX_PAYLOAD})")
    try:
        body = parse_bounded(payload.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError, JsonLimitError, RecursionError) as err:
        raise BadMessage(f"payload is not JSON: {str(err)[:80]}") from None
    if not isinstance(body, dict):
        raise BadMessage("payload is not a JSON object")
    if body.get("v") != VERSION:
        raise BadMessage(f"payload version {str(body.get('v'))[:20]!r} is not {VERSION}")
    return body


def _number(body: dict[str, Any], key: str) -> float:
    value = body.get(key)
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise BadMessage(f"{key} is not a number")
    return float(value)


def _switch(leader: str, body: dict[str, Any]) -> Switch:
    seq = body.get("seq")
    if isinstance(seq, bool) or not isinstance(seq, int) or seq < 0:
        raise BadMessage("seq is not a whole number >= 0")
    plugin_id, mode = body.get("plugin_id"), body.get("mode")
    if plugin_id is None or mode is None:
        plugin_id = mode = None
    elif not is_plain_segment(plugin_id) or len(plugin_id) > MAX_MODE:
        raise BadMessage("plugin_id is not a plugin id")
    elif not isinstance(mode, str) or not mode or len(mode) > MAX_MODE:
        raise BadMessage(f"mode is not a text of 1-{MAX_MODE} characters")
    return Switch(leader, seq, plugin_id, mode, _number(body, "started_at"))


def _status(leader: str, body: dict[str, Any]) -> Status:
    state = body.get("state")
    if state == OFFLINE:
        return Status(leader, False, 0.0)
    if state != ONLINE:
        raise BadMessage(f"state is not {ONLINE} or {OFFLINE}")
    heartbeat = _number(body, "heartbeat")
    if not 0.1 <= heartbeat <= 3600:
        raise BadMessage("heartbeat is not between 0.1 and 3600 seconds")
    return Status(leader, True, heartbeat)
