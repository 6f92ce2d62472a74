"""Notification requests queued on a real bus folder, taken as the display takes them."""

from __future__ import annotations

from pathlib import Path

import pytest

from shared.bus.core import NOTIFY_REQUEST, Bus
from shared.notify.fields import parse_notification
from shared.notify.requests import dismiss_notification, submit_notification


def test_submit_and_dismiss_queue_in_order(tmp_path: Path) -> None:
    bus = Bus(tmp_path)
    checked, _ = parse_notification({"text": "hello"})
    assert checked is not None
    first = submit_notification(bus, checked, "http")
    dismiss_notification(bus, first, "mqtt")
    taken = bus.take_all(NOTIFY_REQUEST)
    assert [(r["action"], r["id"], r["source"]) for r in taken] == [
        ("add", first, "http"), ("dismiss", first, "mqtt")]
    assert taken[0]["notification"] == checked
    assert all("requested_at" in r and "request_id" in r for r in taken)
    assert bus.take_all(NOTIFY_REQUEST) == []


def test_dismiss_refuses_a_malformed_id(tmp_path: Path) -> None:
    with pytest.raises(ValueError):
        dismiss_notification(Bus(tmp_path), "../etc", "http")
