"""The ticker: segments placed on the strip as the scroll position needs them.

A *cycle* is one content list from ``content_source`` shown once or several times:
while the list (with its separators and static holds) would last less than
``vegas_min_cycle_duration`` seconds it is shown again; then the source is asked for
the next list. When ``dynamic_cycle_duration`` is false the list repeats up to
``vegas_max_cycle_duration`` instead. A cycle on screen for ``vegas_max_cycle_duration``
seconds is cut: what lies beyond the panel's right edge is dropped and the next cycle
follows at once. Durations are estimated from pixels when deciding to repeat; the cut
uses the clock, from the moment the cycle's first pixel came on screen.
"""

from __future__ import annotations

import logging
import math
import time
from collections.abc import Callable
from typing import Any

from PIL import Image

from display_service.vegas.capture import REGULAR_SIZE, default_font
from display_service.vegas.content import fit_height
from display_service.vegas.pacing import Pacer, pixel
from display_service.vegas.settings import read_settings
from display_service.vegas.strip import (
    GAP,
    Placed,
    Segment,
    Strip,
    gap_segment,
    render_separator,
)

logger = logging.getLogger(__name__)

ContentSource = Callable[[], list[Segment]]
EMPTY_RETRY = 2.0  # seconds of blank strip before asking an empty source again


