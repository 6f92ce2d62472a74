"""GET /api/v3/logs: the newest lines of both daemons, from their files or journald."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from tests.web_service.conftest import WebEnv
from tests.web_service.log_helpers import DISPLAY_UNIT, WEB_UNIT, Journal, use_fake_journal
from web_service.logs import journal as log_journal


@pytest.fixture
def journal(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Journal:
    return use_fake_journal(tmp_path, monkeypatch)


def stamp(at: float) -> str:
    """Our log format's asctime for ``at`` (local time, milliseconds)."""
    return time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(at)) + f",{int(at % 1 * 1000):03d}"


def logs(web: WebEnv, query: str = "") -> dict:
    answer = web.client.get(f"/api/v3/logs{query}")
    assert answer.status_code == 200, answer.get_json()
    return answer.get_json()["data"]


def test_journald_lines_come_with_their_daemon_and_the_level_of_their_record(
        web: WebEnv, journal: Journal) -> None:
    now = time.time() - 10
    journal.add(DISPLAY_UNIT, "Started ledpanel display daemon.", own=False, at=now)
    journal.add(DISPLAY_UNIT, "INFO ledpanel-display: ledpanel-display started", at=now + 1)
    journal.add(WEB_UNIT, f"{stamp(now + 2)} WARNING ledpanel.web: config: odd", at=now + 2)
    journal.add(DISPLAY_UNIT, "ERROR shared.plugin_system.manager: clock: boom", at=now + 3)
    journal.add(DISPLAY_UNIT, "Traceback (most recent call last):", at=now + 3.1)
    journal.add(DISPLAY_UNIT, "Stopping failed.", own=False, priority=3, at=now + 4)

    data = logs(web)
    assert data["sources"] == {"display": {"kind": "journald", "unit": DISPLAY_UNIT},
                               "web": {"kind": "journald", "unit": WEB_UNIT},
                               "mqtt": {"kind": "journald", "unit": "ledpanel-mqtt.service"}}
    got = [(e["daemon"], e["level"], e["message"], e["continued"]) for e in data["entries"]]
    assert got == [
        ("display", "INFO", "Started ledpanel display daemon.", False),
        ("display", "INFO", "ledpanel-display started", False),
        ("web", "WARNING", "config: odd", False),
        ("display", "ERROR", "clock: boom", False),
        ("display", "ERROR", "Traceback (most recent call last):", True),
        ("display", "ERROR", "Stopping failed.", False),
    ]
    assert data["entries"][2]["logger"] == "ledpanel.web"
    assert abs(data["entries"][1]["at"] - (now + 1)) < 0.01
    run = journal.runs()[-1]["argv"]
    assert run[run.index("-o") + 1] == "json"
    assert ["-u", DISPLAY_UNIT, "-u", WEB_UNIT] == run[run.index("-u"):run.index("-u") + 4]

    errors = logs(web, "?daemon=display&level=error")["entries"]
    assert [e["message"] for e in errors] == ["clock: boom", "Traceback (most recent call last):",
                                              "Stopping failed."]
    assert journal.runs()[-1]["argv"].count("-u") == 1
    assert [e["message"] for e in logs(web, "?daemon=web")["entries"]] == ["config: odd"]
    assert [e["message"] for e in logs(web, "?lines=2")["entries"]] == [
        "Traceback (most recent call last):", "Stopping failed."]


def test_a_daemon_with_a_dev_log_file_is_read_from_it(web: WebEnv, journal: Journal) -> None:
    logs_dir = web.paths.cache_dir / "logs"
    logs_dir.mkdir(parents=True)
    at = time.time() - 60
    (logs_dir / "display.log.1").write_text(
        f"{stamp(at)} INFO ledpanel-display: ledpanel-display 3.8.0 started\n")
    (logs_dir / "display.log").write_text(
        f"{stamp(at + 1)} WARNING display_service.plugins: clock: update() failed: KeyError\n"
        "Traceback (most recent call last):\n"
        f"{stamp(at + 2)} DEBUG display_service.loop.render_loop: frame\n"
        f"{stamp(at + 3)} INFO display_service.loop.render_loop: config rel")  # still being written
    journal.add(WEB_UNIT, f"{stamp(at + 1.5)} INFO ledpanel.web: listening", at=at + 1.5)

    data = logs(web)
    assert data["sources"]["display"] == {"kind": "file", "path": str(logs_dir / "display.log")}
    assert data["sources"]["web"]["kind"] == "journald"
    got = [(e["daemon"], e["level"], e["message"]) for e in data["entries"]]
    assert got == [
        ("display", "INFO", "ledpanel-display 3.8.0 started"),  # from the rotated file
        ("display", "WARNING", "clock: update() failed: KeyError"),
        ("display", "WARNING", "Traceback (most recent call last):"),
        ("web", "INFO", "listening"),
        ("display", "DEBUG", "frame"),
    ]
    assert abs(data["entries"][1]["at"] - (at + 1)) < 0.01
    assert [e["message"] for e in logs(web, "?daemon=display&level=WARNING")["entries"]] == [
        "clock: update() failed: KeyError", "Traceback (most recent call last):"]
    assert "-u" in journal.runs()[-1]["argv"] and DISPLAY_UNIT not in journal.runs()[-1]["argv"]


