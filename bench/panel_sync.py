"""Several panels as one: switch skew between a leader and its followers, and recovery.

Three headless display daemons (one leader, two followers), each over its own instance
folder, on one mosquitto on loopback (tests/mqtt_broker.py). Every switch of the
leader carries a ``seq``; each panel's ``display_state`` says the ``seq`` it shows and
``switched_at``, the wall-clock moment its render loop switched (before drawing the
first frame). The skew of a switch is a follower's ``switched_at`` minus the leader's.

Switches, after a warm-up of ``WARM_UP`` seconds: the leader's own rotation with 1 s
slots (the shortest a slot may be), then on-demand requests to the leader every
``REQUEST_GAP`` seconds (each one a switch the followers follow like any other).
Recovery: the leader killed (SIGKILL) or stopped (SIGTERM), then started again, and
frozen (SIGSTOP: its heartbeats stop while its connection stays open) then thawed;
timed until the followers say ``leader lost`` and until both follow again. Wall: a
leader with ``sync.wall`` ``both`` and followers at its left and right, its plugin
drawing a new colour at every frame; frame latency from the leader's debug line
"wall frame N sent" to the follower's "drawn" (both daemons at ``--log-level DEBUG``).
Target (issue 20): skew p95 < 50 ms on loopback.
"""

from __future__ import annotations

import re
import signal
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

from bench.common import cpu_seconds, percentile, summary
from shared.bus import core as keys
from shared.bus.core import Bus
from tests.daemons import Daemon, Instance, start_display
from tests.mqtt_broker import Broker
from tests.sync_panels import FLICKER_CODE, panel, sync_of

PLUGINS = {"alpha": ["alpha_one", "alpha_two"], "beta": ["beta_main"], "gamma": ["gamma"]}
ROTATION_SECONDS = 30.0
REQUESTS = 300
REQUEST_GAP = 0.12
RESTARTS = 3
WAIT = 30.0
WARM_UP = 5.0


class Recorder:
    """Each panel's ``seq`` -> ``switched_at``, read on every change of its state."""

    def __init__(self, instances: dict[str, Instance]) -> None:
        self.seen: dict[str, dict[int, float]] = {name: {} for name in instances}
        self.lock = threading.Lock()
        self.watchers = [Bus(instance.cache_dir).watch([keys.DISPLAY_STATE],
                                                       self._reader(name, instance))
                         for name, instance in instances.items()]

    def _reader(self, name: str, instance: Instance) -> Callable[[str], None]:
        bus = Bus(instance.cache_dir)
        return lambda _key: self._read(name, bus)

    def _read(self, name: str, bus: Bus) -> None:
        block = sync_of(bus.read(keys.DISPLAY_STATE))
        seq, at = block.get("seq"), block.get("switched_at")
        if isinstance(seq, int) and isinstance(at, float):
            with self.lock:
                self.seen[name].setdefault(seq, at)

    def skews(self, leader: str, since: int) -> tuple[list[float], int]:
        """Return follower-minus-leader skews in ms of switches after ``since``, and how
        many leader switches a follower never showed."""
        with self.lock:
            led = {s: t for s, t in self.seen[leader].items() if s > since}
            skews, missing = [], 0
            for name, seen in self.seen.items():
                if name == leader:
                    continue
                for seq, at in led.items():
                    if seq in seen:
                        skews.append((seen[seq] - at) * 1000)
                    else:
                        missing += 1
        return skews, missing

    def last(self, name: str) -> int:
        with self.lock:
            return max(self.seen[name], default=0)

    def stop(self) -> None:
        for watcher in self.watchers:
            watcher.stop()


def make_panels(base: Path, broker: Broker) -> dict[str, Instance]:
    ones = {p: 1.0 for p in PLUGINS}
    panels = {"lead": panel(base, "lead", {"role": "leader"}, broker, PLUGINS, durations=ones)}
    for name in ("left", "right"):
        panels[name] = panel(base, name, {"role": "follower", "leader": "lead"}, broker,
                             PLUGINS, durations=ones, order=["gamma"])
    return panels


def wait_state(instance: Instance, wanted: str, timeout: float = WAIT) -> float:
    """Wait until the panel's sync state is ``wanted``; return the moment (monotonic)."""
    state = Bus(instance.cache_dir).wait_for(
        keys.DISPLAY_STATE, lambda s: sync_of(s).get("state") == wanted, timeout)
    if sync_of(state).get("state") != wanted:
        raise SystemExit(f"{instance.base.name} did not reach {wanted!r}: {sync_of(state)}")
    return time.monotonic()


def switches(panels: dict[str, Instance], recorder: Recorder) -> None:
    since = recorder.last("lead")
    time.sleep(ROTATION_SECONDS)
    skews, missing = recorder.skews("lead", since)
    print(f"rotation, 1 s slots, 2 followers: skew {summary(skews)}; not shown: {missing}")
    bus = Bus(panels["lead"].cache_dir)
    since = recorder.last("lead")
    modes = [(p, m) for p, ms in PLUGINS.items() for m in ms]
    for index in range(REQUESTS):
        plugin_id, mode = modes[index % len(modes)]
        bus.request(keys.DISPLAY_ON_DEMAND_REQUEST, {"action": "start", "plugin_id": plugin_id,
                                                     "mode": mode, "pinned": True})
        time.sleep(REQUEST_GAP)
    time.sleep(1.0)
    skews, missing = recorder.skews("lead", since)
    print(f"on-demand every {REQUEST_GAP * 1000:.0f} ms, 2 followers: skew {summary(skews)}; "
          f"p90={percentile(skews, 90):.2f} ms; not shown: {missing}")
    bus.request(keys.DISPLAY_ON_DEMAND_REQUEST, {"action": "stop"})


