"""System actions on a development run: the real scripts/supervise.py and both daemons."""

from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest

from tests.daemons import Instance
from tests.dev_run import dev_run, plain_config, wait_for

pytestmark = [pytest.mark.daemons, pytest.mark.timeout(180)]


def test_stop_then_start_the_display_while_the_web_keeps_running(tmp_path: Path) -> None:
    instance = Instance(tmp_path)
    plain_config(instance)
    with dev_run(instance) as run:
        first = wait_for(lambda: (s := run.status()) and s["display"]["service"] == "running"
                         and s, "the display running")
        web_pid = first["web"]["pid"]

        answer = run.act("stop_display")
        assert answer.status_code == 200, answer.text
        assert answer.json()["message"] == "display stopped"
        status = wait_for(lambda: (s := run.status()) and s["display"]["service"] != "running"
                          and s, "the display not running", timeout=5)
        assert status["display"]["summary"].startswith("not running")
        assert status["web"]["pid"] == web_pid  # the web was not stopped with it
        assert run.process.poll() is None

        answer = run.act("stop_display")  # stopping a stopped display is no failure
        assert answer.status_code == 200, answer.text

        answer = run.act("start_display")
        assert answer.status_code == 200, answer.text
        assert answer.json()["message"] == "display started"
        back = wait_for(lambda: (s := run.status()) and s["display"]["service"] == "running"
                        and s, "the display running again")
        assert back["display"]["pid"] != first["display"]["pid"]
        assert not back["display"]["summary"].startswith("not running")
        assert "ledpanel: display stopped on request; the web keeps running" in run.lines


def test_restart_either_daemon_and_refuse_the_system_wide_ones(tmp_path: Path) -> None:
    instance = Instance(tmp_path)
    plain_config(instance)
    with dev_run(instance) as run:
        first = wait_for(lambda: (s := run.status()) and s["display"]["service"] == "running"
                         and s, "the display running")

        answer = run.act("reboot_system")
        assert answer.status_code == 409, answer.text
        assert answer.json()["error_code"] == "NOT_ON_DEV_RUN"

        answer = run.act("restart_display_service")
        assert answer.status_code == 200, answer.text
        assert answer.json()["message"] == "display restarted"
        wait_for(lambda: (s := run.status()) and s["display"]["service"] == "running"
                 and s["display"]["pid"] != first["display"]["pid"], "a new display")

        answer = run.act("restart_web_service")
        assert answer.status_code == 202, answer.text
        assert "reconnects" in answer.json()["message"]
        wait_for(lambda: (s := run.status()) and s["web"]["pid"] != first["web"]["pid"],
                 "a new web answering")
        assert run.process.poll() is None
        assert "ledpanel: web restarted on request" in run.lines


def test_the_supervisor_serves_only_well_formed_requests(tmp_path: Path) -> None:
    from shared.supervision import dev_control
    from tests.system.test_dev_supervisor import Run

    cache = tmp_path / "cache"
    run = Run(tmp_path, "forever", "forever")
    try:
        run.wait_for_line("display | display ready")
        run.wait_for_line("web     | web ready")
        requests_dir = dev_control.requests_dir(cache)
        requests_dir.mkdir(parents=True, exist_ok=True)
        os.mkfifo(requests_dir / f"{'a' * 32}.json")  # would block a plain open
        (requests_dir / f"{'b' * 32}.json").symlink_to("/etc/passwd")
        (requests_dir / f"{'c' * 32}.json").write_text('{"action": "reboot_system"}')
        (requests_dir / "not-an-id.json").write_text('{"action": "stop_display"}')
        (requests_dir / f"{'d' * 32}.json").write_text("x" * 100_000)
        request_id = dev_control.send(cache, "stop_display")
        answer = dev_control.wait_answer(cache, request_id, timeout=20)
        assert answer == {"ok": True, "message": "display stopped"}
        assert "display | display got SIGTERM" in run.lines
        assert "web     | web got SIGTERM" not in run.lines
        assert list(requests_dir.iterdir()) == []  # the junk was removed, never acted on
        assert not dev_control.answers_dir(cache).exists() or not any(
            dev_control.answers_dir(cache).iterdir())

        request_id = dev_control.send(cache, "start_display")
        assert dev_control.wait_answer(cache, request_id, timeout=20) == {
            "ok": True, "message": "display started"}
        wait_for(lambda: run.lines.count("display | display ready") == 2, "a new display")
        assert run.process.poll() is None
    finally:
        run.process.send_signal(signal.SIGTERM)
        assert run.finish() == 0
