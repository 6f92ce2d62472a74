"""Notifications through the real display daemon: a subprocess over temporary folders,
requests put on its bus as the web and the MQTT bridge put them."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from shared.bus.core import NOTIFICATIONS, Bus
from shared.bus.display_control import request_next, request_power
from shared.notify.fields import parse_notification
from shared.notify.requests import dismiss_notification, submit_notification
from tests.daemons import Daemon, Instance, start_display
from tests.display_service.test_daemon import add_plugin

WAIT = 15.0


@pytest.fixture
def instance(tmp_path: Any) -> Instance:
    inst = Instance(tmp_path)
    add_plugin(inst.plugins_dir, "alpha", "AlphaPlugin", ["alpha_one", "alpha_two"])
    return inst


def configure(instance: Instance, slot: float, **extra: Any) -> None:
    instance.write_config({"alpha": {"enabled": True}, "display_durations": {"alpha": slot},
                           **extra})


@pytest.fixture
def daemon(instance: Instance) -> Iterator[Daemon]:
    started: list[Daemon] = []

    def start() -> Daemon:
        started.append(start_display(instance))
        return started[-1]

    instance.start = start  # type: ignore[attr-defined]
    yield start  # type: ignore[misc]
    for running in started:
        running.stop()
    for running in started:
        assert "Traceback" not in running.output(), running.output()


def notify(bus: Bus, **body: Any) -> str:
    checked, problem = parse_notification(body)
    assert checked is not None, problem
    return submit_notification(bus, checked, "http")


def showing(state: dict[str, Any] | None) -> tuple[Any, Any, Any]:
    state = state or {}
    shown = state.get("notification") or {}
    return state.get("showing"), shown.get("id"), (state.get("plugin_id"), state.get("mode"))


def wait_state(bus: Bus, predicate: Any, daemon: Daemon, timeout: float = WAIT) -> dict:
    state = bus.wait_for("display_state", lambda s: bool(s) and predicate(s), timeout)
    assert state and predicate(state), daemon.output()
    return state


def queue_of(record: dict[str, Any] | None) -> list[tuple[str, str]]:
    return [(e.get("id"), e.get("state")) for e in (record or {}).get("queue", [])]


def test_now_interrupts_at_once_and_the_entry_resumes_with_its_time_left(
        instance: Instance, daemon: Any) -> None:
    configure(instance, 6)
    bus = Bus(instance.cache_dir)
    display = daemon()
    wait_state(bus, lambda s: showing(s)[2] == ("alpha", "alpha_one"), display)
    began = time.monotonic()
    nid = notify(bus, text="Doorbell", icon="bell", behavior="now", duration=5)
    state = wait_state(bus, lambda s: showing(s)[:2] == ("notification", nid), display, 4)
    assert time.monotonic() - began < 3.0  # at once, not at the slot's end (6 s)
    assert state["plugin_id"] is None and state["notification"]["source"] == "http"
    assert state["reason"] == "notification from http (normal priority)"
    # "next" does not skip a notification: it says how to dismiss it
    asked = request_next(bus, "http")
    told = wait_state(bus, lambda s: asked in (s.get("requests") or {}), display, 5)
    assert "dismiss it" in str(told["requests"][asked])
    # 5 s later the 6 s slot would nearly be over: the interrupted entry comes back
    resumed = wait_state(bus, lambda s: s.get("showing") == "rotation", display)
    back_at = time.monotonic()
    assert showing(resumed)[2] == ("alpha", "alpha_one")
    assert back_at - began >= 4.5
    # ... for the time it had left (over 5 of its 6 s, more than the 3 s any resumed
    # entry gets), then the rotation moves on
    wait_state(bus, lambda s: showing(s)[2] == ("alpha", "alpha_two"), display)
    assert time.monotonic() - back_at >= 4.5
    record = bus.read(NOTIFICATIONS) or {}
    assert record["queue"] == [] and record["recent"][-1]["id"] == nid
    assert record["recent"][-1]["state"] == "shown"
    assert f"notification {nid} from http shown" in display.output()


def test_next_waits_for_the_slot_end_then_the_rotation_goes_on(
        instance: Instance, daemon: Any) -> None:
    configure(instance, 4)
    bus = Bus(instance.cache_dir)
    display = daemon()
    wait_state(bus, lambda s: showing(s)[2] == ("alpha", "alpha_one"), display)
    nid = notify(bus, text="Washing machine done", behavior="next", duration=2)
    record = bus.wait_for(NOTIFICATIONS, lambda r: (nid, "waiting") in queue_of(r), WAIT)
    assert (nid, "waiting") in queue_of(record), display.output()
    assert showing(bus.read("display_state"))[2] == ("alpha", "alpha_one")
    wait_state(bus, lambda s: showing(s)[:2] == ("notification", nid), display)
    after = wait_state(bus, lambda s: s.get("showing") == "rotation", display)
    assert showing(after)[2] == ("alpha", "alpha_two")


def test_priorities_order_the_stack_and_dismiss_removes_the_showing_one(
        instance: Instance, daemon: Any) -> None:
    configure(instance, 30)
    bus = Bus(instance.cache_dir)
    display = daemon()
    wait_state(bus, lambda s: s.get("showing") == "rotation", display)
    first = notify(bus, text="first", behavior="now", duration=60)
    wait_state(bus, lambda s: showing(s)[1] == first, display)
    low = notify(bus, text="low", priority="low")
    crit = notify(bus, text="crit", priority="critical")
    normal_queue = notify(bus, text="normal queue")
    high = notify(bus, text="high", priority="high", behavior="next")
    normal_next = notify(bus, text="normal next", behavior="next")
    normal_now = notify(bus, text="normal now", behavior="now")
    record = bus.wait_for(NOTIFICATIONS, lambda r: len(queue_of(r)) == 7, WAIT)
    assert queue_of(record) == [
        (first, "showing"), (crit, "waiting"), (high, "waiting"), (normal_now, "waiting"),
        (normal_next, "waiting"), (normal_queue, "waiting"), (low, "waiting")], display.output()
    dismiss_notification(bus, first, "http")
    wait_state(bus, lambda s: showing(s)[1] == crit, display)
    record = bus.read(NOTIFICATIONS) or {}
    assert {"id": first, "state": "dismissed"}.items() <= record["recent"][-1].items()
    assert f"notification {first} from http dismissed" in display.output()


def off_schedule() -> dict[str, Any]:
    """A power schedule whose window starts two hours from now: the panel is off."""
    start = datetime.now(UTC) + timedelta(hours=2)
    end = start + timedelta(hours=1)
    return {"enabled": True, "mode": "global", "start_time": start.strftime("%H:%M"),
            "end_time": end.strftime("%H:%M")}


def test_critical_wakes_the_off_panel_only_when_allowed_and_waits_over_a_restart(
        instance: Instance, daemon: Any) -> None:
    schedule = off_schedule()
    configure(instance, 30, timezone="UTC", schedule=schedule)
    bus = Bus(instance.cache_dir)
    display = daemon()
    wait_state(bus, lambda s: s.get("showing") == "off", display)
    crit = notify(bus, text="Smoke alarm", icon="alarm", priority="critical", behavior="now")
    record = bus.wait_for(NOTIFICATIONS, lambda r: (crit, "waiting") in queue_of(r), WAIT)
    assert queue_of(record) == [(crit, "waiting")], display.output()
    assert (bus.read("display_state") or {}).get("showing") == "off"
    # the daemon restarts: the notification still waits
    assert display.stop() == 0
    configure(instance, 30, timezone="UTC", schedule=schedule,
              notifications={"critical_wakes_panel": True})
    again = daemon()
    state = wait_state(bus, lambda s: showing(s)[:2] == ("notification", crit), again)
    assert state["power"] == "off"
    assert state["reason"].startswith("notification from http (critical priority); a critical")
    assert "1 waiting again after a restart" in again.output()
    normal = notify(bus, text="not at night", behavior="now")
    dismiss_notification(bus, crit, "http")
    state = wait_state(bus, lambda s: s.get("showing") == "off", again)
    assert (normal, "waiting") in queue_of(bus.read(NOTIFICATIONS))
    # turned off by hand, the panel stays off even for a critical one
    request_power(bus, False, "http")
    wait_state(bus, lambda s: s.get("power_cause") == "hand", again)
    late = notify(bus, text="Smoke again", priority="critical", behavior="now")
    record = bus.wait_for(NOTIFICATIONS, lambda r: (late, "waiting") in queue_of(r), WAIT)
    assert queue_of(record)[0] == (late, "waiting"), again.output()
    assert (bus.read("display_state") or {}).get("showing") == "off"
    # on again: what arrived while the panel was off shows, in order
    request_power(bus, True, "http")
    wait_state(bus, lambda s: showing(s)[:2] == ("notification", late), again)
    dismiss_notification(bus, late, "http")
    wait_state(bus, lambda s: showing(s)[:2] == ("notification", normal), again)


def test_garbage_requests_are_skipped(instance: Instance, daemon: Any) -> None:
    configure(instance, 30)
    bus = Bus(instance.cache_dir)
    display = daemon()
    wait_state(bus, lambda s: s.get("showing") == "rotation", display)
    bus.request("notify_request", {"action": "add", "id": "../x", "source": "http"})
    bus.request("notify_request", {"action": "add", "id": "abc", "source": "http",
                                   "notification": {"text": 5}})
    (instance.cache_dir / "notify_request@1-zz.json").write_text("[not json")
    good = notify(bus, text="fine", behavior="now")
    wait_state(bus, lambda s: showing(s)[1] == good, display)
    assert "abc from http refused: 'text' must be a string" in display.output()
    assert json.loads(json.dumps(bus.read(NOTIFICATIONS)))["queue"][0]["id"] == good