def recovery(panels: dict[str, Instance], leader: Daemon, how: str) -> tuple[Daemon, str]:
    followers = [panels["left"], panels["right"]]
    stopped = time.monotonic()
    if how == "kill":
        leader.process.kill()
        leader.process.wait(10)
    else:
        leader.stop()
    lost = max(wait_state(f, "leader lost") for f in followers) - stopped
    started = time.monotonic()
    leader = start_display(panels["lead"])
    back = max(wait_state(f, "following") for f in followers) - started
    return leader, f"lost after {lost * 1000:.0f} ms, following again {back * 1000:.0f} ms " \
                   "after the leader's start"


def frozen(panels: dict[str, Instance], leader: Daemon) -> str:
    """Freeze the leader (SIGSTOP: no heartbeat, the socket stays open), then thaw it."""
    followers = [panels["left"], panels["right"]]
    stopped = time.monotonic()
    leader.process.send_signal(signal.SIGSTOP)
    try:
        lost = max(wait_state(f, "leader lost") for f in followers) - stopped
    finally:
        thawed = time.monotonic()
        leader.process.send_signal(signal.SIGCONT)
    back = max(wait_state(f, "following") for f in followers) - thawed
    return f"lost after {lost * 1000:.0f} ms, following again {back * 1000:.0f} ms after SIGCONT"


WALL_SECONDS = 10.0
_WALL_LINE = re.compile(r"sync: wall frame (\d+) (left|right) (sent|drawn) at ([\d.]+)")


def wall_latency(base: Path, broker: Broker) -> None:
    """A leader with a wall on both sides, a new picture every frame: frame latency."""
    lead = panel(base, "wall-lead", {"role": "leader", "wall": "both"}, broker,
                 {"flicker": ["flicker"]}, codes={"flicker": FLICKER_CODE})
    sides = {side: panel(base, f"wall-{side}", {"role": "follower", "leader": "wall-lead",
                                                "follower_position": side}, broker, PLUGINS)
             for side in ("left", "right")}
    debug = ("--log-level", "DEBUG")
    daemons = [start_display(lead, *debug)] + [start_display(i, *debug) for i in sides.values()]
    try:
        for instance in sides.values():
            Bus(instance.cache_dir).wait_for(
                keys.DISPLAY_STATE, lambda s: (s or {}).get("showing") == "wall", WAIT)
        time.sleep(WARM_UP)
        cpu_before, started = cpu_seconds(daemons[0].process.pid), time.time()
        time.sleep(WALL_SECONDS)
        ended = time.time()
        cpu = (cpu_seconds(daemons[0].process.pid) - cpu_before) / (ended - started)
    finally:
        for daemon in daemons:
            daemon.stop()
    sent: dict[tuple[str, str], float] = {}
    drawn: dict[tuple[str, str], float] = {}
    for daemon in daemons:
        for seq, side, what, at in _WALL_LINE.findall(daemon.output()):
            (sent if what == "sent" else drawn)[(seq, side)] = float(at)
    sent = {k: at for k, at in sent.items() if started <= at <= ended}
    latency = [(drawn[k] - sent[k]) * 1000 for k in sent if k in drawn]
    print(f"wall of 3 panels, a new picture every frame: frame latency {summary(latency)}; "
          f"{len(sent) / WALL_SECONDS / 2:.0f} frames per side per s sent, "
          f"{len(latency) / WALL_SECONDS / 2:.0f} drawn (a follower draws the newest); "
          f"leader CPU {cpu * 100:.1f}% of one core")


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        broker = Broker(Path(tmp) / "broker").start()
        panels = make_panels(Path(tmp), broker)
        recorder = Recorder(panels)
        daemons = {name: start_display(instance) for name, instance in panels.items()}
        try:
            for name in ("left", "right"):
                wait_state(panels[name], "following")
            time.sleep(WARM_UP)  # past the first updates and imports of a fresh start
            switches(panels, recorder)
            for how in ["kill"] * RESTARTS + ["term"] * RESTARTS:
                daemons["lead"], line = recovery(panels, daemons["lead"], how)
                print(f"leader {'killed (SIGKILL)' if how == 'kill' else 'stopped (SIGTERM)'} "
                      f"and restarted: {line}")
            for _ in range(RESTARTS):
                print(f"leader frozen (SIGSTOP) and thawed: {frozen(panels, daemons['lead'])}")
            for daemon in daemons.values():
                daemon.stop()
            wall_latency(Path(tmp), broker)
        finally:
            recorder.stop()
            for daemon in daemons.values():
                daemon.stop()
            broker.stop()


if __name__ == "__main__":
    main()
