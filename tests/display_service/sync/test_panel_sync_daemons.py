"""Panels as one, for real: display daemons as subprocesses on one mosquitto."""

from __future__ import annotations

import base64
import io
import json
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import paho.mqtt.client as paho
import pytest
from PIL import Image

from shared.bus.core import Bus
from shared.bus.display_control import answer, request_next
from shared.notify.fields import parse_notification
from shared.notify.requests import submit_notification
from tests.daemons import Daemon, Instance, start_display
from tests.display_service.helpers import wait_until
from tests.mqtt_broker import free_port
from tests.sync_panels import HALVES_CODE, panel, sync_of

pytestmark = pytest.mark.timeout(180)

LEADER_PLUGINS = {"alpha": ["alpha_one", "alpha_two"], "beta": ["beta_main"]}
FOLLOWER_PLUGINS = {"alpha": ["alpha_one", "alpha_two"], "beta": ["beta_main"],
                    "own": ["own_main"]}
WAIT = 20.0


@pytest.fixture
def daemons() -> Iterator[list[Daemon]]:
    started: list[Daemon] = []
    yield started
    for daemon in started:
        daemon.stop()


def leader_panel(tmp_path: Path, broker: Any, plugins: dict[str, list[str]]) -> Instance:
    return panel(tmp_path, "lead", {"role": "leader"}, broker, plugins,
                 durations={p: 1 for p in plugins})


def follower_panel(tmp_path: Path, broker: Any) -> Instance:
    # Its own rotation starts with a plugin the leader does not have, for a long slot:
    # whatever else it shows comes from the leader.
    return panel(tmp_path, "follow", {"role": "follower", "leader": "lead"}, broker,
                 FOLLOWER_PLUGINS, durations={"own": 600}, order=["own"])


def follows(leader_bus: Bus, state: dict[str, Any] | None) -> bool:
    """Whether a follower's state shows the leader's current switch: its seq, plugin and
    mode (one record of each, read together)."""
    leader_state = leader_bus.read("display_state") or {}
    mine, theirs = sync_of(state), sync_of(leader_state)
    shown = ((state or {}).get("plugin_id"), (state or {}).get("mode"))
    return (mine.get("state") == "following" and mine.get("seq") is not None
            and mine.get("seq") == theirs.get("seq") and shown[0] in LEADER_PLUGINS
            and shown == (leader_state.get("plugin_id"), leader_state.get("mode")))


def next_switch(bus: Bus, leader_bus: Bus, seen: list[int]) -> int:
    """Wait until the follower shows a switch of the leader's not in ``seen``; return its
    seq (from the record that matched, not a later read)."""
    matched: list[dict[str, Any]] = []

    def new_one(state: dict[str, Any] | None) -> bool:
        if state and follows(leader_bus, state) and sync_of(state)["seq"] not in seen:
            matched.append(state)
        return bool(matched)

    state = bus.wait_for("display_state", new_one, WAIT)
    assert matched, (state, leader_bus.read("display_state"))
    seq: int = sync_of(matched[0])["seq"]
    return seq


def wait_following(follower: Instance, leader: Instance, seqs: int = 1) -> list[int]:
    """Wait until the follower showed ``seqs`` different switches of the leader's."""
    seen: list[int] = []
    leader_bus, bus = Bus(leader.cache_dir), Bus(follower.cache_dir)
    for _ in range(seqs):
        seen.append(next_switch(bus, leader_bus, seen))
    return seen


def test_a_follower_shows_each_switch_of_its_leader_and_ignores_garbage(
        tmp_path: Path, mqtt_broker: Any, daemons: list[Daemon]) -> None:
    leader = leader_panel(tmp_path, mqtt_broker, LEADER_PLUGINS)
    follower = follower_panel(tmp_path, mqtt_broker)
    daemons += [start_display(leader), start_display(follower)]
    seqs = wait_following(follower, leader, seqs=3)
    assert seqs == sorted(seqs)
    state = Bus(follower.cache_dir).read("display_state") or {}
    assert state["showing"] == "sync" and state["reason"] == "follower of panel lead"
    assert sync_of(state)["leader"] == "lead"
    # "next" on a follower: the leader decides what comes next.
    found, _state = answer(Bus(follower.cache_dir),
                           request_next(Bus(follower.cache_dir), "http"), WAIT)
    assert found and found["state"] == "error" and "ask the leader" in found["error"], found

    client = paho.Client(paho.CallbackAPIVersion.VERSION2)
    client.connect(mqtt_broker.host, mqtt_broker.port)
    client.loop_start()
    try:
        for payload in (b"\xff not json", b'{"v": 1, "seq": "x"}', b"[]"):
            info = client.publish("ledpanel/sync/home/leader/lead/switch", payload, qos=1)
            info.wait_for_publish(5)
    finally:
        client.loop_stop()
        client.disconnect()
    bus = Bus(follower.cache_dir)
    ignored = bus.wait_for("display_state", lambda s: sync_of(s).get("ignored") == 3, WAIT)
    assert sync_of(ignored).get("ignored") == 3, ignored
    wait_until(lambda: "sync: ignored a message on ledpanel/sync/home/leader/lead/switch"
               in daemons[1].output(), timeout=WAIT)
    wait_following(follower, leader, seqs=2)  # the garbage changed nothing
    assert "Traceback" not in daemons[1].output()


