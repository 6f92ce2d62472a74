"""shared/logs/daemon_logs.py: our log line format read back, and the dev log files bounded."""

from __future__ import annotations

import time
from pathlib import Path

from shared.files.tail import read_from, read_tail
from shared.logs.daemon_logs import LogFileWriter, at_least, parse_line


def test_lines_of_both_daemons_formats_are_read_and_others_are_continuations() -> None:
    web = parse_line("2026-11-24 01:13:31,250 WARNING ledpanel.web: config: odd: value")
    assert web is not None
    assert (web.level, web.logger, web.message) == ("WARNING", "ledpanel.web",
                                                    "config: odd: value")
    assert web.at == time.mktime((2026, 11, 24, 1, 13, 31, 0, 0, -1)) + 0.25
    journal = parse_line("ERROR display_service.plugins: clock: display() failed")
    assert journal is not None and journal.at is None and journal.level == "ERROR"
    for other in ("Traceback (most recent call last):", "  File \"x.py\", line 1",
                  "INFO", "info x: y", ""):
        assert parse_line(other) is None
    assert at_least("ERROR", "WARNING") and not at_least("INFO", "WARNING")


def test_the_dev_log_file_starts_empty_and_rotates_past_its_bound(tmp_path: Path) -> None:
    path = tmp_path / "logs" / "web.log"
    path.parent.mkdir()
    path.write_text("old run\n")
    path.with_name("web.log.1").write_text("older run\n")
    log = LogFileWriter(path, max_bytes=100)
    assert path.read_text() == "" and not path.with_name("web.log.1").exists()
    for n in range(30):
        log.write(f"INFO x: line {n:02d}")
    log.close()
    assert path.stat().st_size <= 100
    assert path.with_name("web.log.1").stat().st_size <= 100
    assert path.read_text().endswith("INFO x: line 29\n")


def test_tails_hold_whole_lines_only(tmp_path: Path) -> None:
    path = tmp_path / "f.log"
    path.write_bytes(b"first line\nsecond line\nthird, still being writ")
    tail = read_tail(path, 40)  # starts inside "first line"
    assert tail.lines == [b"second line"] and not tail.whole
    assert tail.end == len(b"first line\nsecond line\n")
    chunk = read_from(path, 0, 1000)
    assert chunk.lines == [b"first line", b"second line"] and chunk.end == tail.end
    assert read_from(path, 0, 4).lines == [b"firs"]  # a line longer than the chunk is cut
    assert read_from(path, 10_000, 100).lines == [] and read_from(path, 10_000, 100).size < 10_000
