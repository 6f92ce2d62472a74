"""The metrics routes in the app: JSON shape, the Prometheus text, hostile records, and
sign-in (``/metrics`` answers 401 to a scraper without a token, 200 with a read token)."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import requests
from prometheus_client.parser import text_string_to_metric_families

from shared.bus import core as keys
from tests.web_service.conftest import WebEnv
from tests.web_service.sign_in_helpers import TIMEOUT, running_web, signed_in, switch_on
from web_service.metrics.display_record import display_metrics

RECORD: dict[str, Any] = {
    "pid": 0, "at": 1.0,
    "frames": {"drawn": 10, "dropped": 1, "fps": 1.0, "frame_seconds_p50": 0.001,
               "frame_seconds_p95": 0.002},
    "plugins": {"clock": {"display_calls": 10, "display_seconds": 0.01,
                          "display_max_seconds": 0.002, "update_calls": 1,
                          "update_seconds": 0.5, "update_max_seconds": 0.5}},
    "cache": {"hits": 1, "misses": 1}, "viewer_written_at": 5.0, "viewer_seen_at": 5.25,
}
HOSTILE = [None, "x", -1, 1e308, 2**80, True, [], {}, {"a": []}]


def test_a_hostile_record_reads_field_by_field_and_never_raises() -> None:
    assert display_metrics("x") is None
    checked = display_metrics(RECORD)
    assert checked is not None and checked["cache"] == {"hits": 1, "misses": 1, "hit_rate": 0.5}
    for field in RECORD:
        for bad in HOSTILE:
            assert display_metrics({**RECORD, field: bad}) is not None
    for bad in HOSTILE:
        plugins = display_metrics({**RECORD, "plugins": {"clock": {"display_calls": bad},
                                                         "../x": {}, "y": bad}})
        assert plugins is not None and set(plugins["plugins"]) <= {"clock", "y"}
        assert plugins["plugins"]["clock"]["display_calls"] in (0, bad)
        frames = display_metrics({**RECORD, "frames": {"drawn": bad, "fps": bad}})
        assert frames is not None and frames["frames"]["drawn"] in (0, bad)


def test_the_display_record_of_the_lock_holder_is_shown_and_parsed(web: WebEnv) -> None:
    web.start_display(plugin_id="clock")
    web.bus.publish(keys.METRICS_VIEWER, {"until": 1e12, "written_at": 1.0})  # fresh mark
    web.bus.publish(keys.DISPLAY_METRICS, {**RECORD, "pid": os.getpid()})
    data = web.client.get("/api/v3/metrics").get_json()["data"]
    assert data["display"]["frames"]["drawn"] == 10
    assert data["plugins"]["clock"]["update_seconds"] == 0.5
    assert data["bus"]["latency_seconds"] == 0.25
    text = web.client.get("/metrics").get_data(as_text=True)
    names = {family.name for family in text_string_to_metric_families(text)}
    assert {"ledpanel_frames_drawn", "ledpanel_plugin_update_seconds",
            "ledpanel_web_request_duration_seconds"} <= names


def test_another_pids_record_is_not_shown(web: WebEnv) -> None:
    web.start_display(plugin_id="clock")
    web.bus.publish(keys.METRICS_VIEWER, {"until": 1e12, "written_at": 1.0})
    web.bus.publish(keys.DISPLAY_METRICS, {**RECORD, "pid": os.getpid() + 1})
    data = web.client.get("/api/v3/metrics").get_json()["data"]
    assert data["display"]["frames"] is None and data["plugins"] == {}


def test_a_scrape_marks_a_reader_present(web: WebEnv) -> None:
    assert web.bus.read(keys.METRICS_VIEWER) is None
    web.client.get("/metrics")
    mark = web.bus.read(keys.METRICS_VIEWER)
    assert mark is not None and mark["until"] > mark["written_at"]


def test_with_sign_in_on_metrics_needs_a_token_and_a_read_token_is_enough(
        tmp_path: Path) -> None:
    with running_web(tmp_path) as (_instance, url):
        switch_on(url)
        refused = requests.get(f"{url}/metrics", timeout=TIMEOUT, allow_redirects=False)
        assert refused.status_code == 401 and "Bearer" in refused.headers["WWW-Authenticate"]
        assert json.loads(refused.text)["error_code"] == "SIGN_IN_REQUIRED"
        assert requests.get(f"{url}/api/v3/metrics", timeout=TIMEOUT).status_code == 401
        made = signed_in(url).post(f"{url}/api/v3/auth/tokens",
                                   json={"name": "prometheus", "scope": "read"},
                                   timeout=TIMEOUT)
        bearer = {"Authorization": f"Bearer {made.json()['data']['token']}"}
        scraped = requests.get(f"{url}/metrics", headers=bearer, timeout=TIMEOUT)
        assert scraped.status_code == 200
        assert scraped.headers["Content-Type"].startswith("text/plain; version=0.0.4")
        assert requests.get(f"{url}/api/v3/metrics", headers=bearer,
                            timeout=TIMEOUT).json()["status"] == "success"
