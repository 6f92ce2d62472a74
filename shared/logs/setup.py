"""How both daemons write their log lines to stderr.

Everywhere: ``[<asctime> ]<LEVEL> <logger>: <message>`` (``shared.logs.daemon_logs`` reads
it back). When stderr is journald's stream (systemd says so in ``JOURNAL_STREAM``,
``<device>:<inode>`` of that stream), every line starts with the syslog priority in
angle brackets (``<3>`` error, ``<4>`` warning, ``<6>`` info, ``<7>`` debug) and has no
time of its own: journald strips the prefix, stores the priority and stamps the time,
so ``journalctl -p warning -u ledpanel-display`` shows warnings and worse. Each line of
a record on several lines (a traceback) carries the record's prefix, so the whole
traceback passes the same filter.

``JOURNAL_STREAM`` alone is not trusted: a process started from a unit's shell inherits
it with stderr pointing elsewhere (a pipe, a file); only a stderr whose device and inode
match is the journal.
"""

from __future__ import annotations

import logging
import os
import sys
from collections.abc import Mapping
from typing import TextIO

PLAIN_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
JOURNAL_FORMAT = "%(levelname)s %(name)s: %(message)s"


def syslog_priority(levelno: int) -> int:
    """Return the syslog priority of a logging level (2 critical ... 7 debug)."""
    if levelno >= logging.CRITICAL:
        return 2
    if levelno >= logging.ERROR:
        return 3
    if levelno >= logging.WARNING:
        return 4
    return 6 if levelno >= logging.INFO else 7


class JournalFormatter(logging.Formatter):
    """Our line format without the time, each line prefixed with the record's priority."""

    def __init__(self) -> None:
        super().__init__(JOURNAL_FORMAT)

    def format(self, record: logging.LogRecord) -> str:
        prefix = f"<{syslog_priority(record.levelno)}>"
        return "\n".join(prefix + line for line in super().format(record).split("\n"))


def writes_to_journal(stream: TextIO, environ: Mapping[str, str] | None = None) -> bool:
    """Return True when ``stream`` is the journald stream ``JOURNAL_STREAM`` names."""
    value = (os.environ if environ is None else environ).get("JOURNAL_STREAM", "")
    device, _, inode = value.partition(":")
    try:
        stat = os.fstat(stream.fileno())
        return (int(device), int(inode)) == (stat.st_dev, stat.st_ino)
    except (OSError, ValueError, AttributeError):  # not set, malformed, or no descriptor
        return False


def setup_logging(level: str | int, stream: TextIO | None = None) -> None:
    """Send log records to ``stream`` (stderr) at ``level``, in the format for where it goes."""
    stream = sys.stderr if stream is None else stream
    handler = logging.StreamHandler(stream)
    handler.setFormatter(JournalFormatter() if writes_to_journal(stream)
                         else logging.Formatter(PLAIN_FORMAT))
    logging.basicConfig(level=level, handlers=[handler])
