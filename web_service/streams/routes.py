"""Server-sent-event streams of the web application, outside ``/api/v3``.

An open stream holds one of the web server's request threads (waitress; ``--threads``,
8 by default) for as long as it is open, so that ten open tabs cannot slow the API:

- at most ``MAX_STREAMS`` streams are open at once, of every kind together; one more
  is answered 503 ``STREAMS_BUSY`` with ``Retry-After`` (a browser's EventSource stops
  on it; the page says so and offers to retry);
- every stream ends after its lifetime (``LEDPANEL_STREAM_LIFETIME``, 300 s); the
  browser's EventSource reconnects by itself and sends the last event id it got, so the
  stream resumes where it was;
- a comment line every ``LEDPANEL_STREAM_HEARTBEAT`` seconds (15) keeps proxies from
  closing a quiet stream, and is how a client that went away is noticed.

Frames: ``event: <name>``, ``id: <token>`` when the event has a position to resume
from, ``data: <one line of JSON>``. A stream about to end says why (``event: end``).

The streams: ``/stream/logs`` (the daemons' logs), ``/stream/preview`` (the live panel,
from one shared bus reader: ``web_service.streams.preview``) and ``/stream/stats`` (host
figures and the display state: ``web_service.streams.stats``).
"""

from __future__ import annotations

import json
import os
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from flask import Blueprint, Flask, Response, current_app, request

from web_service.api.logs import log_query
from web_service.envelope import Reply, error
from web_service.logs.sources import Follower, sources
from web_service.services import services
from web_service.streams.preview import PreviewHub
from web_service.streams.stats import stats_interval, stats_snapshot

bp = Blueprint("streams", __name__)

SLOTS_KEY = "ledpanel.streams"
HUB_KEY = "ledpanel.preview_hub"
MAX_STREAMS = 4
DEFAULT_HEARTBEAT, DEFAULT_LIFETIME = 15.0, 300.0
POLL = 0.5  # how often a followed file is looked at (seconds)
RETRY_MS = 2000  # the browser's wait before it reconnects a stream that ended
RETRY_AFTER_FAILURE_MS = 30000
LOG_BACKLOG = 100
BUSY_RETRY_AFTER = 30
# A closed tab is noticed only when a write to it fails: a still panel sends no frames,
# so the preview beats this often at least, and the display stops encoding soon after.
PREVIEW_HEARTBEAT = 5.0


class StreamSlots:
    """Count the open streams of one app; ``take`` refuses past the limit."""

    def __init__(self, limit: int = MAX_STREAMS) -> None:
        self.limit = limit
        self.open = 0
        self._lock = threading.Lock()
        # Set when the server stops: every open stream ends now with ``reason: stopping``,
        # instead of holding the server's shutdown until its next beat.
        self.stopping = threading.Event()

    def take(self) -> bool:
        """Take a slot; return False when all are taken."""
        with self._lock:
            if self.open >= self.limit:
                return False
            self.open += 1
            return True

    def give(self) -> None:
        """Give a slot back."""
        with self._lock:
            self.open = max(0, self.open - 1)


@dataclass(frozen=True)
class Timing:
    """How often a stream sends a heartbeat and how long it lives (seconds)."""

    heartbeat: float
    lifetime: float


def timing() -> Timing:
    """Return the stream timing from ``LEDPANEL_STREAM_HEARTBEAT`` and ``_LIFETIME``."""
    return Timing(_seconds("LEDPANEL_STREAM_HEARTBEAT", DEFAULT_HEARTBEAT, 0.1, 300.0),
                  _seconds("LEDPANEL_STREAM_LIFETIME", DEFAULT_LIFETIME, 1.0, 3600.0))


def _seconds(name: str, default: float, low: float, high: float) -> float:
    try:
        value = float(os.environ.get(name) or default)
    except ValueError:
        return default
    return min(max(value, low), high) if value == value else default  # NaN: default


def install_streams(app: Flask) -> None:
    """Register the stream routes and their slot count on ``app``."""
    app.extensions[SLOTS_KEY] = StreamSlots()
    app.register_blueprint(bp)


def stop_streams(app: Flask) -> None:
    """End the open streams of ``app`` (call before the server stops)."""
    app.extensions[SLOTS_KEY].stopping.set()
    hub = app.extensions.get(HUB_KEY)
    if hub is not None:
        hub.stop()


def _end(slots: StreamSlots) -> str:
    """The last event of a stream that ran its course or was stopped."""
    return frame("end", {"reason": "stopping" if slots.stopping.is_set() else "lifetime"})


def _hub() -> PreviewHub:
    """Return the app's preview hub, made on first use (it needs the app's services)."""
    hub = current_app.extensions.get(HUB_KEY)
    if hub is None:
        hub = current_app.extensions.setdefault(HUB_KEY, PreviewHub(services().display))
    return hub


