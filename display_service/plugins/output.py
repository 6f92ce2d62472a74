"""What plugins print goes to the log under the plugin's id, at a bounded rate.

``install`` replaces ``sys.stdout`` and ``sys.stderr`` of the display daemon with
writers that log each complete line as ``<plugin_id>: <line>`` on the logger
``display_service.plugins.output`` (INFO for standard output, WARNING for standard
error). It must run after logging is set up: the log handler keeps the real stderr it
was given, so a logged line never comes back through here.

- Whose line: the plugin whose call the thread is in (``boundary.current_plugin``),
  else (a thread the plugin started itself) the plugin whose directory holds the
  nearest calling frame's code, else ``output``.
- Rate: per source a burst of ``BURST`` lines, then ``RATE`` lines a second. What is
  dropped is counted and said in one line per source, ``weather: 1200 lines of output
  dropped in the last 30 s``, at most once per ``SUMMARY_INTERVAL``.
- Memory: a line longer than ``MAX_LINE`` characters is cut; of a line not yet ended
  only its first ``MAX_LINE`` characters are kept.
- A write never raises into the caller: a plugin's ``print`` cannot fail because of us.
"""

from __future__ import annotations

import io
import logging
import os
import sys
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import Any, TextIO

from shared.plugin_api.boundary import current_plugin
from shared.plugin_system.loader import ROOT_PACKAGE

logger = logging.getLogger("display_service.plugins.output")

BURST = 50  # lines a source may print at once
RATE = 10.0  # lines per second after the burst
SUMMARY_INTERVAL = 30.0  # seconds between two "dropped" lines of one source
FIRST_SUMMARY = 5.0  # seconds from the first drop to the first "dropped" line
MAX_LINE = 500  # characters of one line that are logged
FRAME_DEPTH = 40  # calling frames looked at to find a plugin's code
MAX_SOURCES = 256  # beyond this, output is logged as FALLBACK
MAX_FILES_KNOWN = 2048  # code file -> plugin answers kept
FALLBACK = "output"


@dataclass
class _Source:
    """Rate state of one source and its unfinished lines (one per stream)."""

    name: str
    tokens: float
    stamp: float
    partial: dict[int, str] = field(default_factory=dict)
    cut: dict[int, int] = field(default_factory=dict)
    dropped: int = 0
    dropped_since: float | None = None
    summary_due: bool = False
    last_summary: float | None = None


class OutputLog:
    """Turn written text into rate-limited log lines per source (thread-safe)."""

    def __init__(self, roots: Iterable[Path], clock: Callable[[], float] = time.monotonic,
                 schedule: Callable[[float, Callable[[], None]], Any] | None = None) -> None:
        self._roots = _root_prefixes(roots)
        self._clock = clock
        self._schedule = schedule or _timer
        self._lock = threading.Lock()
        self._sources: dict[str, _Source] = {}
        self._files: dict[str, str | None] = {}
        self._local = threading.local()

    def write(self, text: str, level: int) -> bool:
        """Log the lines ``text`` completes; False when called back from our own logging."""
        if getattr(self._local, "logging", False):
            return False
        source = current_plugin() or self.owner(sys._getframe(2)) or FALLBACK
        with self._lock:
            state = self._sources.get(source) or self._new_state(source)
            if "\n" not in text:  # the middle of a line: nothing to log yet
                held = state.partial.get(level, "")
                if len(held) + len(text) <= MAX_LINE:
                    state.partial[level] = held + text
                else:
                    _keep(state, level, text, 0, len(text))
                return True
            lines, summary = self._take(state, text, level)
        if lines:
            self._local.logging = True
            try:
                for line in lines:
                    logger.log(level, "%s: %s", state.name, line)
            finally:
                self._local.logging = False
        if summary:
            self._schedule(summary, lambda: self._summarise(state))
        return True

    def _new_state(self, source: str) -> _Source:
        if len(self._sources) >= MAX_SOURCES:
            source = FALLBACK
        return self._sources.setdefault(source, _Source(source, float(BURST), self._clock()))

    def _take(self, state: _Source, text: str, level: int) -> tuple[list[str], float]:
        """Split off the complete lines that may be logged.

        Return the lines and the delay of a summary to schedule (0: none).
        """
        now = self._clock()
        state.tokens = min(float(BURST), state.tokens + (now - state.stamp) * RATE)
        state.stamp = now
        lines: list[str] = []
        dropped = 0
        start = 0
        while True:
            end = text.find("\n", start)
            if end < 0:
                _keep(state, level, text, start, len(text))
                break
            _keep(state, level, text, start, end)
            line = _finish(state, level)
            start = end + 1
            if not line.strip():
                continue
            if state.tokens >= 1:
                state.tokens -= 1
                lines.append(line)
                continue
            # Out of tokens: none come back within this write, so count the rest at once.
            dropped = 1 + text.count("\n", start)
            last = text.rfind("\n", start)
            if last >= 0:
                start = last + 1
            _keep(state, level, text, start, len(text))
            break
        return lines, self._count_drops(state, dropped, now)

    def _count_drops(self, state: _Source, dropped: int, now: float) -> float:
        """Add drops to the source's count; return the delay of a new summary, 0 for none."""
        if not dropped:
            return 0.0
        state.dropped += dropped
        if state.dropped_since is None:
            state.dropped_since = now
        if state.summary_due:
            return 0.0
        state.summary_due = True
        if state.last_summary is None:
            return FIRST_SUMMARY
        return max(0.001, state.last_summary + SUMMARY_INTERVAL - now)

    def _summarise(self, state: _Source) -> None:
        """Log how many lines a source lost since its last summary."""
        try:
            with self._lock:
                if not state.dropped:
                    return
                now = self._clock()
                count, since = state.dropped, state.dropped_since or now
                state.dropped, state.dropped_since = 0, None
                state.summary_due, state.last_summary = False, now
            logger.warning("%s: %d lines of output dropped in the last %.0f s",
                           state.name, count, max(1.0, now - since))
        except Exception:  # a timer thread: nothing to report to but the real stderr
            pass

    def owner(self, frame: FrameType | None) -> str | None:
        """Return the plugin whose code is nearest on the stack from ``frame``, if any."""
        for _ in range(FRAME_DEPTH):
            if frame is None:
                return None
            found = self._frame_owner(frame)
            if found:
                return found
            frame = frame.f_back
        return None

    def _frame_owner(self, frame: FrameType) -> str | None:
        name = frame.f_globals.get("__name__")
        if isinstance(name, str) and name.startswith(ROOT_PACKAGE + "."):
            package = sys.modules.get(".".join(name.split(".")[:2]))
            where = getattr(package, "__path__", None)
            if where:
                return os.path.basename(os.path.normpath(list(where)[0]))
        filename = frame.f_code.co_filename
        if filename in self._files:
            return self._files[filename]
        found = _under(filename, self._roots)
        if len(self._files) >= MAX_FILES_KNOWN:
            self._files.clear()
        self._files[filename] = found
        return found