def test_a_follower_goes_on_alone_when_its_leader_dies_and_follows_it_again(
        tmp_path: Path, mqtt_broker: Any, daemons: list[Daemon]) -> None:
    leader = leader_panel(tmp_path, mqtt_broker, LEADER_PLUGINS)
    follower = follower_panel(tmp_path, mqtt_broker)
    daemons += [start_display(leader), start_display(follower)]
    wait_following(follower, leader)

    daemons[0].process.kill()  # no goodbye: the heartbeats stop, the will follows
    daemons[0].process.wait(10)
    bus = Bus(follower.cache_dir)
    alone = bus.wait_for("display_state", lambda s: sync_of(s).get("state") == "leader lost",
                         WAIT)
    assert sync_of(alone)["state"] == "leader lost", alone
    assert alone and alone["plugin_id"] == "own" and alone["showing"] == "rotation"
    assert alone["reason"] == "rotation: slot 1 of 4; follower, leader lead lost", alone
    wait_until(lambda: "sync: leader lead lost" in daemons[1].output(), timeout=WAIT)

    daemons.append(start_display(leader))
    wait_following(follower, leader, seqs=2)
    wait_until(lambda: "sync: following leader lead"
               in daemons[1].output().split("leader lead lost")[-1], timeout=WAIT)


def test_a_follower_keeps_its_own_content_while_its_leader_shows_a_plugin_it_lacks(
        tmp_path: Path, mqtt_broker: Any, daemons: list[Daemon]) -> None:
    leader = leader_panel(tmp_path, mqtt_broker, {"alpha": ["alpha_one"], "gamma": ["g"]})
    follower = follower_panel(tmp_path, mqtt_broker)
    daemons += [start_display(leader), start_display(follower)]
    bus = Bus(follower.cache_dir)

    def lacking(state: dict[str, Any] | None) -> bool:
        return (sync_of(state).get("state") == "own content"
                and "gamma" in str(sync_of(state).get("detail")))

    state = bus.wait_for("display_state", lacking, WAIT)
    assert lacking(state), state
    assert state and state["plugin_id"] in FOLLOWER_PLUGINS and state["showing"] == "rotation"
    assert sync_of(state)["detail"] == (
        "leader lead shows gamma/g, which this panel does not have")
    assert state["reason"].endswith(
        "; follower, leader lead shows gamma/g, which this panel does not have"), state
    # The log line is read from the daemon's pipe: it may come a moment after the record.
    wait_until(lambda: "sync: own content: leader lead shows gamma/g" in daemons[1].output(),
               timeout=WAIT)
    # When the leader comes to a plugin this panel has, it follows again.
    back = bus.wait_for("display_state", lambda s: sync_of(s).get("state") == "following",
                        WAIT)
    assert back and back["plugin_id"] == "alpha", back


def test_both_panels_come_back_in_step_after_the_broker_restarts(
        tmp_path: Path, mqtt_broker: Any, daemons: list[Daemon]) -> None:
    leader = leader_panel(tmp_path, mqtt_broker, LEADER_PLUGINS)
    follower = follower_panel(tmp_path, mqtt_broker)
    daemons += [start_display(leader), start_display(follower)]
    wait_following(follower, leader)
    mqtt_broker.stop()  # retained messages gone with it (no persistence)
    bus = Bus(follower.cache_dir)
    alone = bus.wait_for("display_state", lambda s: sync_of(s).get("state") == "leader lost",
                         WAIT)
    assert alone and alone["plugin_id"] == "own", alone
    mqtt_broker.start()
    wait_following(follower, leader, seqs=2)
    wait_until(lambda: "sync: connection to the broker lost" in daemons[0].output(),
               timeout=WAIT)