def busy(slots: StreamSlots) -> Reply:
    """Return the 503 ``STREAMS_BUSY`` answer for a stream past the limit."""
    response, status = error(
        f"{slots.limit} streams are open already (each holds a server thread); close "
        f"a tab or try again in a minute", "STREAMS_BUSY", 503,
        {"retry_after": BUSY_RETRY_AFTER})
    response.headers["Retry-After"] = str(BUSY_RETRY_AFTER)
    return response, status


def frame(event: str, data: Any, event_id: str | None = None) -> str:
    """Return one server-sent event; ``event_id`` "" forgets the last id (the browser then
    reconnects without ``Last-Event-ID``), None leaves it."""
    head = f"event: {event}\n" + (f"id: {event_id}\n" if event_id is not None else "")
    return f"{head}data: {json.dumps(data, separators=(',', ':'))}\n\n"


def open_stream(body: Callable[[], Iterator[str]], on_close: Callable[[], None]) -> Response:
    """Return the streaming response; ``on_close`` runs once when it ends, however."""
    done = threading.Event()

    def close() -> None:
        if not done.is_set():
            done.set()
            on_close()

    def guarded() -> Iterator[str]:
        try:
            yield from body()
        finally:
            close()

    response = Response(guarded(), mimetype="text/event-stream")
    response.headers["Cache-Control"] = "no-cache"
    response.headers["X-Accel-Buffering"] = "no"  # a proxy in front must not buffer it
    response.call_on_close(close)  # also when the body never started
    return response


@bp.get("/stream/logs")
def logs() -> Response | Reply:
    """Follow the daemons' logs: ``event: log`` per line, at a level and above."""
    query = log_query(LOG_BACKLOG)
    cache_dir = services().settings.paths.cache_dir
    slots: StreamSlots = current_app.extensions[SLOTS_KEY]
    if not slots.take():
        return busy(slots)
    follower = Follower(cache_dir, query)
    try:
        backlog = follower.start(request.headers.get("Last-Event-ID")
                                 or request.args.get("last_event_id"))
    except BaseException:
        follower.close()
        slots.give()
        raise
    where = sources(cache_dir, query.daemons)
    clock = timing()

    def body() -> Iterator[str]:
        yield f"retry: {RETRY_MS}\n\n"
        for entry in backlog:
            yield frame("log", entry)
        yield frame("ready", {"sources": where, "backlog": len(backlog), "level": query.level},
                    follower.token())
        end = time.monotonic() + clock.lifetime
        beat = time.monotonic() + clock.heartbeat
        while time.monotonic() < end and follower.alive() and not slots.stopping.is_set():
            for entry, token in follower.poll(min(POLL, clock.heartbeat)):
                yield frame("log", entry, token)
            if time.monotonic() >= beat:
                yield ": keep-alive\n\n"
                beat = time.monotonic() + clock.heartbeat
        if follower.alive():
            yield _end(slots)
        else:
            # Perhaps it refused where we stood (a cursor of a journal since rotated
            # away): the next try starts afresh, later.
            yield f"retry: {RETRY_AFTER_FAILURE_MS}\n\n"
            yield frame("end", {"reason": "the journal reader stopped"}, "")

    def close() -> None:
        follower.close()
        slots.give()

    return open_stream(body, close)



@bp.get("/stream/preview")
def preview() -> Response | Reply:
    """Follow the live panel: ``event: frame`` per new frame, ``event: state`` per change."""
    slots: StreamSlots = current_app.extensions[SLOTS_KEY]
    hub = _hub()
    if not slots.take():
        return busy(slots)
    clock = timing()
    events = hub.follow(clock.lifetime, min(clock.heartbeat, PREVIEW_HEARTBEAT))

    def body() -> Iterator[str]:
        yield f"retry: {RETRY_MS}\n\n"
        for event in events:
            if event is None:
                yield ": keep-alive\n\n"
            else:
                yield frame(event.name, event.data, event.event_id)
        yield _end(slots)

    def close() -> None:
        events.close()  # leaves the hub: the last one out lets the viewer mark lapse
        slots.give()

    return open_stream(body, close)


@bp.get("/stream/stats")
def stats() -> Response | Reply:
    """Send ``event: stats`` (host figures, display state) every few seconds."""
    svc = services()
    slots: StreamSlots = current_app.extensions[SLOTS_KEY]
    if not slots.take():
        return busy(slots)
    clock = timing()
    every = stats_interval()

    def body() -> Iterator[str]:
        yield f"retry: {RETRY_MS}\n\n"
        end = time.monotonic() + clock.lifetime
        beat = time.monotonic() + clock.heartbeat
        due = time.monotonic()
        sequence = 0
        while (now := time.monotonic()) < end and not slots.stopping.is_set():
            if now >= due:
                sequence += 1
                yield frame("stats", stats_snapshot(svc), str(sequence))
                due = now + every
                beat = now + clock.heartbeat
            elif now >= beat:
                yield ": keep-alive\n\n"
                beat = now + clock.heartbeat
            slots.stopping.wait(max(0.0, min(due, beat, end) - time.monotonic()))
        yield _end(slots)

    return open_stream(body, slots.give)
