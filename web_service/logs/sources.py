"""The daemons' logs for the web: the newest lines, and following new ones.

Each daemon is read from its log file when ``scripts/dev`` wrote one
(``shared.logs.daemon_logs``), else from journald (``log_journal.py``). An entry is
``{daemon, at, level, logger, message, continued}``: ``continued`` marks a line that
belongs to the record before it (a traceback line), with that record's level.

Following keeps where each source stands (a file's inode and byte offset, the
journal's cursor) and says so in a short token after every entry, so a stream that
reconnects resumes after the last line it got (``Follower(resume=token)``). Every read
is bounded: ``TAIL_BYTES`` of a file for the newest lines, ``FOLLOW_CHUNK`` per poll.
"""

from __future__ import annotations

import base64
import binascii
import json
import logging
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from shared.files.tail import Tail, read_from, read_tail
from shared.logs.daemon_logs import at_least, clip, log_file, parse_line
from web_service.logs import journal as log_journal

logger = logging.getLogger(__name__)

TAIL_BYTES = 1024 * 1024
FOLLOW_CHUNK = 256 * 1024
MAX_TOKEN = 2048
JOURNAL = "journal"
# journald: how many of its newest lines are looked at for ``lines`` entries at a level
JOURNAL_SCAN_FACTOR, JOURNAL_SCAN_MIN, JOURNAL_SCAN_MAX = 10, 1000, 10000

Item = tuple[dict[str, Any], Any]  # (entry, position after it: JSON-able, or None)


@dataclass(frozen=True)
class LogQuery:
    """Which daemons, from which level up, and how many of the newest lines."""

    daemons: tuple[str, ...]
    level: str
    lines: int

    def wants(self, entry: dict[str, Any]) -> bool:
        """Return True when ``entry`` passes the level filter."""
        return at_least(entry["level"], self.level)


def sources(cache_dir: Path, daemons: tuple[str, ...]) -> dict[str, dict[str, str]]:
    """Return where each daemon's log is read from: its file, else its journald unit."""
    found = {}
    for daemon in daemons:
        path = log_file(cache_dir, daemon)
        found[daemon] = ({"kind": "file", "path": str(path)} if path.exists()
                         else {"kind": "journald", "unit": log_journal.UNITS[daemon]})
    return found


@dataclass
class FileSource:
    """One daemon's log file: the newest lines, then what is appended (across a rotation)."""

    daemon: str
    path: Path
    inode: int = -1
    offset: int = 0
    last: tuple[str, str, float | None] | None = field(default=None, repr=False)

    def newest(self) -> list[Item]:
        """Return the lines of the last ``TAIL_BYTES`` (the rotated file's end first, when
        the current one is shorter), and stand at the end of the file."""
        items: list[Item] = []
        try:
            tail = read_tail(self.path, TAIL_BYTES)
        except OSError:
            return items
        if tail.whole and tail.end < TAIL_BYTES:
            older = self._rotated_tail(TAIL_BYTES - tail.end)
            if older is not None:
                items = self._items(older.lines, older.start, older.inode)
        items += self._items(tail.lines, tail.start, tail.inode)
        self.inode, self.offset = tail.inode, tail.end
        return items

    def _rotated_tail(self, limit: int) -> Tail | None:
        try:
            return read_tail(self.path.with_name(self.path.name + ".1"), limit)
        except OSError:
            return None

    def resume(self, inode: int, offset: int) -> None:
        """Stand where a token said: on that file (if it still is one of ours) at ``offset``."""
        self.inode, self.offset = inode, offset

    def follow(self) -> list[Item]:
        """Return the whole lines appended since the last read (bounded per call)."""
        try:
            chunk = read_from(self.path, self.offset, FOLLOW_CHUNK)
        except OSError:
            return []
        items: list[Item] = []
        if chunk.inode != self.inode or chunk.size < self.offset:
            if chunk.inode != self.inode:  # renamed to .1 and begun anew: finish the old
                items = self._finish_rotated()
            try:  # a new file, or this one emptied: from its start
                chunk = read_from(self.path, 0, FOLLOW_CHUNK)
            except OSError:
                return items
        items += self._items(chunk.lines, chunk.start, chunk.inode)
        self.inode, self.offset = chunk.inode, chunk.end
        return items

    def _finish_rotated(self) -> list[Item]:
        """Return the lines the file got after our offset and before it was renamed."""
        try:
            rest = read_from(self.path.with_name(self.path.name + ".1"), self.offset,
                             FOLLOW_CHUNK)
        except OSError:
            return []
        if rest.inode != self.inode:
            return []
        return [(entry, None) for entry, _ in self._items(rest.lines, rest.start, rest.inode)]

    def _items(self, lines: list[bytes], start: int, inode: int) -> list[Item]:
        items: list[Item] = []
        offset = start
        for raw in lines:
            offset += len(raw) + 1
            items.append((self._entry(raw.decode("utf-8", "replace")), [inode, offset]))
        return items

    def _entry(self, text: str) -> dict[str, Any]:
        parsed = parse_line(text)
        if parsed is not None:
            at = parsed.at if parsed.at is not None else (self.last[2] if self.last else None)
            self.last = (parsed.level, parsed.logger, at)
            return {"daemon": self.daemon, "at": at, "level": parsed.level,
                    "logger": parsed.logger, "message": parsed.message, "continued": False}
        level, name, at = self.last or ("INFO", self.daemon, None)
        return {"daemon": self.daemon, "at": at, "level": level, "logger": name,
                "message": clip(text), "continued": self.last is not None}


