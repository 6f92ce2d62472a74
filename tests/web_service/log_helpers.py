"""The fake journal (``fake_bin/journalctl`` on PATH) and a reader of server-sent events."""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import requests

FAKE_BIN = Path(__file__).resolve().parent / "fake_bin"
DISPLAY_UNIT, WEB_UNIT = "ledpanel-display.service", "ledpanel-web.service"


@dataclass
class Journal:
    """The fake journal's file; ``add`` appends entries as journald would store them."""

    path: Path
    calls: Path
    count: int = 0

    def add(self, unit: str, message: str, *, priority: int = 6, own: bool = True,
            at: float | None = None) -> str:
        """Append one entry of ``unit`` (``own``: printed by the daemon, else by systemd
        about the unit); return its cursor."""
        self.count += 1
        cursor = f"s=fake;i={self.count:x};b=boot;m={self.count:x}"
        entry: dict[str, Any] = {
            "__CURSOR": cursor,
            "__REALTIME_TIMESTAMP": str(int((at or time.time()) * 1e6)),
            "MESSAGE": message, "PRIORITY": str(priority)}
        if own:
            entry.update(_SYSTEMD_UNIT=unit, SYSLOG_IDENTIFIER=unit.removesuffix(".service"))
        else:
            entry.update(_SYSTEMD_UNIT="init.scope", UNIT=unit, SYSLOG_IDENTIFIER="systemd")
        with self.path.open("a") as file:
            file.write(json.dumps(entry) + "\n")
        return cursor

    def runs(self) -> list[dict[str, Any]]:
        """Return every journalctl run so far: its arguments and pid."""
        if not self.calls.exists():
            return []
        return [json.loads(line) for line in self.calls.read_text().splitlines()]


def use_fake_journal(tmp_path: Path, monkeypatch: Any) -> Journal:
    """Put the fake journalctl first on PATH, over an empty journal; return it."""
    journal = Journal(tmp_path / "journal.jsonl", tmp_path / "journal-calls.jsonl")
    journal.path.touch()
    monkeypatch.setenv("PATH", f"{FAKE_BIN}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setenv("FAKE_JOURNAL", str(journal.path))
    monkeypatch.setenv("FAKE_JOURNAL_CALLS", str(journal.calls))
    return journal


def pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A zombie is gone for our purposes: its state is Z.
    stat = Path(f"/proc/{pid}/stat")
    return stat.exists() and stat.read_text().split(") ", 1)[1][:1] != "Z"


@dataclass
class Event:
    """One server-sent event."""

    name: str
    data: Any
    id: str | None


@dataclass
class EventStream:
    """An open ``text/event-stream`` answer read event by event (comments counted)."""

    response: requests.Response
    comments: int = 0
    retry: int | None = None
    last_id: str | None = None  # what a browser sends back as Last-Event-ID
    _lines: Iterator[str] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self._lines = self.response.iter_lines(decode_unicode=True)

    def next(self) -> Event | None:
        """Return the next event; None when the stream ended."""
        name, data, event_id = "message", [], None
        for line in self._lines:  # bounded by the server's lifetime and the read timeout
            if line == "":
                if data:
                    return Event(name, json.loads("\n".join(data)), event_id)
                continue
            key, _, value = line.partition(":")
            value = value[1:] if value.startswith(" ") else value
            if key == "":
                self.comments += 1
            elif key == "event":
                name = value
            elif key == "data":
                data.append(value)
            elif key == "id":
                event_id = self.last_id = value
            elif key == "retry":
                self.retry = int(value)
        return None

    def until(self, name: str, limit: int = 1000) -> list[Event]:
        """Return the events up to and including the first called ``name``."""
        seen = []
        for _ in range(limit):
            event = self.next()
            if event is None:
                raise AssertionError(f"stream ended before {name!r}: {seen}")
            seen.append(event)
            if event.name == name:
                return seen
        raise AssertionError(f"no {name!r} in {limit} events")

    def close(self) -> None:
        self.response.close()


def open_stream(url: str, **headers: str) -> EventStream:
    """Open a stream; reads time out after 10 s, so a test never hangs on it."""
    response = requests.get(url, stream=True, timeout=(5, 10), headers=headers)
    return EventStream(response)
