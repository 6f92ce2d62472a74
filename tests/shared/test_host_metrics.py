"""Host figures read from /proc: memory from the two fields that matter, None when the
file says nothing usable."""

from __future__ import annotations

from pathlib import Path

import pytest

from shared import host_metrics

MEMINFO = """MemTotal:        1000000 kB
MemFree:          100000 kB
MemAvailable:     250000 kB
Buffers:           10000 kB
"""


@pytest.mark.parametrize(("text", "expected"), [
    (MEMINFO, {"total_bytes": 1_024_000_000, "available_bytes": 256_000_000,
               "used_percent": 75.0}),
    ("MemTotal: 2000 kB\n", {"total_bytes": 2_048_000, "available_bytes": 0,
                             "used_percent": 100.0}),  # an old kernel without MemAvailable
    ("MemFree: 5 kB\n", None),
    ("MemTotal: 0 kB\nMemAvailable: 0 kB\n", None),
    ("", None),
    ("SwapMemTotal: 5 kB\nMemTotalX: 1 kB\n", None),  # only whole field names count
])
def test_memory_is_read_from_meminfo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                     text: str, expected: object) -> None:
    meminfo = tmp_path / "meminfo"
    meminfo.write_text(text)
    monkeypatch.setattr(host_metrics, "MEMINFO", str(meminfo))
    assert host_metrics.host_metrics()["memory"] == expected


def test_an_unreadable_meminfo_is_none(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(host_metrics, "MEMINFO", str(tmp_path / "missing"))
    assert host_metrics.host_metrics()["memory"] is None
