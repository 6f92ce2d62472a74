"""The live preview for every open preview stream: one reader on the bus, fanned out.

The display encodes a preview frame only while the ``preview_viewer`` mark on the bus is
in the future. While at least one preview stream is open, one thread of the web daemon
(the hub's reader) keeps that mark alive, reads the latest frame and the display state
about ten times a second, and wakes the streams when either changed; each stream only
waits and writes what it has not sent yet. When the last stream closes the reader ends
and sets the mark to now, so the display stops encoding at once (a page still polling
``/api/v3/display/preview`` marks it again on its next call).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Generator, Iterator
from dataclasses import dataclass
from typing import Any

from shared.bus.display_status import RUNNING, display_report
from web_service.display_link import DisplayLink

TICK = 0.1  # how often the reader looks at the bus (seconds): at most ~10 frames a second
STATE_EVERY = 0.5  # how often it reads the display state (the lock and state files)

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Event:
    """One event for a stream: its name, JSON data and id (None: no id)."""

    name: str
    data: dict[str, Any]
    event_id: str | None = None


class PreviewHub:
    """Share one bus reader among all open preview streams."""

    def __init__(self, link: DisplayLink, tick: float = TICK) -> None:
        self.link = link
        self.tick = tick
        self._cond = threading.Condition()
        self._watchers = 0
        self._reader: threading.Thread | None = None
        self._version = 0
        self._state: dict[str, Any] | None = None
        self._frame: Event | None = None
        self._next_state = 0.0  # the reader's own: when to read the display state next
        self._report: dict[str, Any] = {}
        self._stopping = False

    @property
    def watchers(self) -> int:
        """How many streams watch now."""
        with self._cond:
            return self._watchers

    def follow(self, lifetime: float, heartbeat: float) -> Generator[Event | None, None, None]:
        """Yield the display state, then each new frame and state change; None is a
        heartbeat. Ends after ``lifetime`` seconds; the caller must close the iterator."""
        self._join()
        try:
            yield from self._events(time.monotonic() + lifetime, heartbeat)
        finally:
            self._leave()

    def stop(self) -> None:
        """End every stream at once (the server stops): no stream waits out its beat."""
        with self._cond:
            self._stopping = True
            self._cond.notify_all()

    def _events(self, end: float, heartbeat: float) -> Iterator[Event | None]:
        seen = -1
        sent_state: dict[str, Any] | None = None
        sent_frame: Event | None = None
        beat = time.monotonic() + heartbeat
        while (now := time.monotonic()) < end:  # bounded by the lifetime
            with self._cond:
                if self._stopping:
                    return
                if self._version == seen:
                    self._cond.wait(max(0.0, min(end, beat) - now))
                seen, state, latest = self._version, self._state, self._frame
            if state is not None and state != sent_state:
                sent_state = state
                yield Event("state", state)
            if latest is not None and latest is not sent_frame:
                sent_frame = latest
                yield latest
            if time.monotonic() >= beat:
                beat = time.monotonic() + heartbeat
                yield None

    def _join(self) -> None:
        with self._cond:
            self._watchers += 1
            if self._reader is None:
                self._reader = threading.Thread(target=self._read, name="preview-reader",
                                                 daemon=True)
                self._reader.start()

    def _leave(self) -> None:
        with self._cond:
            self._watchers = max(0, self._watchers - 1)

    def _read(self) -> None:
        """Keep the viewer mark alive and publish what changed, while anyone watches."""
        self._next_state, self._report = 0.0, {}
        failing = False
        while self._still_watched():  # bounded: each stream is bounded by its lifetime
            try:
                self._look()
                failing = False
            except Exception:  # one bad read must not end the preview of every viewer
                if not failing:
                    logger.exception("preview: reading the display's bus files failed")
                failing = True
            time.sleep(self.tick)

    def _still_watched(self) -> bool:
        """Return False, after letting the viewer mark lapse, once nobody watches."""
        with self._cond:
            if self._watchers:
                return True
            self.link.release_viewer()
            self._reader = None
            self._state = self._frame = None
            return False

    def _look(self) -> None:
        self.link.mark_viewer()
        record = self.link.preview_frame()
        # A new frame reads the state at once, so it carries the plugin it shows.
        if time.monotonic() >= self._next_state or _frame_id(record) != _frame_id(self._frame):
            self._next_state = time.monotonic() + STATE_EVERY
            self._report = _state_summary(self.link)
        report = self._report
        latest = _frame_event(record, report, self._frame) if report.get("live") else None
        if report != self._state or latest is not self._frame:
            with self._cond:
                self._state, self._frame = report, latest
                self._version += 1
                self._cond.notify_all()


def _state_summary(link: DisplayLink) -> dict[str, Any]:
    """Return what the preview needs of the display state: running, panel on or off."""
    state, holder = link.state()
    report = display_report(state, holder)
    live = report["service"] == RUNNING and report["showing"] != "off"
    return {"service": report["service"], "showing": report["showing"],
            "plugin_id": report["plugin_id"], "mode": report["mode"], "live": live,
            "summary": report["summary"]}


def _frame_id(source: dict[str, Any] | Event | None) -> str | None:
    """Return a frame's id: its time in ms and the display's frame number."""
    if isinstance(source, Event):
        return source.event_id
    at = source.get("at") if isinstance(source, dict) else None
    if not isinstance(at, int | float) or isinstance(at, bool) or at != at:
        return None
    return f"{int(at * 1000)}-{source.get('frame') if isinstance(source, dict) else ''}"


def _frame_event(record: dict[str, Any] | None, report: dict[str, Any],
                 last: Event | None) -> Event | None:
    """Return the frame event for ``record``: ``last`` itself when it is the same frame."""
    if not record or not isinstance(record.get("png_base64"), str):
        return last
    event_id = _frame_id(record)
    if event_id is None:
        return last
    if last is not None and last.event_id == event_id:
        return last
    return Event("frame", {
        "png_base64": record["png_base64"], "width": record.get("width"),
        "height": record.get("height"), "frame": record.get("frame"), "at": record["at"],
        "plugin_id": report.get("plugin_id"), "mode": report.get("mode")}, event_id)
