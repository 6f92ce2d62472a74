"""Limits: what one app run may take (time, frames, stack, file sizes), and the clock."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

MB = 1024 * 1024


@dataclass(frozen=True)
class Limits:
    """The budget of one render; the defaults suit a 64x32 panel on a small board."""

    seconds: float = 1.0  # wall clock for evaluating the app (top level and main)
    max_frames: int = 2000  # frames shown: pixlet paints the first 2000 and drops the rest
    refuse_frames: int = 8000  # a tree with more is a runaway, refused before painting
    max_callstack: int = 200
    max_source_bytes: int = 1 * MB
    max_asset_bytes: int = 5 * MB
    max_cache_entries: int = 256
    max_cache_bytes: int = 1 * MB
    http_timeout: float = 5.0
    http_max_bytes: int = 5 * MB


class Deadline:
    """A monotonic deadline; ``expired`` is the interpreter's ``check_cancelled``.

    Time spent waiting for the network is given back (``waited``): the budget is for
    the app's own work, and the fetch has its own timeout.
    """

    def __init__(self, seconds: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.seconds = seconds
        self.clock = clock
        self._end = clock() + seconds
        self.hit = False

    def expired(self) -> bool:
        """True once the budget is spent (and remembered, to name the cause)."""
        if self.clock() >= self._end:
            self.hit = True
        return self.hit

    def waited(self, seconds: float) -> None:
        """Give back ``seconds`` spent waiting outside the app (a fetch)."""
        self._end += max(0.0, seconds)

    def message(self) -> str:
        """The one-line error an app that ran out of time gets."""
        return f"app took longer than {self.seconds:g} s to render"