def test_garbage_in_the_journal_and_the_files_is_skipped_or_shown_as_text(
        web: WebEnv, journal: Journal) -> None:
    with journal.path.open("a") as file:
        file.write('not json\n[1, 2]\n{"MESSAGE": "no unit"}\n')
    journal.add(WEB_UNIT, "INFO ledpanel.web: fine")
    with journal.path.open("a") as file:  # a non-UTF-8 message, as journald shows one
        file.write('{"_SYSTEMD_UNIT": "ledpanel-web.service", "MESSAGE": [255, 104, 105],'
                   ' "__REALTIME_TIMESTAMP": "x", "PRIORITY": "4"}\n')
    entries = logs(web, "?daemon=web")["entries"]
    assert [(e["level"], e["message"]) for e in entries] == [("INFO", "fine"),
                                                            ("WARNING", "\ufffdhi")]
    logs_dir = web.paths.cache_dir / "logs"
    logs_dir.mkdir(parents=True)
    (logs_dir / "display.log").write_bytes(b"\xff\xfe binary\x00junk\n" + b"x" * 5000 + b"\n")
    entries = logs(web, "?daemon=display")["entries"]
    assert entries[0]["message"].startswith("\ufffd\ufffd binary")
    assert len(entries[1]["message"]) == 4000  # cut


@pytest.mark.parametrize("query, field", [
    ("daemon=both", "daemon"), ("level=LOUD", "level"), ("lines=0", "lines"),
    ("lines=1001", "lines"), ("lines=ten", "lines"), ("lines=-5", "lines"),
    ("lines=%C2%B2", "lines"), ("lines=%D9%A3", "lines"),
])
def test_a_bad_parameter_is_one_400_naming_it(web: WebEnv, query: str, field: str) -> None:
    for path in ("/api/v3/logs", "/stream/logs"):
        answer = web.client.get(f"{path}?{query}")
        assert answer.status_code == 400
        body = answer.get_json()
        assert body["error_code"] == "INVALID_FIELD" and body["details"] == {"field": field}


def test_no_log_file_and_no_journal_is_a_503_saying_so(
        web: WebEnv, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    answer = web.client.get("/api/v3/logs")
    assert answer.status_code == 503
    body = answer.get_json()
    assert body["error_code"] == "LOGS_UNAVAILABLE" and "journalctl" in body["message"]


def test_journalctl_failing_is_a_503_with_its_reason(
        web: WebEnv, journal: Journal, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FAKE_JOURNAL", "")
    answer = web.client.get("/api/v3/logs")
    assert answer.status_code == 503
    assert answer.get_json()["message"] == (
        "journalctl failed (exit status 1): journalctl: No journal files were found.")


def test_a_journal_bigger_than_the_bound_is_read_only_up_to_it(
        web: WebEnv, journal: Journal, monkeypatch: pytest.MonkeyPatch) -> None:
    """journalctl's backlog is streamed and cut at MAX_OUTPUT (whole lines): the run is
    ended there instead of being read whole, and the newest lines read are answered."""
    monkeypatch.setattr(log_journal, "MAX_OUTPUT", 64 * 1024)
    monkeypatch.setenv("FAKE_JOURNAL_FLOOD", "2000000")  # ~600 MB if read to its end
    journal.add(DISPLAY_UNIT, "INFO ledpanel-display: first")
    started = time.monotonic()
    answer = web.client.get("/api/v3/logs?lines=1000")
    assert answer.status_code == 200, answer.get_json()
    assert time.monotonic() - started < log_journal.RUN_TIMEOUT / 2
    entries = answer.get_json()["data"]["entries"]
    messages = [e["message"] for e in entries]
    assert "first" in messages  # the journal's own entry comes before the flood
    assert 100 < len(entries) < 64 * 1024 // 200  # whole lines up to the bound only
    assert messages.count("x" * 200) == len(entries) - 1
    pid = journal.runs()[-1]["pid"]
    assert not Path(f"/proc/{pid}").exists()  # ended and reaped, not left writing
