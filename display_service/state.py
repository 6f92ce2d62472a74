"""What the display daemon tells the bus: its state, on-demand config, preview frames.

Writes go through ``BusWriter``, one background thread that writes bus files in the
order they were last submitted and keeps only the newest payload per key, so the
render thread never waits for an fsync and a slow disk cannot queue stale frames.
"""

from __future__ import annotations

import base64
import io
import logging
import threading
import time
from collections.abc import Callable
from typing import Any

from shared.bus.core import DISPLAY_STATE, PREVIEW_FRAME, PREVIEW_VIEWER, Bus
from shared.errors import AtomicWriteError

logger = logging.getLogger(__name__)

PREVIEW_INTERVAL = 0.2
# A frame rate is republished when it moves by more than this share (or FPS_SLACK fps).
FPS_TOLERANCE, FPS_SLACK = 0.2, 0.5
FPS_WINDOW = 1.0
LOOP_FPS_WINDOW = 5.0
_REMOVE = None


class BusWriter:
    """Write bus keys from one background thread, newest payload per key."""

    def __init__(self, bus: Bus) -> None:
        self.bus = bus
        self._pending: dict[str, dict[str, Any] | None] = {}
        self._cond = threading.Condition()
        self._busy = False
        self._closed = False
        self._failing: set[str] = set()
        self._thread = threading.Thread(target=self._run, name="bus-writer", daemon=True)
        self._thread.start()

    def put(self, key: str, data: dict[str, Any]) -> None:
        """Queue ``data`` to be published under ``key``."""
        self._queue(key, data)

    def remove(self, key: str) -> None:
        """Queue removal of ``key``."""
        self._queue(key, _REMOVE)

    def _queue(self, key: str, data: dict[str, Any] | None) -> None:
        with self._cond:
            self._pending.pop(key, None)  # re-insert: the newest submission goes last
            self._pending[key] = data
            self._cond.notify_all()

    def flush(self, timeout: float = 5.0) -> bool:
        """Wait until everything queued is written; return False on timeout."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while self._pending or self._busy:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return False
                self._cond.wait(remaining)
        return True

    def close(self, timeout: float = 5.0) -> None:
        """Write what is queued, then stop the thread."""
        self.flush(timeout)
        with self._cond:
            self._closed = True
            self._cond.notify_all()
        self._thread.join(timeout)

    def _run(self) -> None:
        while True:
            with self._cond:
                while not self._pending and not self._closed:
                    self._cond.wait()
                if not self._pending:
                    return
                key = next(iter(self._pending))
                data = self._pending.pop(key)
                self._busy = True
            self._write(key, data)
            with self._cond:
                self._busy = False
                self._cond.notify_all()

    def _write(self, key: str, data: dict[str, Any] | None) -> None:
        try:
            if data is _REMOVE:
                self.bus.remove(key)
            else:
                self.bus.publish(key, data)
        except (AtomicWriteError, OSError) as err:
            if key not in self._failing:
                logger.error("bus: cannot write %s: %s", key, err)
            self._failing.add(key)
        else:
            if key in self._failing:
                logger.info("bus: writing %s works again", key)
            self._failing.discard(key)


class StatePublisher:
    """``display_state`` when its content changes, never on a timer; preview while watched.

    Whether the display runs is told by its lock (``shared.bus.daemon_lock``), so an idle
    panel writes nothing: the state is built when something marked it dirty (a switch,
    a request, a reload, a schedule change, ``observe`` seeing another plugin or a frame
    rate that moved) and written only when it differs from the last one written.
    """

    def __init__(
        self,
        bus: Bus,
        writer: BusWriter,
        clock: Callable[[], float],
        wall: Callable[[], float] = time.time,
    ) -> None:
        self.bus = bus
        self.writer = writer
        self.clock = clock
        self.wall = wall
        self._dirty = True
        self._last: dict[str, Any] | None = None
        self._observed: tuple[Any, float] | None = None
        self._viewer_until = 0.0
        self._preview_at = float("-inf")
        self._preview_serial: int | None = None
        self._preview_active = False
        self._preview_held = False  # a new frame waits for PREVIEW_INTERVAL to pass

    def to_wall(self, moment: float | None, now: float) -> float | None:
        """Convert a time on the loop's monotonic clock to wall-clock seconds (ms steps)."""
        return None if moment is None else round(self.wall() - (now - moment), 3)

    def mark_dirty(self) -> None:
        """Build the state at the next opportunity (written only if it changed)."""
        self._dirty = True

    def observe(self, showing: Any, fps: float) -> None:
        """Mark dirty when what is shown differs or the frame rate moved noticeably."""
        last = self._observed
        if last is None or showing != last[0] or _fps_moved(last[1], fps):
            self._observed = (showing, fps)
            self._dirty = True

    @property
    def fps(self) -> float:
        """The frame rate to publish: the last one ``observe`` took as a real change, so a
        state written for another reason does not carry every small wobble."""
        return self._observed[1] if self._observed is not None else 0.0

    def next_due(self) -> float | None:
        """Return when the preview next needs the loop, None while nobody watches.

        That is when a held-back frame is due, or else when the viewer mark lapses (so
        the last frame is removed): never a time already past for a frame already sent,
        which would spin the loop for as long as someone watches a still panel.
        """
        if not self._preview_active:
            return None
        lapse = self.clock() + max(0.0, self._viewer_until - self.wall())
        if self._preview_held:
            return min(lapse, self._preview_at + PREVIEW_INTERVAL)
        return lapse

    def maybe_publish(self, now: float, build: Callable[[], dict[str, Any]]) -> bool:
        """Publish ``build()`` when dirty and different from the last state written."""
        if not self._dirty:
            return False
        self._dirty = False
        state = build()
        content = {k: v for k, v in state.items() if k != "updated_at"}
        if content == self._last:
            return False
        self._last = content
        self.writer.put(DISPLAY_STATE, state)
        return True

    # -- preview -------------------------------------------------------------

    def refresh_viewer(self) -> None:
        """Re-read ``preview_viewer`` (call when the watcher saw it change)."""
        viewer = self.bus.read(PREVIEW_VIEWER) or {}
        until = viewer.get("until")
        self._viewer_until = 0.0
        if isinstance(until, int | float) and not isinstance(until, bool):
            self._viewer_until = float(until)

    def preview(self, now: float, serial: int, frame: Callable[[], Any]) -> bool:
        """Publish the frame while a viewer is watching; return True if one was queued.

        ``serial`` changes whenever a new frame reached the panel; ``frame()`` returns
        the PIL image to encode. At most one frame per ``PREVIEW_INTERVAL``.
        """
        watching = self._viewer_until > self.wall()
        if not watching:
            if self._preview_active:
                self._preview_active = False
                self.writer.remove(PREVIEW_FRAME)
            return False
        if not self._preview_active:
            self._preview_active = True
            self._preview_serial = None  # a new viewer gets the current frame at once
        if serial == self._preview_serial:
            return False
        if now - self._preview_at < PREVIEW_INTERVAL:
            self._preview_held = True
            return False
        image = frame()
        buffer = io.BytesIO()
        image.save(buffer, format="PNG", compress_level=1)
        self.writer.put(
            PREVIEW_FRAME,
            {
                "width": image.width,
                "height": image.height,
                "png_base64": base64.b64encode(buffer.getvalue()).decode("ascii"),
                "frame": serial,
                "at": self.wall(),
            },
        )
        self._preview_at = now
        self._preview_serial = serial
        self._preview_held = False
        return True


class FpsMeter:
    """Frames rendered per second, over windows of at least ``window`` seconds.

    The loop's meter uses ``LOOP_FPS_WINDOW``: long enough that the extra frame drawn
    when a slot starts does not read as a new frame rate (and rewrite the state).
    """

    def __init__(self, now: float, window: float = FPS_WINDOW) -> None:
        self.count = 0
        self.since = now
        self.value = 0.0
        self.window = window

    def rate(self, now: float) -> float:
        # The first value comes after one second, so a fresh start soon says something.
        window = self.window if self.value else min(self.window, FPS_WINDOW)
        if now - self.since >= window:
            self.value = self.count / (now - self.since)
            self.count, self.since = 0, now
        return round(self.value, 1)


def _fps_moved(old: float, new: float) -> bool:
    return abs(new - old) > max(FPS_TOLERANCE * old, FPS_SLACK)
