"""The sync topics' payloads: what a leader writes reads back; anything else is refused."""

from __future__ import annotations

import pytest

from display_service.sync import messages
from display_service.sync.messages import BadMessage, Status, Switch

SWITCH_TOPIC = "ledpanel/sync/home/leader/hall/switch"
STATUS_TOPIC = "ledpanel/sync/home/leader/hall/status"


def test_what_a_leader_publishes_reads_back() -> None:
    payload = messages.switch_payload(7, "clock", "clock_main", 1000.25, 1000.5)
    assert messages.parse(SWITCH_TOPIC, payload, "home") == Switch("hall", 7, "clock",
                                                                  "clock_main", 1000.25)
    nothing = messages.switch_payload(8, None, None, 1001.0, 1001.0)
    assert messages.parse(SWITCH_TOPIC, nothing, "home") == Switch("hall", 8, None, None, 1001.0)
    online = messages.status_payload(True, 1.0, 5.0)
    assert messages.parse(STATUS_TOPIC, online, "home") == Status("hall", True, 1.0)
    offline = messages.status_payload(False, 0.0, 0.0)
    assert messages.parse(STATUS_TOPIC, offline, "home") == Status("hall", False, 0.0)


def test_topics_name_the_group_and_the_leader() -> None:
    assert messages.leader_topic("home", "hall", "switch") == SWITCH_TOPIC
    assert messages.follow_topics("home", "", "none") == [
        "ledpanel/sync/home/leader/+/switch", "ledpanel/sync/home/leader/+/status"]
    assert messages.follow_topics("home", "hall", "left")[2] == (
        "ledpanel/sync/home/leader/hall/frame-left")


@pytest.mark.parametrize(("topic", "payload", "why"), [
    (SWITCH_TOPIC, b"\xff\xfe", "not JSON"),
    (SWITCH_TOPIC, b"{", "not JSON"),
    (SWITCH_TOPIC, b"[1]", "not a JSON object"),
    (SWITCH_TOPIC, b'{"v": 2, "seq": 1}', "version"),
    (SWITCH_TOPIC, b'{"v": 1, "seq": "1", "started_at": 1}', "seq"),
    (SWITCH_TOPIC, b'{"v": 1, "seq": true, "started_at": 1}', "seq"),
    (SWITCH_TOPIC, b'{"v": 1, "seq": 1, "plugin_id": "../x", "mode": "m", "started_at": 1}',
     "plugin_id"),
    (SWITCH_TOPIC, b'{"v": 1, "seq": 1, "plugin_id": "p", "mode": 5, "started_at": 1}', "mode"),
    (SWITCH_TOPIC, b'{"v": 1, "seq": 1, "plugin_id": "p", "mode": "m", "started_at": NaN}',
     "not JSON"),
    (SWITCH_TOPIC, b'{"v": 1, "seq": 1, "plugin_id": "p", "mode": "m"}', "started_at"),
    (SWITCH_TOPIC, b" " * (messages.MAX_PAYLOAD + 1), "bytes"),
    (STATUS_TOPIC, b'{"v": 1, "state": "maybe"}', "state"),
    (STATUS_TOPIC, b'{"v": 1, "state": "online", "heartbeat": 0}', "heartbeat"),
    ("ledpanel/sync/home/leader/hall/other", b"{}", "topic"),
    ("ledpanel/sync/home/leader/hall/frame-left", b"{}", "switch or status"),
    ("ledpanel/sync/home/leader/switch", b"{}", "topic"),
    ("ledpanel/sync/attic/leader/hall/switch", b"{}", "topic"),
])
def test_anything_else_is_refused_with_the_reason(topic: str, payload: bytes, why: str) -> None:
    with pytest.raises(BadMessage, match=why):
        messages.parse(topic, payload, "home")
