"""The installer's own time: scripts/install with every system command faked.

Runs the test sandbox (tests/system/install_sandbox.py: fake apt-get, systemctl,
useradd..., a fake binding build, a tiny library checkout) and times a first install,
a second run (nothing to do), a dry run on a fresh system and an uninstall. What a Pi
adds on top is the downloads, apt-get and the compile, none of which is ours. Each
figure is the median of REPEATS runs, each on a fresh sandbox; the fakes (one Python
process per command, about 20 ms each here) are included and counted.

Usage: .venv/bin/python -m bench.installer_time   (as root: the installer sets owners)
"""

from __future__ import annotations

import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from tests.system.install_sandbox import Sandbox

REPEATS = 5


def timed(action: Callable[[], object]) -> float:
    started = time.perf_counter()
    action()
    return time.perf_counter() - started


def one_round() -> dict[str, float]:
    with tempfile.TemporaryDirectory() as folder:
        box = Sandbox(Path(folder))
        figures = {"dry run, fresh system": timed(lambda: box.install("--dry-run"))}
        figures["first install"] = timed(box.install)
        figures["commands run by the first install"] = float(len(box.calls()))
        figures["second run (nothing to do)"] = timed(box.install)
        figures["uninstall"] = timed(box.uninstall)
        return figures


def main() -> None:
    rounds = [one_round() for _ in range(REPEATS)]
    for name in rounds[0]:
        value = statistics.median(r[name] for r in rounds)
        shown = f"{value:.0f}" if name.startswith("commands") else f"{value * 1000:.0f} ms"
        print(f"{name}: {shown}")


if __name__ == "__main__":
    main()
