"""/stream/preview and /stream/stats from real daemons: a headless display and the web
daemon as subprocesses over loopback, talking over a real bus directory."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
import requests

from bench.common import cpu_seconds
from shared.bus import core as keys
from tests.daemons import Instance, running
from tests.web_service.log_helpers import EventStream, open_stream

pytestmark = pytest.mark.timeout(180)

PLUGIN_CODE = '''
from PIL import ImageDraw

from shared.plugin_api.base_plugin import BasePlugin


class Plugin(BasePlugin):
    def update(self):
        pass

    def display(self, force_clear=False):
        draw = ImageDraw.Draw(self.display_manager.image)
        draw.rectangle((0, 0, 7, 7), fill={color!r})
        self.display_manager.update_display()
        return True
'''


def _plugin(instance: Instance, plugin_id: str, color: tuple[int, int, int]) -> None:
    directory = instance.plugins_dir / plugin_id
    directory.mkdir(parents=True)
    (directory / "manifest.json").write_text(json.dumps({
        "id": plugin_id, "name": plugin_id, "version": "1.0.0", "author": "tests",
        "entry_point": "manager.py", "class_name": "Plugin", "display_modes": [plugin_id],
        "compatible_versions": [">=3.0.0"]}))
    (directory / "config_schema.json").write_text(json.dumps({
        "type": "object", "properties": {"enabled": {"type": "boolean", "default": False}}}))
    (directory / "manager.py").write_text(PLUGIN_CODE.format(color=color))


@pytest.fixture
def daemons(tmp_path: Path,
            monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Instance, str, int]]:
    monkeypatch.setenv("LEDPANEL_STREAM_HEARTBEAT", "0.5")
    monkeypatch.setenv("LEDPANEL_STREAM_LIFETIME", "20")
    monkeypatch.setenv("LEDPANEL_STATS_INTERVAL", "0.3")
    instance = Instance(tmp_path)
    _plugin(instance, "red", (255, 0, 0))
    _plugin(instance, "green", (0, 255, 0))
    config = json.loads(Path("config/config.template.json").read_text())
    config["display_durations"] = {"red": 600, "green": 600}
    config["red"] = {"enabled": True}
    config["green"] = {"enabled": True}
    instance.write_config(config)
    with running(instance) as (display, _web, url):
        _wait(lambda: requests.get(f"{url}/api/v3/system/status", timeout=5)
              .json()["data"]["display"]["plugin_id"])
        yield instance, url, display.process.pid


def _wait(predicate, timeout: float = 20.0):  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError("condition not met in time")


def _next_frame(stream: EventStream, plugin_id: str | None = None) -> dict:
    for _ in range(200):  # bounded; each read also times out
        event = stream.next()
        assert event is not None, "the stream ended"
        if event.name == "frame" and plugin_id in (None, event.data["plugin_id"]):
            assert event.id
            return event.data | {"id": event.id}
    raise AssertionError(f"no frame of {plugin_id}")


def _frame_file(instance: Instance) -> Path:
    return instance.cache_dir / f"{keys.PREVIEW_FRAME}.json"


def test_preview_stream_sends_changing_frames_and_the_display_encodes_only_while_watched(
        daemons: tuple[Instance, str, int]) -> None:
    instance, url, display_pid = daemons
    frame_file = _frame_file(instance)
    time.sleep(2)
    assert not frame_file.exists()  # nobody watches: the display encodes nothing

    stream = open_stream(f"{url}/stream/preview")
    assert stream.response.headers["Content-Type"].startswith("text/event-stream")
    state = stream.until("state")[-1]
    assert state.data["service"] == "running" and state.data["live"] is True
    first = _next_frame(stream)
    assert (first["width"], first["height"]) == (64, 32) or first["width"] > first["height"]
    assert first["png_base64"] and first["at"] > 0 and first["plugin_id"] in ("red", "green")
    assert frame_file.exists()

    other = "green" if first["plugin_id"] == "red" else "red"
    response = requests.post(f"{url}/api/v3/display/on-demand/start",
                             json={"plugin_id": other, "pinned": True}, timeout=10)
    assert response.status_code == 200, response.text
    changed = _next_frame(stream, other)
    assert changed["png_base64"] != first["png_base64"] and changed["id"] != first["id"]
    quiet_start, cpu_before = stream.comments, cpu_seconds(display_pid)
    ids = []
    deadline = time.monotonic() + 2
    while time.monotonic() < deadline:  # a still panel: heartbeats, no repeated frame
        event = stream.next()
        if event is not None and event.name == "frame":
            ids.append(event.id)
    assert len(ids) == len(set(ids))
    # Watching a still panel costs the display next to nothing (a spinning loop: ~50%).
    assert cpu_seconds(display_pid) - cpu_before < 0.3
    assert stream.comments > quiet_start

    stream.close()
    # The last stream out lets the viewer mark lapse: the display stops and removes it.
    _wait(lambda: not frame_file.exists(), timeout=10)
    time.sleep(1.5)
    assert not frame_file.exists()


def test_ten_preview_streams_leave_the_api_answering(
        daemons: tuple[Instance, str, int]) -> None:
    _instance, url, _pid = daemons

    def watch() -> int:
        response = requests.get(f"{url}/stream/preview", stream=True, timeout=(5, 10))
        try:
            if response.status_code == 200:
                stream = EventStream(response)
                stream.until("state")
                _next_frame(stream)
                time.sleep(3)
            return response.status_code
        finally:
            response.close()

    with ThreadPoolExecutor(10) as pool:
        watchers = [pool.submit(watch) for _ in range(10)]
        time.sleep(1.0)
        for _ in range(10):
            started = time.monotonic()
            answer = requests.get(f"{url}/api/v3/system/status", timeout=5)
            assert answer.status_code == 200
            assert time.monotonic() - started < 3
        codes = [w.result(timeout=60) for w in watchers]
    assert codes.count(200) == 4 and codes.count(503) == 6
    busy = requests.get(f"{url}/stream/preview", timeout=5)
    if busy.status_code == 503:  # only while a slot is still being given back
        assert busy.json()["error_code"] == "STREAMS_BUSY"


def test_a_stream_past_the_limit_is_refused_with_streams_busy(
        daemons: tuple[Instance, str, int]) -> None:
    _instance, url, _pid = daemons
    open_ones = [open_stream(f"{url}/stream/preview") for _ in range(4)]
    try:
        for stream in open_ones:
            stream.until("state")
        refused = requests.get(f"{url}/stream/stats", timeout=5)
        assert refused.status_code == 503
        body = refused.json()
        assert body["error_code"] == "STREAMS_BUSY" and refused.headers["Retry-After"]
    finally:
        for stream in open_ones:
            stream.close()
    _wait(lambda: requests.get(f"{url}/stream/stats", stream=True, timeout=5)
          .status_code == 200)


def test_stats_stream_sends_named_events_with_ids(
        daemons: tuple[Instance, str, int]) -> None:
    _instance, url, _pid = daemons
    stream = open_stream(f"{url}/stream/stats")
    try:
        first = stream.until("stats")[-1]
        second = stream.until("stats")[-1]
    finally:
        stream.close()
    assert first.id and second.id and first.id != second.id
    assert first.data["display"]["service"] == "running"
    assert first.data["display"]["plugin_id"] in ("red", "green")
    assert set(first.data["host"]) >= {"load", "memory", "uptime_seconds", "cpu_temperature_c"}
    assert first.data["web"]["uptime_seconds"] >= 0
    assert second.data["at"] > first.data["at"]
