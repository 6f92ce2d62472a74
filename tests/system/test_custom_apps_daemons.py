"""Custom apps with the real daemons: pushed over HTTP, they join the display's rotation
and the panel shows them in turn; a lifetime ends one, DELETE removes one, a display
restart keeps them, and a garbage store file does not stop the display.

The display runs headless over a folder holding only the bundled custom-apps plugin (a
copy), so the rotation is the custom apps alone. That a mode left the display's
rotation is read from the display itself: an on-demand request for it is refused with
"has no mode".
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
import requests

from shared.bus import core as keys
from shared.bus.core import Bus
from tests.daemons import ROOT, Instance, running, start_display
from tests.dev_run import wait_for
from tests.system.test_hostile_bus_values import documents, write

pytestmark = [pytest.mark.timeout(240), pytest.mark.daemons]

PLUGIN = ROOT / "plugin-repos" / "custom-apps"


def make_instance(base: Path) -> Instance:
    instance = Instance(base)
    instance.plugins_dir.mkdir(parents=True)
    shutil.copytree(PLUGIN, instance.plugins_dir / "custom-apps",
                    ignore=shutil.ignore_patterns("__pycache__", "tests"))
    config = json.loads((ROOT / "config" / "config.template.json").read_text())
    instance.write_config(config)
    return instance


def store_file(instance: Instance) -> Path:
    return instance.assets_dir / "plugins" / "custom-apps" / "apps.json"


def shown(instance: Instance, mode: str, seen: set[str],
          reasons: dict[str, str] | None = None) -> bool:
    state = Bus(instance.cache_dir).read(keys.DISPLAY_STATE) or {}
    if state.get("plugin_id") == "custom-apps":
        seen.add(state.get("mode") or "")
        if reasons is not None:
            reasons[state.get("mode") or ""] = state.get("reason") or ""
    return mode in seen


def listed(url: str) -> list[str]:
    answer = requests.get(f"{url}/api/v3/custom", timeout=10).json()
    return [app["name"] for app in answer["data"]["apps"]]


def record_names(instance: Instance) -> list[str] | None:
    record = Bus(instance.cache_dir).read(keys.CUSTOM_APPS)
    return None if record is None else [app["name"] for app in record["apps"]]


def on_demand_outcome(instance: Instance, mode: str) -> dict[str, Any]:
    """Ask the display itself to show ``mode`` and return its answer."""
    bus = Bus(instance.cache_dir)
    request_id = bus.request(keys.DISPLAY_ON_DEMAND_REQUEST, {
        "action": "start", "plugin_id": "custom-apps", "mode": mode, "duration": 2})

    def answer() -> dict[str, Any] | None:
        state = bus.read(keys.DISPLAY_STATE) or {}
        result = (state.get("requests") or {}).get(request_id)
        return result if isinstance(result, dict) else None

    return wait_for(answer, f"the display's answer about {mode}", timeout=20)


def post(url: str, name: str, body: dict[str, Any]) -> dict[str, Any]:
    response = requests.post(f"{url}/api/v3/custom/{name}", json=body, timeout=20)
    assert response.status_code == 200, response.text
    return response.json()["data"]


def test_pushed_apps_rotate_expire_and_are_removed(tmp_path: Path) -> None:
    instance = make_instance(tmp_path)
    with running(instance) as (display, _web, url):
        wait_for(lambda: record_names(instance) == [], "the display's custom apps record")
        data = post(url, "door", {"text": "Door", "color": "#ff0000", "duration": 1})
        assert (data["state"], data["mode"]) == ("set", "custom-door")
        post(url, "frames", {"frames": [[[0, 0, 0, 255, 0]], [[1, 1, 0, 0, 255]]],
                             "duration": 1})
        seen: set[str] = set()
        reasons: dict[str, str] = {}
        wait_for(lambda: shown(instance, "custom-door", seen, reasons), "door shown",
                 timeout=30)
        assert reasons["custom-door"].endswith("; custom app door pushed over HTTP"), reasons
        wait_for(lambda: shown(instance, "custom-frames", seen), "frames shown in turn",
                 timeout=30)
        assert listed(url) == ["door", "frames"]
        plugins = requests.get(f"{url}/api/v3/plugins/installed", timeout=10).json()["data"]
        entries = plugins["plugins"] if isinstance(plugins, dict) else plugins
        [entry] = [p for p in entries if p["id"] == "custom-apps"]
        assert entry["display_modes"] == ["custom-door", "custom-frames"]

        post(url, "brief", {"text": "Brief", "lifetime": 2, "duration": 1})
        wait_for(lambda: "brief" not in (record_names(instance) or ["brief"]),
                 "the display dropped brief at the end of its lifetime", timeout=30)
        assert "has no mode 'custom-brief'" in (on_demand_outcome(instance, "custom-brief")
                                                ["error"] or "")
        assert listed(url) == ["door", "frames"]

        response = requests.delete(f"{url}/api/v3/custom/door", timeout=20)
        assert response.status_code == 200 and response.json()["data"]["state"] == "removed"
        assert "has no mode 'custom-door'" in (on_demand_outcome(instance, "custom-door")
                                               ["error"] or "")
        response = requests.delete(f"{url}/api/v3/custom/door", timeout=20)
        assert response.status_code == 404
        assert on_demand_outcome(instance, "custom-frames")["state"] == "active"
        history = requests.get(f"{url}/api/v3/history?limit=50", timeout=10).json()["data"]
        whats = [entry["what"] for entry in history["entries"]]
        assert "custom.set door" in whats and "custom.remove door" in whats
    assert "Traceback" not in display.output()


def test_a_restart_keeps_the_apps_and_a_garbage_store_does_not_stop_the_display(
        tmp_path: Path) -> None:
    instance = make_instance(tmp_path)
    with running(instance) as (_display, _web, url):
        post(url, "kept", {"text": "Kept", "duration": 1})
    display = start_display(instance)
    try:
        seen: set[str] = set()
        wait_for(lambda: shown(instance, "custom-kept", seen), "kept shown after a restart",
                 timeout=30)
    finally:
        assert display.stop() == 0
    store_file(instance).write_bytes(b"\x00 not json {")
    with running(instance) as (display, _web, url):
        wait_for(lambda: "starting with none" in display.output(), "the garbage logged")
        state = wait_for(lambda: Bus(instance.cache_dir).read(keys.DISPLAY_STATE),
                         "the display's state")
        assert "custom-apps" not in state.get("load_errors", {})
        wait_for(lambda: record_names(instance) == [], "no custom apps")
        post(url, "fresh", {"text": "Fresh", "duration": 1})
        seen = set()
        wait_for(lambda: shown(instance, "custom-fresh", seen), "a new app shown", timeout=30)
    assert json.loads(store_file(instance).read_text())["apps"].keys() == {"fresh"}


def test_hostile_requests_and_records_leave_the_display_and_the_web_answering(
        tmp_path: Path) -> None:
    instance = make_instance(tmp_path)
    base = {"action": "set", "name": "x", "app": {"text": "x"}, "source": "http",
            "request_id": "r", "requested_at": 1.0}
    with running(instance) as (display, web, url):
        wait_for(lambda: record_names(instance) == [], "the display's custom apps record")
        for index, text in enumerate(documents(base, [*base, "app"])):
            write(instance.cache_dir / f"{keys.CUSTOM_APP_REQUEST}{keys.QUEUE_SEP}"
                  f"{index:020d}-hostile{index}.json", text)
        for text in ('{"action": "set", "name": "y", "app": {"text": 5}, "request_id": "bad"}',
                     '{"action": "set", "name": "../z", "app": {"text": "z"}, '
                     '"request_id": "path"}'):
            write(instance.cache_dir / f"{keys.CUSTOM_APP_REQUEST}{keys.QUEUE_SEP}"
                  f"{99999:020d}-{len(text)}.json", text)
        post(url, "after", {"text": "After", "duration": 1})  # taken after all of them
        record = Bus(instance.cache_dir).read(keys.CUSTOM_APPS) or {}
        assert record["requests"]["bad"]["outcome"] == "refused"
        assert record["requests"]["path"]["outcome"] == "refused"
        for text in documents(record, list(record)):
            write(instance.cache_dir / f"{keys.CUSTOM_APPS}.json", text)
            for route in ("/api/v3/custom", "/api/v3/plugins/installed",
                          "/api/v3/system/status"):
                assert requests.get(f"{url}{route}", timeout=5).ok, (route, text[:60])
        assert display.process.poll() is None and web.process.poll() is None
    assert "Traceback" not in display.output() + web.output()
