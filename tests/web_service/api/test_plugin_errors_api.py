"""Runtime plugin errors reach the API and ``ledpanel status``: real daemons, real bus."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
import requests

from shared.bus import core as keys
from shared.bus.core import Bus
from shared.bus.display_status import plugin_errors
from tests.daemons import ROOT, Daemon, Instance, running
from tests.display_service.helpers import wait_until
from tests.hostile_plugins import STILL, install

pytestmark = pytest.mark.timeout(120)

# display() fails every time it is called.
FAILING = '''
from shared.plugin_api.base_plugin import BasePlugin


class Plugin(BasePlugin):
    def update(self):
        pass

    def display(self, force_clear=False):
        raise ValueError("weather feed down")
'''
ERROR = "ValueError: weather feed down"


def make_instance(base: Path, *plugins: tuple[str, str]) -> Instance:
    instance = Instance(base)
    config = json.loads((ROOT / "config" / "config.template.json").read_text())
    for plugin_id, source in (("still", STILL), *plugins):
        install(instance.plugins_dir, plugin_id, source)
        config[plugin_id] = {"enabled": True}
        config.setdefault("display_durations", {})[plugin_id] = 2
    instance.write_config(config)
    return instance


def get(url: str, path: str) -> Any:
    response = requests.get(f"{url}/api/v3{path}", timeout=10)
    assert response.status_code == 200, response.text
    return response.json()["data"]


def runtime_errors(url: str) -> dict[str, Any]:
    return {plugin["id"]: plugin["runtime_errors"] for plugin in get(url, "/plugins/installed")}


def running_display(instance: Instance, display: Daemon) -> None:
    wait_until(lambda: (Bus(instance.cache_dir).read(keys.DISPLAY_STATE) or {}).get("pid")
               == display.process.pid, timeout=20)


def ledpanel_status(url: str) -> str:
    result = subprocess.run([sys.executable, "-m", "shared.cli", "status", "--url", url],
                            cwd=ROOT, capture_output=True, text=True, timeout=60)
    return result.stdout


def test_a_failing_plugin_is_in_the_installed_list_the_status_and_the_command(
        tmp_path: Path) -> None:
    instance = make_instance(tmp_path, ("failing", FAILING))
    started = time.time()
    with running(instance) as (display, _web, url):
        wait_until(lambda: (get(url, "/system/status")["display"]["plugin_errors"] or {})
                   .get("failing"), timeout=30)
        summary = get(url, "/system/status")["display"]["plugin_errors"]
        assert list(summary) == ["failing"]
        record = summary["failing"]
        assert record["count"] >= 1 and record["where"] == "display"
        assert record["last_error"] == ERROR
        assert started - 1 <= record["at"] <= time.time() + 1

        found = runtime_errors(url)
        assert found["still"] is None
        assert found["failing"]["last_error"] == ERROR
        assert found["failing"]["where"] == "display"
        assert found["failing"]["count"] >= record["count"]
        assert set(found["failing"]) == {"count", "last_error", "where", "at"}

        printed = ledpanel_status(url)
        lines = [line.strip() for line in printed.splitlines() if "failing:" in line]
        assert len(lines) == 1, printed
        assert lines[0].startswith("plugin errors:")
        assert lines[0].endswith(f"failure(s), last in display(): {ERROR}")

        display.stop()
        # A stopped display's errors are not current: they are not shown as such.
        wait_until(lambda: get(url, "/system/status")["display"]["service"] == "stopped")
        assert get(url, "/system/status")["display"]["plugin_errors"] is None
        assert runtime_errors(url) == {"still": None, "failing": None}
        assert "failing:" not in ledpanel_status(url)


@pytest.mark.parametrize("content", [
    b"not json at all", b"[1, 2]", b'{"still": "broken"}', b'{"still": {"count": "3"}}',
    b'{"still": {"count": true}}', b'{"still": {"count": 2, "at": "noon", "where": 5}}',
    b"\xff\xfe garbage",
], ids=["text", "list", "string-record", "string-count", "bool-count", "bad-fields",
        "binary"])
def test_a_torn_or_hand_edited_error_record_never_breaks_an_answer(
        tmp_path: Path, content: bytes) -> None:
    instance = make_instance(tmp_path)
    with running(instance) as (display, _web, url):
        running_display(instance, display)
        time.sleep(0.5)  # the display's own start-up record is written by now
        Bus(instance.cache_dir).path(keys.PLUGIN_ERRORS).write_bytes(content)
        status = get(url, "/system/status")["display"]
        assert status["service"] == "running"
        expected = plugin_errors(_loads(content))
        assert status["plugin_errors"] == expected
        still = runtime_errors(url)["still"]
        assert still == expected.get("still")
        if still is not None:  # the one usable record: malformed fields read as None
            assert still == {"count": 2, "last_error": None, "where": None, "at": None}


def _loads(content: bytes) -> Any:
    try:
        return json.loads(content)
    except ValueError:
        return None


def test_error_records_are_cleaned_field_by_field() -> None:
    long = "E" * 1000
    record = {"a": {"count": 3, "last_error": long, "where": "update", "at": 1.5},
              "b": {"count": 0}, "c": {"count": -1}, "": {"count": 1}, "d": None,
              "e": {"count": 1, "at": float("nan")}}
    assert plugin_errors(record) == {
        "a": {"count": 3, "last_error": "E" * 300, "where": "update", "at": 1.5},
        "e": {"count": 1, "last_error": None, "where": None, "at": None},
    }
    assert plugin_errors(None) == {} and plugin_errors([1]) == {}
