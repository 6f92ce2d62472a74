"""No value in a bus file takes the daemons down: every key, every field, hostile values.

Each key the bus defines (``shared.bus.core``) gets, field by field and as a whole
document, numbers no writer of ours makes (400 digits, 1e308, 1e400, NaN, Infinity),
wrong types, nesting and null, written into the real bus of a real display daemon and a
real web daemon. After each write the display answers a request (proof that it read
what came before) and says truthfully that it runs; the web's status answers.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest
import requests

from shared.bus import core as keys
from tests.daemons import Daemon, Instance, running, start_display
from tests.display_service.helpers import wait_until as wait_for
from tests.system.test_hostile_bus import assert_panel_works, status
from tests.system.test_no_lost_changes import make_instance, running_state, state

pytestmark = [pytest.mark.timeout(120), pytest.mark.daemons]

HOSTILE = ("1" * 400, "-" + "9" * 400, "1e308", "-1e308", "1e400", "-1", "NaN",
           "Infinity", "-Infinity", '"x"', '"1e999"', "[[1, [2, [3]]]]", "null", "true",
           "{}", "[" * 100 + "]" * 100)
_MARK = "\u0000hostile\u0000"

# Queued requests (the display consumes them): a valid request per key.
QUEUED: dict[str, dict[str, Any]] = {
    keys.DISPLAY_ON_DEMAND_REQUEST: {"action": "start", "plugin_id": "still", "mode": "still",
                                     "duration": 5, "pinned": False},
    keys.PLUGIN_ERRORS_CLEAR: {"plugin_id": "still"},
    keys.PLUGIN_SAFE_MODE_RELEASE: {"plugin_id": "still"},
    keys.PLUGINS_CHANGED: {"plugin_id": "still", "change": "updated"},
    keys.CUSTOM_APP_REQUEST: {"action": "set", "name": "x", "app": {"text": "x"},
                              "source": "http"},
    keys.NOTIFY_REQUEST: {"action": "add", "id": "n1", "notification": {"text": "x"},
                          "source": "http"},
    keys.DISPLAY_CONTROL: {"action": "next", "source": "http"},
}
# Files the web writes and the display reads while it runs.
FROM_WEB: dict[str, dict[str, Any]] = {
    keys.CONFIG_CHANGED: {"seq": 1, "sections": ["display"]},
    keys.PREVIEW_VIEWER: {"until": 0},
    keys.FONTS_CHANGED: {"seq": 1, "change": "uploaded", "family": "x"},
    keys.WEB_STATE: {"service": "running", "pid": 1, "host": "127.0.0.1", "port": 5000},
    keys.METRICS_VIEWER: {"until": 0, "written_at": 0},
}
# Files the display writes: the web reads them for the status; the display reads the
# last two again when it starts (what a killed run left).
FROM_DISPLAY = (keys.DISPLAY_STATE, keys.HARDWARE_STATUS, keys.PLUGIN_ERRORS,
                keys.PREVIEW_FRAME, keys.STARLARK_APPS, keys.CUSTOM_APPS, keys.NOTIFICATIONS,
                keys.DISPLAY_METRICS)
# Files the MQTT bridge writes: the web reads them for GET /api/v3/mqtt.
FROM_BRIDGE = (keys.MQTT_STATE,)
# The record of a display without scripted apps has none: one made the way the plugin does.
MADE_UP: dict[str, dict[str, Any]] = {
    keys.STARLARK_APPS: {"runtime": "r", "updated_at": 1, "apps": {"clock": {
        "rendered_at": 1, "render_ms": 5, "frames": 2, "delay_ms": 50, "width": 64,
        "height": 32, "scale": "none", "error": None, "errors": 0, "next_render_at": 2,
        "held": False, "backoff_s": None, "skipped": False}}},
    keys.CUSTOM_APPS: {"apps": [{"name": "x", "mode": "custom-x", "text": "x", "icon": None,
                                 "color": [1, 2, 3], "duration": 10, "repeat": None,
                                 "frames": 0, "frame_ms": 100, "lifetime": None,
                                 "source": "http", "set_at": 1, "expires_at": None}],
                       "requests": {"r": {"name": "x", "outcome": "set", "problem": None}},
                       "updated_at": 1},
    keys.NOTIFICATIONS: {"queue": [{"text": "x", "priority": "normal", "behavior": "queue",
                                    "id": "n1", "state": "waiting", "source": "http",
                                    "added_at": 1}],
                         "recent": [{"id": "n0", "state": "shown", "reason": None}]},
    keys.MQTT_STATE: {"state": "connected", "since": 1, "broker": "broker.lan:1883"},
    # Written only while someone reads the metrics: the fields first fuzzed come first.
    keys.DISPLAY_METRICS: {"plugins": {"still": {"display_calls": 1, "display_seconds": 0.1,
                                                 "update_calls": 1, "update_seconds": 0.1}},
                           "frames": {"drawn": 1, "dropped": 0, "fps": 1.0,
                                      "frame_seconds_p50": 0.1, "frame_seconds_p95": 0.1},
                           "cache": {"hits": 1, "misses": 0}, "pid": 1, "at": 1,
                           "viewer_written_at": 1, "viewer_seen_at": 1},
}
# Where the web answers from each record the display writes.
READ_BY = {keys.STARLARK_APPS: "/api/v3/starlark/status", keys.CUSTOM_APPS: "/api/v3/custom",
           keys.NOTIFICATIONS: "/api/v3/notify", keys.MQTT_STATE: "/api/v3/mqtt",
           keys.DISPLAY_METRICS: "/api/v3/metrics"}
READ_AT_START: dict[str, dict[str, Any]] = {
    keys.DISPLAY_ON_DEMAND_CONFIG: {"plugin_id": "still", "mode": "still", "duration": 60,
                                    "pinned": False, "request_id": "r", "started_at": 1,
                                    "ends_at": 2, "resumed_at": 1},
    keys.PLUGIN_SAFE_MODE: {"plugins": {"still": {"reason": "x", "where": "update",
                                                  "since": 1}}},
    keys.DISPLAY_POWER: {"on": False, "until": None, "set_at": 1, "request_id": "r",
                         "source": "http"},
}
COMMON = ("request_id", "requested_at")  # every queued request carries them


def bus_keys() -> set[str]:
    """Every bus key ``shared.bus.core`` defines (names in capitals holding a key)."""
    return {value for name, value in vars(keys).items()
            if name.isupper() and isinstance(value, str) and name not in ("QUEUE_SEP",)
            and not value.startswith(".") and value.replace("_", "").isalpha()
            and value.islower()}


def documents(base: dict[str, Any], fields: Iterable[str]) -> Iterable[str]:
    """Yield ``base`` with each field in turn set to each hostile value, then each hostile
    value as the whole document."""
    for name in fields:
        for literal in HOSTILE:
            text = json.dumps({**base, name: _MARK})
            yield text.replace(json.dumps(_MARK), literal)
    yield from HOSTILE


def write(path: Path, text: str) -> None:
    """Put ``text`` in place at once (a reader never sees half of it)."""
    tmp = path.with_name(f".{path.name}.fuzz.tmp")
    tmp.write_text(text)
    os.replace(tmp, path)


class Prober:
    """Ask the display to stop an on-demand it does not show and wait for its answer:
    once it answered, it read everything written before."""

    def __init__(self, instance: Instance, display: Daemon) -> None:
        self.instance, self.display, self.count = instance, display, 0

    def queue(self, key: str, text: str) -> None:
        self.count += 1
        name = f"{key}{keys.QUEUE_SEP}{time.time_ns():020d}-fuzz{self.count}.json"
        write(self.instance.cache_dir / name, text)

    def probe(self, what: str) -> None:
        self.count += 1
        request_id = f"probe{self.count}"
        self.queue(keys.DISPLAY_ON_DEMAND_REQUEST, json.dumps(
            {"action": "stop", "request_id": request_id, "requested_at": time.time()}))

        def answered() -> dict[str, Any] | None:
            assert self.display.process.poll() is None, (
                f"display died after {what}:\n{self.display.output()[-3000:]}")
            current = state(self.instance)
            return current if request_id in (current.get("requests") or {}) else None

        current = wait_for(answered, timeout=10)
        assert current["pid"] == self.display.process.pid
        assert current["requests"][request_id]["state"] == "stopped"
        assert (current.get("on_demand") or {}).get("state") == "stopped", what


def test_every_bus_field_with_hostile_values_leaves_both_daemons_running_and_truthful(
        tmp_path: Path) -> None:
    covered = (set(QUEUED) | set(FROM_WEB) | set(FROM_DISPLAY) | set(FROM_BRIDGE)
               | set(READ_AT_START))
    assert covered == bus_keys(), "a bus key without hostile values: add it above"
    instance = make_instance(tmp_path)
    with running(instance) as (display, web, url):
        running_state(instance, display)
        prober = Prober(instance, display)
        for key, base in QUEUED.items():  # a batch per key, then one answer
            for text in documents({**base, "request_id": "r", "requested_at": time.time()},
                                  [*base, *COMMON]):
                prober.queue(key, text)
            prober.probe(f"hostile {key} requests")
        dismiss_all(url)  # the valid notifications among the hostile ones: shown above all
        for key, base in FROM_WEB.items():
            for text in documents(base, base):
                write(instance.cache_dir / f"{key}.json", text)
                prober.probe(f"{key}.json = {text[:60]}")
        for key in (*FROM_DISPLAY, *FROM_BRIDGE):
            fields = Path(instance.cache_dir / f"{key}.json")
            real = json.loads(fields.read_text()) if fields.exists() else MADE_UP.get(key, {})
            for text in documents(real, list(real)[:8]):
                write(instance.cache_dir / f"{key}.json", text)
                for route in ("/api/v3/system/status", READ_BY.get(key)):
                    if route is not None:
                        assert requests.get(f"{url}{route}", timeout=5).ok, (route, text[:60])
        prober.probe("hostile records of the display")  # it writes its own again
        report = status(url)["display"]
        assert report["service"] == "running" and report["pid"] == display.process.pid
        assert_panel_works(instance, display, url)
        assert web.process.poll() is None
        assert "Traceback" not in display.output() + web.output()


def dismiss_all(url: str) -> None:
    """Dismiss every notification the display holds and wait until none shows."""
    def held() -> list[Any]:
        data = requests.get(f"{url}/api/v3/notify", timeout=5).json()["data"]
        return list(data.get("queue") or [])

    for item in held():
        requests.delete(f"{url}/api/v3/notify/{item['id']}", timeout=5)
    wait_for(lambda: not held(), timeout=10)


@pytest.mark.parametrize("literal", ["1" * 400, "NaN", "1e400", "[[[]]]", '"x"'])
def test_hostile_records_left_for_the_next_start_are_set_aside(tmp_path: Path,
                                                                 literal: str) -> None:
    instance = make_instance(tmp_path)
    instance.cache_dir.mkdir(parents=True)
    for key, base in READ_AT_START.items():  # every field hostile at once
        text = json.dumps(_nested_marks(base)).replace(json.dumps(_MARK), literal)
        write(instance.cache_dir / f"{key}.json", text)
    display = start_display(instance)
    try:
        current = running_state(instance, display)
        assert (current.get("on_demand") or {}).get("state") in ("idle", "error")
        assert display.process.poll() is None
        assert "Traceback" not in display.output()
    finally:
        display.stop()


def _nested_marks(value: Any) -> Any:
    if isinstance(value, dict):
        return {name: _nested_marks(inner) for name, inner in value.items()}
    return _MARK
