"""What a plugin warned about while it loaded, kept so its tab can say it too.

A plugin that runs without an optional package (pytz missing: the clock falls back to
UTC) or repairs its own config says so in the log, at WARNING, while it is imported,
constructed and checked. Those lines used to reach only the journal. ``caught()``
collects the WARNING-and-above records logged by the loading thread while the plugin
loads (its own loggers, its modules', and the core's advisories about it), one line
each, at most ``MAX_WARNINGS`` of ``MAX_TEXT`` characters, repeats dropped. The display
publishes them per loaded plugin as ``load_warnings`` in ``display_state``.

Only the loading thread counts: other threads (another plugin's update worker, the
render loop's watchers) log at the same time and are not this plugin's load.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterator
from contextlib import contextmanager

MAX_WARNINGS = 10
MAX_TEXT = 300


class _Catcher(logging.Handler):
    def __init__(self, thread: int) -> None:
        super().__init__(logging.WARNING)
        self.thread = thread
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        if record.thread != self.thread or len(self.lines) >= MAX_WARNINGS:
            return
        line = one_line(_message(record))
        if line and line not in self.lines:
            self.lines.append(line)


def _message(record: logging.LogRecord) -> str:
    try:
        return record.getMessage()
    except Exception:  # a plugin's bad format arguments: the template still says something
        return str(record.msg)


def one_line(text: str) -> str:
    """Return ``text`` as one trimmed line of at most ``MAX_TEXT`` characters."""
    line = " ".join(text.split())
    return line if len(line) <= MAX_TEXT else line[: MAX_TEXT - 3] + "..."


@contextmanager
def caught() -> Iterator[list[str]]:
    """Collect the warnings this thread logs inside the block; yield the list they fill."""
    catcher = _Catcher(threading.get_ident())
    root = logging.getLogger()
    root.addHandler(catcher)
    try:
        yield catcher.lines
    finally:
        root.removeHandler(catcher)