def newest(cache_dir: Path, query: LogQuery) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Return the newest ``query.lines`` entries at the level, oldest first, and the
    position after the last line read of each source (a stream's starting point)."""
    files, journaled = _split(cache_dir, query.daemons)
    items: list[tuple[str, Item]] = []
    positions: dict[str, Any] = {}
    for source in files:
        items += [(source.daemon, item) for item in source.newest()]
        positions[source.daemon] = [source.inode, source.offset]
    if journaled:
        count = min(max(query.lines * JOURNAL_SCAN_FACTOR, JOURNAL_SCAN_MIN), JOURNAL_SCAN_MAX)
        found = log_journal.newest(journaled, count)
        items += [(JOURNAL, item) for item in found]
        positions[JOURNAL] = next((c for _, c in reversed(found) if c), None)
    wanted = [item for _, item in _by_time(items) if query.wants(item[0])][-query.lines:]
    return [entry for entry, _ in wanted], positions


def _by_time(items: list[tuple[str, Item]]) -> list[tuple[str, Item]]:
    """Interleave the sources' items by time; each source is in order already, and an
    item without a time keeps its place after the one before it in its source."""
    last: dict[str, float] = {}
    keyed = []
    for index, (key, item) in enumerate(items):
        at = item[0]["at"]
        last[key] = at if isinstance(at, float | int) else last.get(key, 0.0)
        keyed.append((last[key], index, key, item))
    keyed.sort(key=lambda row: (row[0], row[1]))
    return [(key, item) for _, _, key, item in keyed]


def _split(cache_dir: Path, daemons: tuple[str, ...]) -> tuple[list[FileSource],
                                                               tuple[str, ...]]:
    files = [FileSource(d, log_file(cache_dir, d)) for d in daemons
             if log_file(cache_dir, d).exists()]
    have = {source.daemon for source in files}
    return files, tuple(d for d in daemons if d not in have)


def encode_token(positions: dict[str, Any]) -> str:
    """Return ``positions`` as a short opaque token (an SSE event id)."""
    text = json.dumps(positions, separators=(",", ":"))
    return base64.urlsafe_b64encode(text.encode()).decode().rstrip("=")


def decode_token(token: str | None) -> dict[str, Any] | None:
    """Return the positions in a token; None for no token or one that is not ours."""
    if not token or len(token) > MAX_TOKEN:
        return None
    try:
        data = json.loads(base64.urlsafe_b64decode(token + "=" * (-len(token) % 4)))
    except (ValueError, binascii.Error):
        return None
    return data if isinstance(data, dict) else None


class Follower:
    """Follow the logs of ``query.daemons``: ``start()`` once, then ``poll()`` until done."""

    def __init__(self, cache_dir: Path, query: LogQuery) -> None:
        self.cache_dir = cache_dir
        self.query = query
        self.files, self.journaled = _split(cache_dir, query.daemons)
        self.journal: log_journal.JournalFollower | None = None
        self.positions: dict[str, Any] = {}

    def start(self, resume: str | None) -> list[dict[str, Any]]:
        """Stand after the token's lines (no backlog), or after the newest ``query.lines``
        entries, which are returned; then start following."""
        saved = decode_token(resume)
        backlog: list[dict[str, Any]] = []
        if saved is None:
            backlog, self.positions = newest(self.cache_dir, self.query)
        for source in self.files:
            where: Any = (saved or self.positions).get(source.daemon)
            if _valid_position(where):
                source.resume(where[0], where[1])
            elif saved is not None:
                source.newest()  # a token from before this file existed: start at its end
            self.positions[source.daemon] = [source.inode, source.offset]
        if self.journaled:
            cursor = (saved or self.positions).get(JOURNAL)
            cursor = cursor if isinstance(cursor, str) and len(cursor) <= 1000 else None
            self.journal = log_journal.JournalFollower(self.journaled, cursor)
            self.positions[JOURNAL] = cursor
        return backlog

    def poll(self, timeout: float) -> list[tuple[dict[str, Any], str]]:
        """Return the new entries at the level, each with the token after it; waits up to
        ``timeout`` seconds when nothing is new."""
        found: list[tuple[str, Item]] = []
        if self.journal is not None:
            found += [(JOURNAL, item) for item in self.journal.read(timeout)]
        else:
            time.sleep(timeout)
        for source in self.files:
            found += [(source.daemon, item) for item in source.follow()]
        events = []
        for key, (entry, position) in found:
            if position is not None:
                self.positions[key] = position
            if self.query.wants(entry):
                events.append((entry, encode_token(self.positions)))
        return events

    def token(self) -> str:
        """Return the token of where every source stands now."""
        return encode_token(self.positions)

    def alive(self) -> bool:
        """Return False when the journal follower ended (the stream should end too)."""
        return self.journal is None or self.journal.alive()

    def close(self) -> None:
        """Stop following (ends journalctl)."""
        if self.journal is not None:
            self.journal.close()


def _valid_position(where: Any) -> bool:
    return (isinstance(where, list) and len(where) == 2
            and all(isinstance(n, int) and not isinstance(n, bool) and n >= 0 for n in where))

