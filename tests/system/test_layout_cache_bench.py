"""bench/layout_cache.py runs as BENCHMARKS.md says and reports cache hits."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_layout_cache_bench_reports_a_hit_rate_per_size() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "bench.layout_cache", "--turns", "2", "--sizes", "64x32,96x48"],
        cwd=ROOT, capture_output=True, text=True, timeout=120, check=True)
    lines = done.stdout.strip().splitlines()
    assert [line.split(":")[0] for line in lines] == ["64x32", "96x48"], done.stdout
    for line in lines:
        text, image = (float(v) for v in re.findall(r"(\d+\.\d)% of", line))
        assert 0 < text < 100 and 0 < image < 100, line  # the clock misses, logos hit