class VegasTicker:
    """One continuous ticker across the plugins' content; see the package docstring."""

    _strip: Strip
    _list: list[Segment]  # the newest content list
    _pending: list[Segment]  # placed before the list resumes (unseen content after a cut)
    _next: int  # index of the list's next segment to place
    _cycle: int  # id of the newest list
    _cycle_x: int | None  # strip x where the newest list begins
    _cycle_holds: int  # static holds placed for the newest list
    _final: bool  # the newest list must not repeat (it was cut)
    _shown_cycle: int  # newest cycle with a pixel on screen, and since when
    _shown_since: float
    _cut_cycle: int
    _last_x: int | None
    _last_pos: float | None
    _last_image: Image.Image | None
    _dirty: bool

    def __init__(self, config: dict[str, Any], width: int, height: int,
                 content_source: ContentSource, clock: Callable[[], float] = time.monotonic,
                 *, font: Any = None) -> None:
        self.width, self.height = int(width), int(height)
        self._source = content_source
        self._clock = clock
        self._font = font if font is not None else default_font(REGULAR_SIZE)
        self.settings = read_settings(config)
        self._separator = render_separator(self.settings, self.height, self._font)
        self._pacer = Pacer(self.settings, clock(), start=-self.width)
        self.cycles_started = 0
        self._start_over()

    # -- the render loop's calls ----------------------------------------------

    def frame(self, now: float | None = None) -> Image.Image:
        """Return the panel image at ``now``; the very same object when nothing moved."""
        now = self._clock() if now is None else now
        x = pixel(self._pacer.position(now))
        self._fill(x + self.width)
        self._last_pos = self._pacer.position(now)  # a static segment placed now may hold
        x = pixel(self._last_pos)
        self._strip.drop_before(x)
        self._track_cycle(x, now)
        if x == self._last_x and not self._dirty and self._last_image is not None:
            return self._last_image
        self._last_image = self._strip.compose(x)
        self._last_x, self._dirty = x, False
        return self._last_image

    def next_frame_due(self, now: float | None = None) -> float:
        """Return when the picture next changes: the next whole pixel, or a hold's end.

        While only blank gap is on the panel and nothing is queued (the content source
        had nothing), nothing can change before the gap's end reaches the right edge,
        when the source is asked again (``EMPTY_RETRY``), or before the cycle cut
        (``vegas_max_cycle_duration``): that is the answer then, not the next pixel.
        """
        now = self._clock() if now is None else now
        if self._dirty:
            return now
        due = self._pacer.next_change(now)
        idle = self._blank_until(now)
        return due if idle is None else max(due, idle)

    def reconfigure(self, config: dict[str, Any], now: float | None = None) -> None:
        """Apply a new config from ``now`` on: no jump, the queued segments stay."""
        now = self._clock() if now is None else now
        settings = read_settings(config)
        self._pacer.configure(settings, now)
        if (settings.separator, settings.separator_color, settings.separator_padding,
                settings.background_color) != (self.settings.separator,
                                               self.settings.separator_color,
                                               self.settings.separator_padding,
                                               self.settings.background_color):
            self._separator = render_separator(settings, self.height, self._font)
            self._strip.background = settings.background_color
            self._dirty = True
        self.settings = settings

    def reset(self, now: float | None = None) -> None:
        """Start over: empty strip, content entering from the right, fresh content."""
        now = self._clock() if now is None else now
        self._pacer.restart(now, -self.width)
        self._start_over()

    def resume(self, now: float | None = None) -> None:
        """Go on from the last frame drawn, as if no time had passed since then.

        Call it when the ticker comes back after something else had the panel (an
        on-demand request, live content); otherwise the position follows the clock and
        everything that would have scrolled by meanwhile is skipped.
        """
        now = self._clock() if now is None else now
        if self._last_pos is None:
            self._pacer.restart(now, -self.width)  # nothing drawn yet: start from the right
        else:
            self._pacer.resume(now, self._last_pos)

    def plugin_shown(self) -> str | None:
        """Return the plugin whose content covers most of the last frame drawn.

        The leftmost one on a tie; None before the first frame and while only
        separators or blank gap are on the panel.
        """
        if self._last_x is None:
            return None
        left, right = self._last_x, self._last_x + self.width
        columns: dict[str, int] = {}
        for placed in self._strip.placed:
            if placed.x >= right:
                break
            plugin_id = placed.segment.plugin_id
            seen = min(placed.end, right) - max(placed.x, left)
            if plugin_id is not None and seen > 0:
                columns[plugin_id] = columns.get(plugin_id, 0) + seen
        return max(columns, key=columns.__getitem__) if columns else None

    # -- figures for tests and benchmarks -----------------------------------------

    @property
    def segments_held(self) -> int:
        """Segment images referenced: on the strip, in the cycle list, pending."""
        return len(self._held_images())

    @property
    def pixels_held(self) -> int:
        """Pixels of every image the ticker references, the last frame included."""
        images = self._held_images()
        if self._last_image is not None:
            images[id(self._last_image)] = self._last_image
        return sum(image.width * image.height for image in images.values())

    # -- placing segments ------------------------------------------------------

    def _start_over(self) -> None:
        self._strip = Strip(self.width, self.height, self.settings.background_color)
        self._list, self._pending = [], []
        self._next, self._cycle, self._cycle_x, self._cycle_holds = 0, 0, None, 0
        self._final = False
        self._shown_cycle, self._shown_since, self._cut_cycle = -1, 0.0, -1
        self._last_x, self._last_pos, self._last_image, self._dirty = None, None, None, True

    def _fill(self, right: int) -> None:
        """Place segments up to the right edge, plus ``buffer_ahead`` beyond it.

        A blank stretch (no content) is not buffered past: the source is asked again
        only when the stretch reaches the right edge.
        """
        buffer = self.settings.buffer_ahead
        while self._strip.tail < right or (self._ahead(right) < buffer and not self._waiting()):
            if not self._place_next() and self._strip.tail >= right:
                break

    def _blank_until(self, now: float) -> float | None:
        """Return when a blank panel can next change; None unless only gap is ahead.

        Only gap from the left edge on and nothing pending: the next change is when the
        right edge passes the strip's tail (``_fill`` places the next segment, asking
        the source), or the cycle cut, whichever comes first.
        """
        if self._pending:
            return None
        x = pixel(self._pacer.position(now))
        if any(p.segment.mode != GAP for p in self._strip.placed if p.end > x):
            return None
        due = self._pacer.reaches(now, self._strip.tail - self.width + 1)
        if due is not None and self._shown_cycle >= 0 and self._cut_cycle != self._shown_cycle:
            due = min(due, self._shown_since + self.settings.max_cycle)
        return due

    def _waiting(self) -> bool:
        return bool(self._strip.placed) and self._strip.placed[-1].segment.mode == GAP

    def _ahead(self, edge: int) -> int:
        """Count the content segments placed beyond strip pixel ``edge``."""
        count = 0
        for placed in reversed(self._strip.placed):
            if placed.x < edge:
                break
            count += placed.segment.plugin_id is not None
        return count

    def _place_next(self) -> bool:
        """Place the next segment; return False when there was no content to place."""
        if self._pending:
            self._place(self._pending.pop(0), -1)
            return True
        if self._next >= len(self._list):
            if self._list and not self._final and self._repeat():
                self._next = 0
            else:
                self._new_cycle()
        if not self._list:  # nothing to show: a blank stretch, then ask again
            width = max(self.width, math.ceil(self.settings.pixels_per_second * EMPTY_RETRY))
            self._strip.append(gap_segment(width, self.height, self.settings.background_color),
                               self._cycle, -1)
            return False
        if self._cycle_x is None:
            self._cycle_x = self._strip.tail
        self._next += 1
        self._place(self._list[self._next - 1], self._next - 1)
        return True

    def _place(self, segment: Segment, index: int) -> None:
        last = self._strip.placed[-1] if self._strip.placed else None
        content_before = last is not None and last.segment.plugin_id is not None
        if self._separator is not None and content_before and last is not None and (
                index == 0 or last.segment.plugin_id != segment.plugin_id):
            self._strip.append(self._separator, self._cycle, -1)
        placed = self._strip.append(segment, self._cycle, index)
        if segment.mode == "static":
            self._pacer.add_hold(placed.x, self.settings.static_hold_duration)
            self._cycle_holds += 1

    def _repeat(self) -> bool:
        settings = self.settings
        target = settings.min_cycle if settings.dynamic_cycle_duration else settings.max_cycle
        start = self._strip.tail if self._cycle_x is None else self._cycle_x
        seconds = ((self._strip.tail - start) / settings.pixels_per_second
                   + self._cycle_holds * settings.static_hold_duration)
        return seconds < target

    def _new_cycle(self) -> None:
        try:
            segments = list(self._source())
        except Exception:  # isolation boundary: the content source (plugins are guarded inside)
            logger.exception("vegas content source failed; blank until the next try")
            segments = []
        self._list = [s for s in map(self._checked, segments) if s is not None]
        self._next, self._cycle_x, self._cycle_holds, self._final = 0, None, 0, False
        self._cycle += 1

    def _checked(self, segment: Segment) -> Segment | None:
        image = getattr(segment, "image", None)
        if not isinstance(image, Image.Image):
            return None
        if image.height == self.height and image.mode == "RGB" and image.width >= 1:
            return segment
        fitted = fit_height(image, self.height, self.settings.background_color)
        return None if fitted is None else Segment(fitted, segment.plugin_id, segment.mode)

    # -- cycles ------------------------------------------------------------------

    def _track_cycle(self, x: int, now: float) -> None:
        right = x + self.width
        newest_visible = max((p.cycle for p in self._strip.placed if p.x < right), default=-1)
        if newest_visible > self._shown_cycle:
            self._shown_cycle, self._shown_since = newest_visible, now
            self.cycles_started += 1
        if (self._cut_cycle != self._shown_cycle and self._shown_cycle >= 0
                and now - self._shown_since >= self.settings.max_cycle):
            self._cut_cycle = self._shown_cycle
            self._pending = self._trim(right, keep_from=self._shown_cycle + 1) + self._pending
            if self._shown_cycle == self._cycle:
                self._next, self._final = len(self._list), True

    def _trim(self, edge: int, keep_from: int) -> list[Segment]:
        """Drop what lies beyond strip pixel ``edge``; return what must still be shown.

        Content of cycles before ``keep_from`` is dropped for good. Of the rest, the
        newest list's segments are placed again from its list; the other unseen content
        (segments put back by an earlier cut, older queued cycles, the unseen part of a
        segment cut at ``edge``) is returned in strip order.
        """
        removed, trimmed = self._strip.trim_after(edge)
        static_cut = trimmed if trimmed is not None and trimmed.segment.mode == "static" \
            else None
        self._pacer.drop_holds_from(static_cut.x if static_cut is not None else edge)
        newest = [p for p in removed if p.cycle == self._cycle and p.index >= 0]
        self._rewind_cycle(newest, static_cut, edge, keep_from)
        unseen = [p.segment for p in removed if p not in newest and _unseen(p, keep_from)]
        if trimmed is not None and _unseen(trimmed, keep_from):
            image = trimmed.segment.image
            rest = image.crop((trimmed.width, 0, image.width, image.height))
            unseen.insert(0, Segment(rest, trimmed.segment.plugin_id, "scroll"))
        return unseen

    def _rewind_cycle(self, newest: list[Placed], static_cut: Placed | None, edge: int,
                      keep_from: int) -> None:
        """Take the newest list's cut segments back out of the cycle's accounting.

        Their static holds no longer count towards the cycle's length, the cycle's start
        is forgotten if it was cut, and the list resumes at its first cut segment (when
        that cycle is still to be shown).
        """
        self._cycle_holds -= sum(1 for p in newest if p.segment.mode == "static")
        if static_cut is not None and static_cut.cycle == self._cycle:
            self._cycle_holds -= 1
        if self._cycle_x is not None and self._cycle_x >= edge:
            self._cycle_x = None
        if newest and self._cycle >= keep_from:
            self._next = newest[0].index

    def _held_images(self) -> dict[int, Image.Image]:
        images: dict[int, Image.Image] = {}
        segments: list[Segment] = [p.segment for p in self._strip.placed]
        segments += self._list + self._pending
        if self._separator is not None:
            segments.append(self._separator)
        for segment in segments:
            images[id(segment.image)] = segment.image
        return images


def _unseen(placed: Placed, keep_from: int) -> bool:
    """Return whether cut content must still be shown: a plugin's segment put back by an
    earlier cut (index -1) or of a cycle from ``keep_from`` on."""
    return placed.segment.plugin_id is not None and (
        placed.index < 0 or placed.cycle >= keep_from)