def test_a_saved_role_applies_without_a_restart(
        tmp_path: Path, mqtt_broker: Any, daemons: list[Daemon]) -> None:
    leader = leader_panel(tmp_path, mqtt_broker, LEADER_PLUGINS)
    follower = panel(tmp_path, "follow", {"role": "standalone"}, mqtt_broker,
                     FOLLOWER_PLUGINS, durations={"own": 600}, order=["own"])
    daemons += [start_display(leader), start_display(follower)]
    bus = Bus(follower.cache_dir)
    state = bus.wait_for("display_state", lambda s: bool(s and s.get("plugin_id")), WAIT)
    assert state and state["sync"] == {"role": "standalone", "state": None, "leader": None}
    config = json.loads((follower.config_dir / "config.json").read_text())
    config["sync"]["role"] = "follower"
    follower.write_config(config)  # a hand edit: read after a quiet spell
    wait_following(follower, leader)
    config["sync"]["role"] = "standalone"
    follower.write_config(config)
    alone = bus.wait_for("display_state", lambda s: sync_of(s).get("role") == "standalone",
                         WAIT)
    assert alone and alone["plugin_id"] == "own" and alone["showing"] == "rotation", alone


def preview_colors(instance: Instance) -> set[tuple[int, int, int]]:
    """Return the colours of the panel's picture (its preview frame, asked for here)."""
    bus = Bus(instance.cache_dir)
    bus.publish("preview_viewer", {"until": time.time() + 60})
    frame = bus.wait_for("preview_frame", lambda f: bool(f and f.get("png_base64")), WAIT)
    assert frame, "no preview frame"
    image = Image.open(io.BytesIO(base64.b64decode(frame["png_base64"]))).convert("RGB")
    return {color for _count, color in image.getcolors(1 << 16) or []}


def test_a_follower_at_the_right_shows_the_right_part_of_its_leaders_wall(
        tmp_path: Path, mqtt_broker: Any, daemons: list[Daemon]) -> None:
    leader = panel(tmp_path, "lead", {"role": "leader", "wall": "right"}, mqtt_broker,
                   {"halves": ["halves"]}, codes={"halves": HALVES_CODE})
    follower = panel(tmp_path, "follow", {"role": "follower", "follower_position": "right"},
                     mqtt_broker, FOLLOWER_PLUGINS, durations={"own": 600}, order=["own"])
    daemons += [start_display(leader), start_display(follower)]
    bus = Bus(follower.cache_dir)
    state = bus.wait_for("display_state", lambda s: bool(s and s.get("showing") == "wall"),
                         WAIT)
    assert state and state["showing"] == "wall", (state, daemons[1].output())
    assert sync_of(state)["wall"] == "right" and sync_of(state)["state"] == "following"
    assert state["reason"] == "follower of panel lead (the right part of its picture)"
    # Its frames may reach the follower before its own record reaches the disk.
    leader_state = Bus(leader.cache_dir).wait_for(
        "display_state", lambda s: bool(s and s.get("width")), WAIT) or {}
    assert (leader_state["width"], state["width"]) == (2 * state["width"], state["width"])
    assert preview_colors(follower) == {(0, 255, 0)}  # the canvas' right half
    assert preview_colors(leader) == {(255, 0, 0), (0, 255, 0)}  # the whole wall

    daemons[0].process.kill()
    alone = bus.wait_for("display_state", lambda s: sync_of(s).get("state") == "leader lost",
                         WAIT)
    assert alone and alone["showing"] == "rotation" and alone["plugin_id"] == "own", alone
    daemons.append(start_display(leader))
    back = bus.wait_for("display_state", lambda s: bool(s and s.get("showing") == "wall"),
                        WAIT)
    assert back and back["showing"] == "wall", back


def test_a_follower_without_a_usable_broker_says_so_and_shows_its_own_rotation(
        tmp_path: Path, daemons: list[Daemon]) -> None:
    closed = free_port()  # nothing listens there
    nowhere = type("Nowhere", (), {"host": "127.0.0.1", "port": closed})()
    follower = panel(tmp_path, "follow", {"role": "follower"}, nowhere, FOLLOWER_PLUGINS,
                     durations={"own": 600}, order=["own"])
    config = json.loads((follower.config_dir / "config.json").read_text())
    config["mqtt"]["enabled"] = False
    follower.write_config(config)
    daemons.append(start_display(follower))
    bus = Bus(follower.cache_dir)
    off = bus.wait_for("display_state", lambda s: sync_of(s).get("state") == "no broker", WAIT)
    assert off and off["plugin_id"] == "own" and "mqtt.enabled" in sync_of(off)["detail"], off
    wait_until(lambda: "sync: follower but MQTT is off" in daemons[0].output(), timeout=WAIT)

    config["mqtt"]["enabled"] = True
    follower.write_config(config)
    trying = bus.wait_for("display_state", lambda s: sync_of(s).get("state") == "connecting",
                          WAIT)
    assert trying and trying["plugin_id"] == "own", trying
    assert sync_of(trying)["connection"] == "connecting"
    assert "Traceback" not in daemons[0].output()


