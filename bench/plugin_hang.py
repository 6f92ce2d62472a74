"""Time from a hung ``display()`` to the panel showing the next plugin again.

Target: under 15 s on the device's settings (hang limit 8 s, the daemon's default).
The existing system never comes back: the render thread waits on the plugin for good.

Two plugins rotate, 2 s each, headless: ``still`` (draws a square) and ``hangs``, whose
``display()`` writes the time it was entered to a file and then never returns. The
figure runs from that moment to the first ``display_state`` of the restarted image
that shows ``still`` (the daemon execs itself afresh, with ``hangs`` in safe mode).
Each run starts from a fresh instance, so ``hangs`` is loaded and hangs each time.

Also printed: what the call trail adds to each plugin call (one enter and one leave,
measured over 100,000 calls in this process).

Usage: python -m bench.plugin_hang [--runs 3] [--hang-seconds 8]
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path

from bench.common import summary
from shared.bus import core as keys
from shared.bus.core import Bus
from tests.daemons import ROOT, Instance, start_display
from tests.hostile_plugins import STILL, install

HANGS = '''
import time
from pathlib import Path

from shared.plugin_api.base_plugin import BasePlugin


class Plugin(BasePlugin):
    def update(self):
        pass

    def display(self, force_clear=False):
        (Path(__file__).parent / "entered").write_text(repr(time.time()))
        while True:
            time.sleep(1)
'''


def one_run(base: Path, hang_seconds: float) -> float:
    """Return seconds from the hang to ``still`` shown by the restarted daemon."""
    instance = Instance(base)
    install(instance.plugins_dir, "still", STILL)
    folder = install(instance.plugins_dir, "hangs", HANGS)
    config = json.loads((ROOT / "config" / "config.template.json").read_text())
    config.update({"still": {"enabled": True}, "hangs": {"enabled": True},
                   "display_durations": {"still": 2, "hangs": 2}})
    instance.write_config(config)
    bus = Bus(instance.cache_dir)
    display = start_display(instance, "--hang-seconds", str(hang_seconds))
    try:
        deadline = time.monotonic() + hang_seconds + 60
        while time.monotonic() < deadline:
            entered = folder / "entered"
            safe = (bus.read(keys.PLUGIN_SAFE_MODE) or {}).get("plugins") or {}
            state = bus.read(keys.DISPLAY_STATE) or {}
            if entered.exists() and "hangs" in safe and state.get("plugin_id") == "still" \
                    and state.get("started_at", 0) > float(entered.read_text()):
                return time.time() - float(entered.read_text())
            time.sleep(0.01)
        raise RuntimeError(f"the panel did not come back:\n{display.output()}")
    finally:
        display.stop()


def trail_cost(calls: int = 100_000) -> float:
    """Return microseconds per plugin call spent in the call trail."""
    from display_service.plugins.call_trail import CallTrail

    with tempfile.TemporaryDirectory() as base:
        trail = CallTrail(Path(base) / "display_calls")
        started = time.perf_counter()
        for _ in range(calls):
            trail.leave(trail.enter("clock", "display"))
        took = time.perf_counter() - started
        trail.close()
    return took / calls * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--hang-seconds", type=float, default=8.0)
    args = parser.parse_args()
    figures = []
    for _ in range(args.runs):
        with tempfile.TemporaryDirectory() as base:
            figures.append(one_run(Path(base), args.hang_seconds) * 1000)
    print(f"hung display() -> next plugin shown (hang limit {args.hang_seconds:g} s, "
          f"{args.runs} runs): {summary(figures)}")
    print(f"call trail per plugin call: {trail_cost():.1f} us")


if __name__ == "__main__":
    main()
