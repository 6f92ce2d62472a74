"""Web daemon figures: start time, memory, throughput and tail latency.

Targets (issue 2), the existing system's figures in brackets: start to first 200 on
/api/v3/health < 0.3 s warm (0.61 s); resident memory after start < 45 MB (73 MB);
GET /api/v3/config/main with 4 concurrent clients p99 < 10 ms and > 1,000 req/s
(10-13 ms, ~550 req/s); GET /api/v3/plugins/installed with no network p95 < 10 ms (4.5 s).
Load comes from wrk when installed (``apt-get install wrk``), else from Python processes.
"""

from __future__ import annotations

import multiprocessing
import re
import shutil
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

import requests

from bench.common import demo_instance, rss_mb, summary
from tests.daemons import start_web

STARTS = 5
LOAD_SECONDS = 10


def _start_time(instance) -> tuple[float, float]:
    started = time.perf_counter()
    web, url = start_web(instance)
    elapsed = time.perf_counter() - started
    requests.get(f"{url}/api/v3/health", timeout=2)
    rss = rss_mb(web.process.pid)
    web.stop()
    return elapsed, rss


def _python_load(url: str, seconds: float, clients: int) -> tuple[float, list[float]]:
    with multiprocessing.Pool(clients) as pool:
        results = pool.starmap(_client, [(url, seconds)] * clients)
    latencies = [ms for part in results for ms in part]
    return len(latencies) / seconds, latencies


def _client(url: str, seconds: float) -> list[float]:
    session = requests.Session()
    latencies = []
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        started = time.perf_counter()
        session.get(url).raise_for_status()
        latencies.append((time.perf_counter() - started) * 1000)
    return latencies


def _wrk_load(url: str, seconds: float, clients: int) -> str:
    out = subprocess.run(["wrk", "-t2", f"-c{clients}", f"-d{int(seconds)}s", "--latency", url],
                         capture_output=True, text=True, check=True).stdout
    rate = re.search(r"Requests/sec:\s+([\d.]+)", out)
    p99 = re.search(r"99%\s+([\d.]+)(us|ms|s)", out)
    p50 = re.search(r"50%\s+([\d.]+)(us|ms|s)", out)
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", out)

    def ms(match: re.Match[str] | None) -> float:
        assert match is not None
        value, unit = float(match.group(1)), match.group(2)
        return value / 1000 if unit == "us" else value * 1000 if unit == "s" else value

    return (f"{float(rate.group(1)) if rate else 0:.0f} req/s, p50={ms(p50):.2f} ms, "
            f"p99={ms(p99):.2f} ms, non-2xx={errors.group(1) if errors else 0} (wrk)")


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        instance = demo_instance(Path(tmp))
        _start_time(instance)  # warm the bytecode cache
        starts = [_start_time(instance) for _ in range(STARTS)]
        print(f"web start to first 200 on /api/v3/health: median "
              f"{statistics.median(s for s, _ in starts) * 1000:.0f} ms over {STARTS} starts")
        print(f"web resident memory after start: median "
              f"{statistics.median(r for _, r in starts):.1f} MB")

        web, url = start_web(instance)
        try:
            session = requests.Session()
            installed = []
            for _ in range(300):
                started = time.perf_counter()
                session.get(f"{url}/api/v3/plugins/installed").raise_for_status()
                installed.append((time.perf_counter() - started) * 1000)
            print(f"GET /api/v3/plugins/installed (3 plugins, no network): {summary(installed)}")
            target = f"{url}/api/v3/config/main"
            if shutil.which("wrk"):
                print(f"GET /api/v3/config/main, 4 clients, {LOAD_SECONDS} s: "
                      f"{_wrk_load(target, LOAD_SECONDS, 4)}")
            else:
                rate, latencies = _python_load(target, LOAD_SECONDS, 4)
                print(f"GET /api/v3/config/main, 4 clients (python): {rate:.0f} req/s, "
                      f"{summary(latencies)}")
            print(f"web resident memory after load: {rss_mb(web.process.pid):.1f} MB")
        finally:
            web.stop()


if __name__ == "__main__":
    main()
