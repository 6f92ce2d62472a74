"""/stream/logs: server-sent events of the daemons' logs, from a real web daemon.

The web daemon runs as a subprocess on a loopback port, with short heartbeats and a
short stream lifetime (``LEDPANEL_STREAM_*``) so the tests see both; journald is the
fake ``journalctl`` on PATH; a log file is written here as ``scripts/dev`` writes it.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import requests

from tests.daemons import ROOT, Instance, _spawn, start_web, wait_http
from tests.display_service.helpers import wait_until
from tests.web_service.log_helpers import (
    DISPLAY_UNIT,
    Journal,
    open_stream,
    pid_alive,
    use_fake_journal,
)
from web_service.logs.sources import encode_token

pytestmark = pytest.mark.timeout(120)

LISTENING = re.compile(r"listening on http://[^:]+:(\d+)")


@pytest.fixture
def journal(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Journal:
    monkeypatch.setenv("LEDPANEL_STREAM_HEARTBEAT", "0.3")
    monkeypatch.setenv("LEDPANEL_STREAM_LIFETIME", "4")
    return use_fake_journal(tmp_path, monkeypatch)


@pytest.fixture
def web(tmp_path: Path, journal: Journal) -> Iterator[tuple[Instance, str]]:
    instance = Instance(tmp_path / "instance")
    daemon, url = start_web(instance)
    try:
        yield instance, url
    finally:
        daemon.stop()


def test_a_log_file_is_followed_across_its_rotation_and_a_reconnect_resumes(
        web: tuple[Instance, str]) -> None:
    instance, url = web
    logs = instance.cache_dir / "logs"
    logs.mkdir()
    log = logs / "display.log"
    log.write_text("INFO ledpanel-display: one\nDEBUG display_service.loop.render_loop: chatter\n")

    stream = open_stream(f"{url}/stream/logs?daemon=display&level=INFO")
    assert stream.response.headers["Content-Type"].startswith("text/event-stream")
    events = stream.until("ready")
    assert [e.data["message"] for e in events[:-1]] == ["one"]  # the backlog, at INFO up
    ready = events[-1]
    assert ready.data["sources"] == {"display": {"kind": "file", "path": str(log)}}
    assert ready.id and stream.retry == 2000

    with log.open("a") as file:
        file.write("WARNING display_service.plugins: two\nDEBUG x: hidden\nERROR y: thr")
    assert stream.until("log")[-1].data["message"] == "two"
    with log.open("a") as file:
        file.write("ee\n")  # the line is whole now
    three = stream.until("log")[-1]
    assert (three.data["message"], three.data["level"]) == ("three", "ERROR")

    # scripts/dev rotates: the old file becomes .1 (after one more line), a new one begins.
    with log.open("a") as file:
        file.write("INFO z: four\n")
    log.rename(logs / "display.log.1")
    log.write_text("INFO z: five\n")
    got = [e.data["message"] for e in stream.until("log") + stream.until("log")]
    assert got == ["four", "five"]
    assert stream.until("end")[-1].data == {"reason": "lifetime"}  # the stream says so
    last_id = stream.last_id
    assert last_id is not None
    assert stream.comments >= 3  # heartbeats while it was quiet
    assert stream.next() is None
    stream.close()

    with log.open("a") as file:
        file.write("INFO z: six\n")
    again = open_stream(f"{url}/stream/logs?daemon=display&level=INFO", **{"Last-Event-ID":
                                                                           last_id})
    events = again.until("ready")
    assert len(events) == 1 and events[0].data["backlog"] == 0  # no backlog on resuming
    assert again.until("log")[-1].data["message"] == "six"
    again.close()


def test_journald_is_followed_and_journalctl_ends_with_the_stream(
        web: tuple[Instance, str], journal: Journal) -> None:
    _, url = web
    journal.add(DISPLAY_UNIT, "INFO ledpanel-display: started")
    stream = open_stream(f"{url}/stream/logs?daemon=display&level=WARNING&lines=10")
    events = stream.until("ready")
    assert [e.name for e in events] == ["ready"]  # nothing at WARNING yet
    assert events[0].data["sources"]["display"] == {"kind": "journald", "unit": DISPLAY_UNIT}
    journal.add(DISPLAY_UNIT, "WARNING display_service.plugins: clock: slow")
    journal.add(DISPLAY_UNIT, "INFO display_service.loop.render_loop: quiet")
    journal.add(DISPLAY_UNIT, "ERROR display_service.plugins: clock: failed")
    got = [e.data["message"] for e in stream.until("log") + stream.until("log")]
    assert got == ["clock: slow", "clock: failed"]
    follower = journal.runs()[-1]
    assert "-f" in follower["argv"] and any(a.startswith("--after-cursor=")
                                            for a in follower["argv"])
    assert pid_alive(follower["pid"])
    stream.close()  # the browser goes away: the next heartbeat notices, journalctl ends
    wait_until(lambda: not pid_alive(follower["pid"]), timeout=10)


def test_streams_are_capped_and_the_api_stays_quick_while_they_are_open(
        web: tuple[Instance, str]) -> None:
    instance, url = web
    (instance.cache_dir / "logs").mkdir()
    (instance.cache_dir / "logs" / "web.log").write_text("INFO a: b\n")
    (instance.cache_dir / "logs" / "display.log").write_text("INFO a: b\n")
    streams = [open_stream(f"{url}/stream/logs") for _ in range(4)]
    for stream in streams:
        stream.until("ready")
    refused = requests.get(f"{url}/stream/logs", timeout=5)
    assert refused.status_code == 503
    assert refused.headers["Retry-After"] == "30"
    assert refused.json()["error_code"] == "STREAMS_BUSY"
    for _ in range(5):
        started = time.monotonic()
        assert requests.get(f"{url}/api/v3/system/status", timeout=5).status_code == 200
        assert time.monotonic() - started < 1.0
    streams.pop().close()  # its slot comes back once the server notices (a heartbeat)

    def slot_free() -> bool:
        with requests.get(f"{url}/stream/logs?lines=1", stream=True, timeout=5) as answer:
            return answer.status_code == 200

    wait_until(slot_free, timeout=10)
    for stream in streams:
        stream.close()


def test_scripts_dev_writes_the_log_files_the_logs_route_reads(
        tmp_path: Path, journal: Journal) -> None:
    instance = Instance(tmp_path / "instance")
    dev = _spawn("dev", [str(ROOT / "scripts" / "supervise.py"), "--port", "0",
                         *instance.dir_flags()])
    try:
        wait_until(lambda: LISTENING.search(dev.output()) or dev.process.poll() is not None,
                   timeout=30)
        port = LISTENING.search(dev.output())
        assert port, dev.output()
        url = f"http://127.0.0.1:{port.group(1)}"
        wait_http(f"{url}/api/v3/health", 15)
        display_log = instance.cache_dir / "logs" / "display.log"
        wait_until(lambda: display_log.exists() and "started" in display_log.read_text(),
                   timeout=30)
        data = requests.get(f"{url}/api/v3/logs?level=INFO", timeout=10).json()["data"]
        assert {d: s["kind"] for d, s in data["sources"].items()} == {
            "display": "file", "web": "file", "mqtt": "file"}  # scripts/dev runs the bridge
        said = [(e["daemon"], e["message"]) for e in data["entries"]]
        assert any(d == "web" and "listening on http://" in m for d, m in said), said
        assert any(d == "display" and m.startswith("ledpanel-display") and "started" in m
                   for d, m in said), said
        assert journal.runs() == []  # files only: journald was not asked
    finally:
        assert dev.stop(20) == 0, dev.output()


def test_a_cursor_journald_refuses_ends_the_stream_and_the_next_try_starts_afresh(
        web: tuple[Instance, str], journal: Journal) -> None:
    _, url = web
    journal.add(DISPLAY_UNIT, "INFO ledpanel-display: started")
    stream = open_stream(f"{url}/stream/logs?daemon=display")
    assert len(stream.until("ready")) == 2
    stream.close()
    gone = encode_token({"journal": "s=rotated-away;i=1"})
    again = open_stream(f"{url}/stream/logs?daemon=display", **{"Last-Event-ID": gone})
    events = again.until("end")
    assert events[-1].data == {"reason": "the journal reader stopped"}
    assert again.last_id == "" and again.retry == 30000  # no resuming from there
    again.close()
