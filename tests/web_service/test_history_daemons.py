"""Operation history with the real daemons: plugin lifecycle events from the display,
API calls from the web, merged in one list that outlives both processes."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import requests

from tests.daemons import ROOT, Instance, running, start_web
from tests.display_service.helpers import wait_until
from tests.hostile_plugins import STILL, install, install_hostile

pytestmark = pytest.mark.timeout(180)

BROKEN = STILL.replace("    def update(self):", "    def __init__(self, *args, **kwargs):\n"
                       "        raise RuntimeError('no feed configured')\n\n"
                       "    def update(self):")
FLAKY = STILL.replace("    def update(self):\n        pass",
                      "    def update(self):\n        raise ValueError('feed down')")
PLUGINS = ("still", "broken", "flaky", "hangs")


def make_instance(base: Path) -> Instance:
    instance = Instance(base)
    install(instance.plugins_dir, "still", STILL)
    install(instance.plugins_dir, "broken", BROKEN)
    install(instance.plugins_dir, "flaky", FLAKY)
    install_hostile(instance.plugins_dir, "hangs")
    (instance.plugins_dir / "hangs" / "hang").touch()
    config = json.loads((ROOT / "config" / "config.template.json").read_text())
    for plugin_id in PLUGINS:
        config[plugin_id] = {"enabled": True}
    config["display_durations"] = dict.fromkeys(PLUGINS, 1)
    instance.write_config(config)
    return instance


def events(url: str, **query: Any) -> list[dict[str, Any]]:
    answer = requests.get(f"{url}/api/v3/history", params={"limit": 1000, **query}, timeout=10)
    assert answer.status_code == 200, answer.text
    return answer.json()["data"]["entries"]


def seen(url: str, plugin_id: str, what: str) -> dict[str, Any] | None:
    return next((e for e in events(url, plugin_id=plugin_id) if e["what"] == what), None)


def test_plugin_lifecycle_and_api_calls_are_recorded_and_kept_across_restarts(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LEDPANEL_HANG_SECONDS", "1.5")
    instance = make_instance(tmp_path)
    with running(instance) as (_display, _web, url):
        wait_until(lambda: seen(url, "hangs", "safe_mode_entered"), timeout=90)
        wait_until(lambda: seen(url, "flaky", "rested"), timeout=60)
        loaded = seen(url, "still", "loaded")
        assert loaded and loaded["result"] == "success" and loaded["source"] == "display"
        failed = seen(url, "broken", "load_failed")
        assert failed and failed["result"] == "error"
        assert "no feed configured" in failed["detail"]
        rested = seen(url, "flaky", "rested")
        assert rested and "update() keeps failing" in rested["detail"]
        assert "feed down" in rested["detail"]

        (instance.plugins_dir / "hangs" / "hang").unlink()
        released = requests.post(f"{url}/api/v3/plugins/safe-mode/release",
                                 json={"plugin_id": "hangs"}, timeout=10)
        assert released.status_code in (200, 202), released.text
        wait_until(lambda: seen(url, "hangs", "safe_mode_released"), timeout=30)
        assert requests.post(f"{url}/api/v3/plugins/toggle", timeout=10, json={
            "plugin_id": "still", "enabled": False}).status_code == 200
        wait_until(lambda: seen(url, "still", "unloaded"), timeout=30)
        assert seen(url, "still", "unloaded")["detail"] == "switched off"

        calls = [(e["what"], e["plugin_id"], e["result"]) for e in events(url, kind="api")]
        assert calls == [("plugins.toggle", "still", "success"),
                         ("safe_mode.release", "hangs", "success")]

    web, url = start_web(instance)  # both stopped: the history is still there
    try:
        after = events(url)
        stopping = [e["plugin_id"] for e in after if e["what"] == "unloaded"
                    and e["detail"] == "display stopping"]
        assert "flaky" in stopping and "still" not in stopping
        for plugin_id, what in (("still", "loaded"), ("broken", "load_failed"),
                                ("flaky", "rested"), ("hangs", "safe_mode_entered"),
                                ("hangs", "safe_mode_released"), ("still", "unloaded")):
            assert any(e["plugin_id"] == plugin_id and e["what"] == what for e in after)
        assert [e["id"] for e in after] == sorted((e["id"] for e in after), reverse=True)
    finally:
        web.stop()
