"""Both daemons under journald (``JOURNAL_STREAM`` naming their stderr) write ``<N>``
priority prefixes and no time; elsewhere their lines are as before."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path

from shared.bus.daemon_lock import DISPLAY, WEB, lock_path
from tests.daemons import ROOT

STAMPED = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} (INFO|WARNING|ERROR) ")


def _run(args: list[str], err: Path, *, journal: bool, until: str | None = None,
         tmp: Path) -> str:
    """Run a daemon with stderr to ``err``; stop it once ``until`` is logged (or let it exit)."""
    env = {**os.environ, "PYTHONUNBUFFERED": "1", "LEDPANEL_RUNTIME_DIR": str(tmp / "run"),
           "LEDPANEL_ASSETS_DIR": str(tmp / "assets")}
    env.pop("JOURNAL_STREAM", None)
    with open(err, "w") as stream:
        if journal:
            st = os.fstat(stream.fileno())
            env["JOURNAL_STREAM"] = f"{st.st_dev}:{st.st_ino}"
        process = subprocess.Popen([sys.executable, "-m", *args], cwd=ROOT, env=env,
                                   stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                   stderr=stream)
    try:
        deadline = time.monotonic() + 60
        while process.poll() is None and time.monotonic() < deadline:
            if until is not None and until in err.read_text():
                process.terminate()
                break
            time.sleep(0.05)
        process.wait(15)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    return err.read_text()


def _dirs(tmp: Path) -> list[str]:
    return ["--config-dir", str(tmp / "config"), "--cache-dir", str(tmp / "cache"),
            "--plugins-dir", str(tmp / "plugins")]


def test_the_display_under_journald_prefixes_every_line_with_its_priority(
        tmp_path: Path) -> None:
    text = _run(["display_service", "--headless", *_dirs(tmp_path)], tmp_path / "err",
                journal=True, until=" started: ", tmp=tmp_path)
    lines = text.splitlines()
    assert any(line.startswith("<6>INFO ledpanel-display: ledpanel-display ")
               and " started: " in line for line in lines), text
    assert all(re.match(r"<[2-7]>", line) for line in lines), text
    assert not any(STAMPED.match(line[3:]) for line in lines), text
    # An error is priority 3: a folder where the lock file goes stops the start.
    lock_path(tmp_path / "cache", DISPLAY).unlink(missing_ok=True)
    lock_path(tmp_path / "cache", DISPLAY).mkdir()
    err = _run(["display_service", "--headless", *_dirs(tmp_path)], tmp_path / "err2",
               journal=True, tmp=tmp_path)
    assert re.search(r"^<3>ERROR ledpanel-display: cannot start: ", err, re.M), err


def test_the_web_under_journald_prefixes_its_lines_and_its_errors(tmp_path: Path) -> None:
    text = _run(["web_service", "--host", "127.0.0.1", "--port", "0", *_dirs(tmp_path)],
                tmp_path / "err", journal=True, until=" listening on ", tmp=tmp_path)
    assert re.search(r"^<6>INFO ledpanel\.web: ledpanel-web .* listening on ", text, re.M), text
    lock_path(tmp_path / "cache", WEB).unlink(missing_ok=True)
    lock_path(tmp_path / "cache", WEB).mkdir()
    err = _run(["web_service", "--port", "0", *_dirs(tmp_path)], tmp_path / "err2",
               journal=True, tmp=tmp_path)
    assert re.search(r"^<3>ERROR ledpanel\.web: cannot start: ", err, re.M), err


def test_without_the_journal_lines_keep_their_time_and_no_prefix(tmp_path: Path) -> None:
    text = _run(["display_service", "--headless", *_dirs(tmp_path)], tmp_path / "err",
                journal=False, until=" started: ", tmp=tmp_path)
    started = [line for line in text.splitlines() if " started: " in line]
    assert started and STAMPED.match(started[0]), text
    assert "<6>" not in text
