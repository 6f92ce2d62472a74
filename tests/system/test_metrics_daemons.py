"""GET /metrics and GET /api/v3/metrics against both real daemons.

The Prometheus text is read by a real parser (``prometheus_client``); the temperature
comes from a fake thermal zone (``LEDPANEL_THERMAL_FILE``) and throttling from a fake
``vcgencmd`` first on PATH. The display's own figures arrive once the first scrape marked
a reader present: the display writes nothing for them while nobody reads.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import requests
from prometheus_client.parser import text_string_to_metric_families

from bench.common import demo_instance
from shared.bus import core as keys
from shared.bus.core import Bus
from tests.daemons import running
from tests.fake_commands import fake_command, path_with

pytestmark = [pytest.mark.timeout(120), pytest.mark.daemons]


def samples(text: str) -> dict[str, list[Any]]:
    """Every sample of the scrape by sample name (``prometheus_client``'s parser)."""
    found: dict[str, list[Any]] = {}
    for family in text_string_to_metric_families(text):
        assert family.documentation, f"{family.name} has no HELP"
        for sample in family.samples:
            found.setdefault(sample.name, []).append(sample)
    return found


def value(found: dict[str, list[Any]], name: str, **labels: str) -> float | None:
    for sample in found.get(name, []):
        if all(sample.labels.get(k) == v for k, v in labels.items()):
            return float(sample.value)
    return None


def scrape_until(url: str, ready: Callable[[dict[str, list[Any]]], bool],
                 timeout: float = 30) -> dict[str, list[Any]]:
    """Scrape ``/metrics`` until ``ready`` holds (the display publishes every few seconds)."""
    deadline = time.monotonic() + timeout
    while True:
        response = requests.get(f"{url}/metrics", timeout=10)
        assert response.status_code == 200
        assert response.headers["Content-Type"].startswith("text/plain; version=0.0.4")
        found = samples(response.text)
        if ready(found) or time.monotonic() > deadline:
            return found
        time.sleep(0.5)  # the display's next record: written every few seconds while read


@pytest.fixture
def pi_edges(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A thermal zone at 48.5 degrees and a vcgencmd saying under-voltage now and
    throttling since boot (0x50005)."""
    thermal = tmp_path / "thermal_temp"
    thermal.write_text("48500\n")
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    fake_command(bin_dir, "vcgencmd", output="throttled=0x50005\n")
    monkeypatch.setenv("LEDPANEL_THERMAL_FILE", str(thermal))
    monkeypatch.setenv("PATH", path_with(bin_dir))
    yield bin_dir


def test_prometheus_text_parses_and_carries_every_figure(tmp_path: Path, pi_edges: Path
                                                         ) -> None:
    instance = demo_instance(tmp_path / "panel", plugins=1)
    with running(instance) as (display, web, url):
        Bus(instance.cache_dir).wait_for(
            keys.DISPLAY_STATE, lambda s: bool(s and s.get("plugin_id")), 15)
        found = scrape_until(url, lambda f: bool(
            value(f, "ledpanel_plugin_display_calls_total", plugin_id="demo0")
            and value(f, "ledpanel_plugin_update_calls_total", plugin_id="demo0")))
        assert value(found, "ledpanel_display_up") == 1
        assert (value(found, "ledpanel_plugin_display_calls_total", plugin_id="demo0") or 0) >= 1
        assert (value(found, "ledpanel_plugin_update_calls_total", plugin_id="demo0") or 0) >= 1
        assert (value(found, "ledpanel_frames_drawn_total") or 0) >= 1
        assert value(found, "ledpanel_frame_time_seconds", quantile="0.95") is not None
        assert value(found, "ledpanel_cpu_temperature_celsius") == 48.5
        assert value(found, "ledpanel_throttled", flag="under_voltage", when="now") == 1
        assert value(found, "ledpanel_throttled", flag="throttled", when="now") == 1
        assert value(found, "ledpanel_throttled", flag="throttled", when="since_boot") == 1
        assert value(found, "ledpanel_throttled", flag="frequency_capped", when="now") == 0
        for daemon in ("display", "web"):
            assert (value(found, "ledpanel_process_resident_memory_bytes", daemon=daemon)
                    or 0) > 1_000_000
            assert value(found, "ledpanel_process_cpu_seconds_total", daemon=daemon) is not None
        assert value(found, "ledpanel_bus_latency_seconds") is not None
        assert value(found, "ledpanel_store_jobs", state="running") == 0
        found = samples(requests.get(f"{url}/metrics", timeout=10).text)  # counts the last
        assert (value(found, "ledpanel_web_requests_total", route="/metrics", method="GET",
                      status="200") or 0) >= 1
        assert (value(found, "ledpanel_web_request_duration_seconds_count", route="/metrics",
                      method="GET") or 0) >= 1
        assert display.process.poll() is None and web.process.poll() is None


def test_json_metrics_shape_and_web_counts_grow_with_requests(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LEDPANEL_THERMAL_FILE", str(tmp_path / "no-thermal-zone"))
    monkeypatch.setenv("PATH", path_with(tmp_path / "empty-bin", keep_system=False)
                       + ":/usr/bin:/bin")
    instance = demo_instance(tmp_path / "panel", plugins=1)
    with running(instance) as (display, _web, url):
        Bus(instance.cache_dir).wait_for(
            keys.DISPLAY_STATE, lambda s: bool(s and s.get("service") == "running"), 15)
        first = requests.get(f"{url}/api/v3/metrics", timeout=10).json()
        assert first["status"] == "success"
        data = first["data"]
        assert set(data) == {"display", "plugins", "plugin_errors", "safe_mode", "processes",
                             "bus", "store_jobs", "web", "pi"}
        assert data["processes"]["display"]["pid"] == display.process.pid
        assert data["pi"]["cpu_temperature_c"] is None  # no thermal zone here
        assert data["pi"]["throttling"] is None  # no vcgencmd here
        assert set(data["store_jobs"]) == {"queued", "running", "done", "failed"}

        def health_count() -> int:
            routes = requests.get(f"{url}/api/v3/metrics", timeout=10).json()["data"]["web"]
            return next((r["count"] for r in routes["routes"]
                         if r["route"] == "/api/v3/health" and r["method"] == "GET"), 0)

        before = health_count()
        for _ in range(3):
            requests.get(f"{url}/api/v3/health", timeout=5)
        assert health_count() == before + 3
        text = requests.get(f"{url}/metrics", timeout=10).text
        assert value(samples(text), "ledpanel_cpu_temperature_celsius") is None
