"""Config save cost in the web daemon: latency and the daemon's CPU per save.

Two saves, each ``SAVES`` times over one keep-alive connection, with 1 and 100 plugin
sections in config.json (every section an installed demo plugin): ``POST
/api/v3/plugins/config`` (one plugin's ``message``) and ``POST /api/v3/config/main``
(``brightness``). Every save changes the file, so each one backs up, writes and
announces. CPU is the web daemon's user+system time over the run divided by the saves.
The display daemon is not running: what is measured is the save, not the reload.

Reference (the existing system, measured on this kind of machine and given in the
issue; it cannot be run here): p50 14 ms at 100 plugin sections. Its 1-section figure
was not given: the reference used there is the same 14 ms (saving a smaller file
cannot cost it more), so the target is met when both our figures are at most 14 ms.
"""

from __future__ import annotations

import argparse
import http.client
import json
import statistics
import tempfile
import time
from pathlib import Path

from bench.common import cpu_seconds, demo_instance, percentile
from tests.daemons import start_web

SAVES = 200
REFERENCE_MS = 14.0  # existing system, p50 at 100 plugin sections


def _post(conn: http.client.HTTPConnection, path: str, body: dict) -> float:
    data = json.dumps(body).encode()
    started = time.perf_counter()
    conn.request("POST", path, data, {"Content-Type": "application/json"})
    response = conn.getresponse()
    payload = response.read()
    elapsed = (time.perf_counter() - started) * 1000
    if response.status != 200:
        raise SystemExit(f"{path}: {response.status} {payload[:300]!r}")
    return elapsed


def _run(sections: int, saves: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        instance = demo_instance(Path(tmp), plugins=sections)
        web, url = start_web(instance)
        try:
            host, port = url.removeprefix("http://").split(":")
            conn = http.client.HTTPConnection(host, int(port), timeout=10)
            kinds = {
                "POST /plugins/config": lambda i: _post(
                    conn, "/api/v3/plugins/config",
                    {"plugin_id": "demo0", "config": {"message": f"m{i}"}}),
                "POST /config/main": lambda i: _post(
                    conn, "/api/v3/config/main", {"brightness": 40 + i % 50}),
            }
            for name, save in kinds.items():
                for index in range(10):  # warm: schemas read, imports done
                    save(index + 1000)
                before = cpu_seconds(web.process.pid)
                samples = [save(index) for index in range(saves)]
                cpu_ms = (cpu_seconds(web.process.pid) - before) * 1000 / saves
                print(f"{name}, {sections} plugin section(s), n={saves}: "
                      f"p50 {statistics.median(samples):.2f} ms, "
                      f"p95 {percentile(samples, 95):.2f} ms, "
                      f"web CPU {cpu_ms:.2f} ms per save "
                      f"(reference: existing system p50 {REFERENCE_MS:.0f} ms)")
            conn.close()
        finally:
            web.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--saves", type=int, default=SAVES)
    args = parser.parse_args()
    for sections in (1, 100):
        _run(sections, max(1, min(args.saves, 2000)))


if __name__ == "__main__":
    main()
