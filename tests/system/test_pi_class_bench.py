"""The Pi-class benchmark's own parts: the cgroup it runs the daemons in, and how it
counts dropped frames."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from bench.cgroup_limit import LimitUnavailable, limited
from bench.pi_class import count_dropped


def test_a_wrapped_command_runs_inside_the_group_and_the_group_goes_afterwards() -> None:
    try:
        with limited("ledpanel-test", 50000, 100000, 256 * 1024 * 1024) as limit:
            shown = subprocess.run(limit.wrap(["cat", "/proc/self/cgroup"]), check=True,
                                   capture_output=True, text=True, timeout=10).stdout
            directories = list(limit.directories)
            quota = [(d / name).read_text().strip() for d in directories
                     for name in ("cpu.max", "cpu.cfs_quota_us") if (d / name).exists()]
    except LimitUnavailable as err:
        pytest.skip(f"no cgroups here: {err}")
    name = directories[0].name
    assert name.startswith("ledpanel-test-")
    assert f"/{name}" in shown  # in the group from the start: before exec, not after
    assert quota in (["50000"], ["50000 100000"])
    assert not any(Path(d).exists() for d in directories)


def test_gaps_count_the_frames_they_dropped() -> None:
    every_10ms = [i * 0.01 for i in range(101)]  # 1.00 s, no frame missing
    assert count_dropped(every_10ms, 0.0, 1.0) == (101, 0, pytest.approx(0.01))
    late = [0.0, 0.014, 0.02, 0.03]  # one frame 4 ms late: drawn, not dropped
    assert count_dropped(late, 0.0, 1.0)[1] == 0
    stalled = [0.0, 0.01, 0.1, 0.11]  # 90 ms without a call: 8 frames dropped
    assert count_dropped(stalled, 0.0, 1.0) == (4, 8, pytest.approx(0.09))


def test_only_calls_inside_the_window_count() -> None:
    calls = [0.0, 0.5, 1.0, 1.01, 1.02, 2.5]
    assert count_dropped(calls, 1.0, 1.02) == (3, 0, pytest.approx(0.01))
    assert count_dropped(calls, 3.0, 4.0) == (0, 0, 0.0)