def retained(broker: Any, topic: str) -> bytes | None:
    """Return the retained message of ``topic`` on ``broker`` (None when there is none)."""
    got: list[bytes] = []
    subscribed = threading.Event()
    client = paho.Client(paho.CallbackAPIVersion.VERSION2)
    client.on_message = lambda _c, _u, message: got.append(bytes(message.payload))
    client.on_subscribe = lambda *_args: subscribed.set()
    client.connect(broker.host, broker.port)
    client.loop_start()
    try:
        client.subscribe(topic, qos=1)
        assert subscribed.wait(10)
        # A retained message comes before the subscription's answer is handled; a ping
        # round trip after it makes sure nothing retained is still on its way.
        client.publish("ledpanel/test/ping", b"", qos=1).wait_for_publish(5)
    finally:
        client.loop_stop()
        client.disconnect()
    return got[-1] if got else None


def test_a_leader_stopping_cleanly_leaves_offline_and_its_last_switch_retained(
        tmp_path: Path, mqtt_broker: Any, daemons: list[Daemon]) -> None:
    leader = leader_panel(tmp_path, mqtt_broker, LEADER_PLUGINS)
    daemons.append(start_display(leader))
    bus = Bus(leader.cache_dir)
    assert bus.wait_for("display_state", lambda s: sync_of(s).get("state") == "connected", WAIT)
    status = "ledpanel/sync/home/leader/lead/status"
    assert json.loads(retained(mqtt_broker, status) or b"{}")["state"] == "online"
    switch = json.loads(retained(mqtt_broker, "ledpanel/sync/home/leader/lead/switch") or b"{}")
    assert switch["plugin_id"] in LEADER_PLUGINS and switch["seq"] > 0
    assert daemons[0].stop() == 0
    assert json.loads(retained(mqtt_broker, status) or b"{}") == {"v": 1, "state": "offline"}


def test_a_notification_on_the_leader_is_no_switch_for_its_followers(
        tmp_path: Path, mqtt_broker: Any, daemons: list[Daemon]) -> None:
    # Long slots: nothing but the notification could change what the leader shows.
    leader = panel(tmp_path, "lead", {"role": "leader"}, mqtt_broker, LEADER_PLUGINS,
                   durations={p: 600 for p in LEADER_PLUGINS})
    follower = follower_panel(tmp_path, mqtt_broker)
    daemons += [start_display(leader), start_display(follower)]
    (seq,) = wait_following(follower, leader)
    leader_bus, bus = Bus(leader.cache_dir), Bus(follower.cache_dir)
    checked, problem = parse_notification({"text": "Door open", "duration": 2,
                                           "behavior": "now"})
    assert checked is not None, problem
    submit_notification(leader_bus, checked, "http")
    shown = leader_bus.wait_for("display_state",
                                lambda s: (s or {}).get("showing") == "notification", WAIT)
    assert shown and shown["showing"] == "notification", shown
    over = leader_bus.wait_for("display_state",
                               lambda s: (s or {}).get("showing") == "rotation", WAIT)
    assert over and over["showing"] == "rotation", over
    assert sync_of(over)["seq"] == seq  # no switch was published for the notification
    state = bus.read("display_state") or {}
    assert sync_of(state)["seq"] == seq and state["showing"] == "sync", state


def test_a_panel_made_leader_while_it_runs_says_at_once_what_it_shows(
        tmp_path: Path, mqtt_broker: Any, daemons: list[Daemon]) -> None:
    # Slots of ten minutes: only the change of role can tell the follower what to show.
    leader = panel(tmp_path, "lead", {"role": "standalone"}, mqtt_broker, LEADER_PLUGINS,
                   durations={p: 600 for p in LEADER_PLUGINS})
    follower = follower_panel(tmp_path, mqtt_broker)
    daemons += [start_display(leader), start_display(follower)]
    bus = Bus(follower.cache_dir)
    waiting = "waiting for a leader"
    assert bus.wait_for("display_state", lambda s: sync_of(s).get("state") == waiting, WAIT)
    config = json.loads((leader.config_dir / "config.json").read_text())
    config["sync"]["role"] = "leader"
    leader.write_config(config)
    state = bus.wait_for("display_state", lambda s: sync_of(s).get("state") == "following",
                         WAIT)
    assert state and (state["plugin_id"], state["mode"]) == ("alpha", "alpha_one"), state
