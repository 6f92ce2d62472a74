"""GET /api/v3/system/status: latency on its own, and under four keep-alive clients.

Reference, the existing system (measured on this kind of machine and given in the
issue; it cannot be run here): p50 1.7 ms alone; with 4 keep-alive clients p99 21 ms,
1,022 req/s, 1.09 ms of server CPU per request. Targets: p50 <= 0.85 ms (0.5x) and a
4-client p99 <= 21 ms (1x).

Both daemons run over a demo instance (three clock-like plugins switching every 10 s),
so the status describes a running display whose state file changes now and then;
measuring starts ``SETTLE`` s after the display's first state (past its start-up).
1. Alone: ``REQUESTS`` requests over one keep-alive connection (``http.client``, after
   100 to warm up): p50, p95, p99.
2. Four clients: four processes, one keep-alive connection each (``http.client``),
   ``SECONDS`` s: requests per second, p50, p99 and the web daemon's CPU (user+system)
   per request; then the same load from wrk (``-t2 -c4``) when it is installed. The
   clients run on the same two cores as the daemon.
"""

from __future__ import annotations

import argparse
import http.client
import json
import multiprocessing
import re
import shutil
import statistics
import subprocess
import time

from bench.common import cpu_seconds, percentile, running_demo

PATH = "/api/v3/system/status"
REQUESTS = 2000
SECONDS = 10
CLIENTS = 4
SETTLE = 3.0
REF_P50_MS, REF_P99_MS, REF_RATE, REF_CPU_MS = 1.7, 21.0, 1022, 1.09


def _connect(url: str) -> http.client.HTTPConnection:
    host, port = url.removeprefix("http://").split(":")
    return http.client.HTTPConnection(host, int(port), timeout=10)


def _get(conn: http.client.HTTPConnection, path: str) -> float:
    started = time.perf_counter()
    conn.request("GET", path)
    response = conn.getresponse()
    response.read()
    if response.status != 200:
        raise SystemExit(f"{path}: {response.status}")
    return (time.perf_counter() - started) * 1000


def alone(url: str, path: str, count: int) -> list[float]:
    """Return the latencies (ms) of ``count`` requests over one keep-alive connection."""
    conn = _connect(url)
    for _ in range(100):
        _get(conn, path)
    samples = [_get(conn, path) for _ in range(count)]
    conn.close()
    return samples


def _client(url: str, path: str, seconds: float) -> list[float]:
    conn = _connect(url)
    end = time.perf_counter() + seconds
    samples = []
    while time.perf_counter() < end:
        samples.append(_get(conn, path))
    conn.close()
    return samples


def four_clients(url: str, path: str, seconds: float, pid: int) -> str:
    """Return the figures of ``CLIENTS`` Python keep-alive clients for ``seconds``."""
    with multiprocessing.Pool(CLIENTS) as pool:
        before = cpu_seconds(pid)
        parts = pool.starmap(_client, [(url, path, seconds)] * CLIENTS)
        cpu = cpu_seconds(pid) - before
    samples = [ms for part in parts for ms in part]
    return (f"{len(samples) / seconds:.0f} req/s, p50 {statistics.median(samples):.2f} ms, "
            f"p99 {percentile(samples, 99):.2f} ms, web CPU {cpu * 1000 / len(samples):.2f} ms "
            f"per request (n={len(samples)})")


def wrk(url: str, path: str, seconds: float, pid: int) -> str:
    """Return wrk's figures for ``CLIENTS`` keep-alive connections (two threads)."""
    before = cpu_seconds(pid)
    out = subprocess.run(["wrk", "-t2", f"-c{CLIENTS}", f"-d{int(seconds)}s", "--latency",
                          url + path], capture_output=True, text=True, check=True,
                         timeout=seconds + 30).stdout
    cpu = cpu_seconds(pid) - before

    def ms(label: str) -> float:
        found = re.search(rf"{label}\s+([\d.]+)(us|ms|s)\b", out)
        if found is None:
            return float("nan")
        value, unit = float(found.group(1)), found.group(2)
        return value / 1000 if unit == "us" else value * 1000 if unit == "s" else value

    total = re.search(r"(\d+) requests in", out)
    count = int(total.group(1)) if total else 0
    bad = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    return (f"{count / seconds:.0f} req/s, p50 {ms('50%'):.2f} ms, p99 {ms('99%'):.2f} ms, "
            f"web CPU {cpu * 1000 / max(count, 1):.2f} ms per request, "
            f"non-2xx {bad.group(1) if bad else 0} (wrk)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=REQUESTS)
    parser.add_argument("--seconds", type=float, default=SECONDS)
    args = parser.parse_args()
    count, seconds = max(100, min(args.requests, 20_000)), max(1.0, min(args.seconds, 60.0))
    with running_demo() as (_bus, url):
        time.sleep(SETTLE)
        pid = _web_pid(url)
        samples = alone(url, PATH, count)
        print(f"GET {PATH} alone, n={count}: p50 {statistics.median(samples):.3f} ms, "
              f"p95 {percentile(samples, 95):.3f} ms, p99 {percentile(samples, 99):.3f} ms "
              f"(existing system p50 {REF_P50_MS} ms; target <= {REF_P50_MS / 2:.2f} ms)")
        print(f"GET {PATH}, {CLIENTS} keep-alive clients (python), {seconds:g} s: "
              f"{four_clients(url, PATH, seconds, pid)} (existing system p99 {REF_P99_MS:g} ms, "
              f"{REF_RATE:,} req/s, {REF_CPU_MS} ms CPU per request; target p99 <= "
              f"{REF_P99_MS:g} ms)")
        if shutil.which("wrk"):
            print(f"GET {PATH}, {CLIENTS} keep-alive connections, {seconds:g} s: "
                  f"{wrk(url, PATH, seconds, pid)}")


def _web_pid(url: str) -> int:
    conn = _connect(url)
    conn.request("GET", PATH)
    response = conn.getresponse()
    pid = json.loads(response.read())["data"]["web"]["pid"]
    conn.close()
    return int(pid)


if __name__ == "__main__":
    main()
