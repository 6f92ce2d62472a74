"""shared/logs/setup.py: the journald priority prefix, and only when stderr is the journal."""

from __future__ import annotations

import logging
import os
from pathlib import Path

from shared.logs.daemon_logs import parse_line
from shared.logs.setup import JournalFormatter, syslog_priority, writes_to_journal


def _record(level: int, message: str, exc: bool = False) -> logging.LogRecord:
    info = None
    if exc:
        try:
            raise ValueError("bad value")
        except ValueError:
            import sys
            info = sys.exc_info()
    return logging.LogRecord("ledpanel.web", level, __file__, 1, message, None, info)


def test_each_level_gets_its_syslog_priority() -> None:
    assert [syslog_priority(n) for n in (logging.DEBUG, logging.INFO, logging.WARNING,
                                          logging.ERROR, logging.CRITICAL)] == [7, 6, 4, 3, 2]


def test_every_line_of_a_record_carries_its_priority_and_no_time() -> None:
    formatter = JournalFormatter()
    assert formatter.format(_record(logging.WARNING, "disk low")) == (
        "<4>WARNING ledpanel.web: disk low")
    lines = formatter.format(_record(logging.ERROR, "it broke", exc=True)).split("\n")
    assert lines[0] == "<3>ERROR ledpanel.web: it broke"
    assert len(lines) > 3 and all(line.startswith("<3>") for line in lines)
    assert "Traceback (most recent call last):" in lines[1]


def test_only_the_stream_journal_stream_names_is_the_journal(tmp_path: Path) -> None:
    with open(tmp_path / "err", "w") as stream, open(tmp_path / "other", "w") as other:
        st = os.fstat(stream.fileno())
        named = {"JOURNAL_STREAM": f"{st.st_dev}:{st.st_ino}"}
        assert writes_to_journal(stream, named)
        assert not writes_to_journal(other, named)  # inherited, stderr elsewhere
        assert not writes_to_journal(stream, {})
        assert not writes_to_journal(stream, {"JOURNAL_STREAM": "8:x"})


def test_a_prefix_left_in_the_message_still_reads_as_our_line() -> None:
    parsed = parse_line("<4>WARNING ledpanel-display: hardware: odd")
    assert parsed is not None
    assert (parsed.level, parsed.logger, parsed.message) == (
        "WARNING", "ledpanel-display", "hardware: odd")