def _keep(state: _Source, level: int, text: str, start: int, end: int) -> None:
    """Add ``text[start:end]`` to the unfinished line; only MAX_LINE characters are kept."""
    if end <= start:
        return
    held = state.partial.get(level, "")
    room = MAX_LINE - len(held)
    if room > 0:
        state.partial[level] = held + text[start:min(end, start + room)]
    extra = end - start - max(room, 0)
    if extra > 0:
        state.cut[level] = state.cut.get(level, 0) + extra


def _finish(state: _Source, level: int) -> str:
    """Return the finished line (marked when cut) and start a new one."""
    line = state.partial.pop(level, "").rstrip("\r")
    cut = state.cut.pop(level, 0)
    return f"{line} ... ({cut} more characters)" if cut else line


def _root_prefixes(roots: Iterable[Path]) -> tuple[str, ...]:
    prefixes: set[str] = set()
    for root in roots:
        for form in (os.path.abspath(root), os.path.realpath(root)):
            prefixes.add(form.rstrip(os.sep) + os.sep)
    return tuple(sorted(prefixes))


def _under(filename: str, prefixes: tuple[str, ...]) -> str | None:
    """Return the plugin directory name of a code file inside a plugins directory."""
    for prefix in prefixes:
        if filename.startswith(prefix):
            name = filename[len(prefix):].split(os.sep, 1)[0]
            return name if name and os.sep in filename[len(prefix):] else None
    return None


def _timer(delay: float, action: Callable[[], None]) -> None:
    timer = threading.Timer(delay, action)
    timer.daemon = True
    timer.start()


class PluginOutput(io.TextIOBase):
    """A text stream in place of ``sys.stdout``/``sys.stderr`` that logs what it gets."""

    def __init__(self, log: OutputLog, level: int, original: TextIO | None) -> None:
        super().__init__()
        self._log = log
        self._level = level
        self._original = original
        self.buffer = _Bytes(self)

    def write(self, text: Any) -> int:
        """Log the lines ``text`` completes; never raise."""
        try:
            if type(text) is not str:
                text = (bytes(text).decode("utf-8", "replace")
                        if isinstance(text, bytes | bytearray) else str(text))
        except Exception:
            return 0
        try:
            if not self._log.write(text, self._level):
                self._direct(text)  # logging itself wrote here (an error in a handler)
        except Exception:  # a broken log handler: the text goes where it would have gone
            self._direct(text)
        return len(text)

    def _direct(self, text: str) -> None:
        try:
            if self._original is not None:
                self._original.write(text[:MAX_LINE * 4])
        except Exception:
            pass

    def flush(self) -> None:
        """Nothing is held that a flush should send: unfinished lines wait for their end."""

    def writable(self) -> bool:
        return True

    def isatty(self) -> bool:
        return False

    def fileno(self) -> int:
        if self._original is None:
            raise io.UnsupportedOperation("no file descriptor")
        return self._original.fileno()

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return "utf-8"

    @property
    def errors(self) -> str:  # type: ignore[override]
        return "replace"


class _Bytes:
    """``sys.stdout.buffer`` for code that writes bytes."""

    def __init__(self, stream: PluginOutput) -> None:
        self._stream = stream

    def write(self, data: Any) -> int:
        self._stream.write(data)
        return len(data) if isinstance(data, bytes | bytearray) else 0

    def flush(self) -> None:
        return None


def install(roots: Iterable[Path]) -> OutputLog:
    """Send this process's standard output and error to the log; return the line splitter.

    ``roots`` are the directories plugins are installed in (their code files are found
    by path when a plugin's own thread prints).
    """
    log = OutputLog(roots)
    sys.stdout = PluginOutput(log, logging.INFO, sys.stdout)
    sys.stderr = PluginOutput(log, logging.WARNING, sys.stderr)
    return log
