"""On-demand latency: API call to display acknowledgement, and bus write to acknowledgement.

Target (issue 2): p95 < 50 ms from the API to the display's acknowledgement. The
existing system restarts its display service for this: seconds.
"""

from __future__ import annotations

import threading
import time

import requests

from bench.common import running_demo, summary
from shared.bus import core as keys

REQUESTS = 100


def main() -> None:
    with running_demo() as (bus, url):
        session = requests.Session()
        api_ms = []
        for index in range(REQUESTS):
            action = "start" if index % 2 == 0 else "stop"
            body = {"plugin_id": f"demo{index % 3}", "pinned": True} if action == "start" \
                else {}
            started = time.perf_counter()
            response = session.post(f"{url}/api/v3/display/on-demand/{action}", json=body)
            elapsed = (time.perf_counter() - started) * 1000
            data = response.json()["data"]
            if response.status_code != 200 or data["state"] == "requested":
                raise SystemExit(f"request {index} not acknowledged: {response.text}")
            api_ms.append(elapsed)
        bus_ms = []
        acked = threading.Event()
        expected: dict[str, str] = {}

        def on_change(_key: str) -> None:
            state = bus.read(keys.DISPLAY_STATE) or {}
            if state.get("last_request_id") == expected.get("id"):
                acked.set()

        watcher = bus.watch([keys.DISPLAY_STATE], on_change)
        for index in range(REQUESTS):
            acked.clear()
            action = "start" if index % 2 == 0 else "stop"
            started = time.perf_counter()
            expected["id"] = bus.request(keys.DISPLAY_ON_DEMAND_REQUEST, {
                "action": action, "plugin_id": f"demo{index % 3}", "pinned": True})
            on_change(keys.DISPLAY_STATE)  # the acknowledgement may already be there
            if not acked.wait(5):
                raise SystemExit(f"bus request {index} not acknowledged")
            bus_ms.append((time.perf_counter() - started) * 1000)
        watcher.stop()
    print(f"on-demand via API (POST until 200 with acknowledgement): {summary(api_ms)}")
    print(f"on-demand via bus (request written until display_state names it): {summary(bus_ms)}")


if __name__ == "__main__":
    main()
