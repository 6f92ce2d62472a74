"""Where the daemons' logs are, and how one of their lines reads.

On a device the daemons (and the MQTT bridge) log to stderr, which journald keeps under their units
(``UNITS``). Under ``scripts/dev`` the supervisor also writes each daemon's output to
``<cache_dir>/logs/<daemon>.log`` (``LogFileWriter``: emptied at start, renamed to
``<daemon>.log.1`` past ``MAX_LOG_BYTES``); a daemon whose log file exists is read from
it, the others from journald.

Both daemons format a record as ``[<asctime> ]<LEVEL> <logger>: <message>``; under
journald without the time and with the syslog priority in front (``<4>WARNING ...``,
``shared.logs.setup``), which journald takes off and stores, so a prefix is seldom
read back (only where a unit keeps it: ``SyslogLevelPrefix=no``). A line that does not
read so (a traceback, a message on several lines) belongs to the record before it:
``parse_line`` returns None and the caller gives it that record's level and time.
"""

from __future__ import annotations

import contextlib
import os
import re
import time
from dataclasses import dataclass
from pathlib import Path
from typing import IO

LOG_DIR = "logs"
DAEMONS = ("display", "web", "mqtt")
CORE_DAEMONS = ("display", "web")  # always run; the MQTT bridge can be left out of a dev run
UNITS = {"display": "ledpanel-display.service", "web": "ledpanel-web.service",
         "mqtt": "ledpanel-mqtt.service"}
LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
LEVEL_RANK = {name: rank for rank, name in enumerate(LEVELS)}
# syslog priority (journald PRIORITY) -> our level, for lines not in our format
PRIORITY_LEVELS = {0: "CRITICAL", 1: "CRITICAL", 2: "CRITICAL", 3: "ERROR", 4: "WARNING",
                   5: "INFO", 6: "INFO", 7: "DEBUG"}
MAX_LOG_BYTES = 1024 * 1024
MAX_MESSAGE = 4000

_LINE = re.compile(
    r"^(?:<[0-7]>)?(?:(?P<date>\d{4}-\d\d-\d\d \d\d:\d\d:\d\d)(?:,(?P<ms>\d{3}))? )?"
    r"(?P<level>DEBUG|INFO|WARNING|ERROR|CRITICAL) (?P<logger>[^\s:]+): (?P<message>.*)$",
    re.DOTALL)


def log_dir(cache_dir: Path) -> Path:
    """Return the folder of the daemons' log files under ``scripts/dev``."""
    return cache_dir / LOG_DIR


def log_file(cache_dir: Path, daemon: str) -> Path:
    """Return the log file of ``daemon`` (``display`` or ``web``) under ``scripts/dev``."""
    return log_dir(cache_dir) / f"{daemon}.log"


@dataclass(frozen=True)
class Parsed:
    """One line in our format: its level, logger, message and time (None when unstamped)."""

    level: str
    logger: str
    message: str
    at: float | None


def parse_line(text: str) -> Parsed | None:
    """Read one line of our log format; None when it is not one (a continuation)."""
    match = _LINE.match(text)
    if match is None:
        return None
    at = None
    if match["date"]:
        try:  # asctime is local time
            at = time.mktime(time.strptime(match["date"], "%Y-%m-%d %H:%M:%S"))
            at += int(match["ms"] or 0) / 1000
        except (ValueError, OverflowError):
            at = None
    return Parsed(match["level"], match["logger"], clip(match["message"]), at)


def clip(text: str) -> str:
    """Cut a message to ``MAX_MESSAGE`` characters."""
    return text if len(text) <= MAX_MESSAGE else text[: MAX_MESSAGE - 3] + "..."


def at_least(level: str, minimum: str) -> bool:
    """Return True when ``level`` is ``minimum`` or more severe."""
    return LEVEL_RANK.get(level, 1) >= LEVEL_RANK.get(minimum, 0)


class LogFileWriter:
    """Write one daemon's output lines to its log file, bounded (the dev supervisor's)."""

    def __init__(self, path: Path, max_bytes: int = MAX_LOG_BYTES) -> None:
        self.path = path
        self.max_bytes = max_bytes
        path.parent.mkdir(parents=True, exist_ok=True)
        with contextlib.suppress(FileNotFoundError):
            self.path.with_name(path.name + ".1").unlink()  # a new run starts empty
        self._file: IO[str] = self._open("w")
        self._size = 0

    def _open(self, mode: str) -> IO[str]:
        return open(self.path, mode, encoding="utf-8", errors="replace")

    def write(self, line: str) -> None:
        """Append one line (without its newline); rotate first when the file is full."""
        data = line + "\n"
        size = len(data.encode("utf-8", "replace"))
        if self._size and self._size + size > self.max_bytes:
            self._file.close()
            os.replace(self.path, self.path.with_name(self.path.name + ".1"))
            self._file = self._open("w")
            self._size = 0
        self._file.write(data)
        self._file.flush()
        self._size += size

    def close(self) -> None:
        """Close the file (it stays for the web to read)."""
        self._file.close()
