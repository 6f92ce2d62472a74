"""ScrollHelper: a horizontally scrolling strip (ticker text or a row of images).

Typical use in a plugin::

    self.scroll = ScrollHelper(dm.width, dm.height, logger=self.logger)
    self.pacing = scroll_config.configure(self.config, dm, helper=self.scroll)
    self.scroll.create_scrolling_image("Breaking news", font=dm.regular_font)

    def display(self, force_clear=False):
        self.pacing.engage(self.display_manager)      # frame hold: part of the speed
        self.scroll.update_scroll_position()
        self.display_manager.image.paste(self.scroll.get_visible_portion(), (0, 0))
        self.display_manager.update_display()

Pacing: after ``apply_scroll_config`` (or ``set_pixels_per_frame``) every
``update_scroll_position()`` call moves exactly ``step`` whole pixels and reads no
clock; the render loop's frame hold sets how often it is called. Without a fixed
step the position advances by ``scroll_speed`` pixels every ``scroll_delay`` seconds
(``set_frame_based_scrolling(True)``) or by elapsed time at ``scroll_speed`` px/s (the
default), still shown at whole pixels. The settings are in ``scroll_settings``.

The strip starts with ``lead_gap`` blank columns (default: one panel width, so text
scrolls in from the right). A cycle is complete once the position has travelled the
strip's width; then the helper stops at the wrap point (the blank lead) until
``reset_scroll()``, or keeps wrapping when ``continuous`` is True.

An empty list of images gives a blank panel-sized strip with ``total_scroll_width`` 0:
nothing scrolls. ``cached_array`` gives the strip's pixels as an array (``strip_pixels``).

Memory: rendered text strips are kept in a small LRU (``STRIP_CACHE_SIZE`` entries,
at most ``STRIP_CACHE_PIXELS`` pixels in all), keyed by text, font, colours and size.
"""

from __future__ import annotations

import logging
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from shared.plugin_api.common.scroll_settings import ScrollSettingsMixin
from shared.plugin_api.common.strip_pixels import strip_pixels

Color = tuple[int, int, int]
STRIP_CACHE_SIZE = 8
STRIP_CACHE_PIXELS = 2_000_000


class ScrollHelper(ScrollSettingsMixin):
    """Scroll position, the strip being scrolled and the visible window onto it."""

    def __init__(
        self,
        display_width: int,
        display_height: int,
        logger: logging.Logger | None = None,
        *,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.display_width = int(display_width)
        self.display_height = int(display_height)
        self.logger = logger or logging.getLogger(__name__)
        self.clock = clock
        self.cached_image: Image.Image | None = None
        self.total_scroll_width = 0
        self.scroll_position = 0.0
        self.total_distance_scrolled = 0.0
        self.scroll_complete = False
        self.is_scrolling = False
        self.continuous = False
        self.scroll_speed = 50.0  # px/s when no fixed step is set
        self.scroll_delay = 0.01  # seconds between frame-based steps
        self.fixed_pixels_per_frame: int | None = None
        self.frame_based_scrolling = False
        self.sub_pixel_scrolling = False  # recorded only: frames are whole pixels
        self.frame_hold = 1
        self.target_fps = 100.0  # informational: refresh_hz / frame_hold
        self.dynamic_duration_enabled = True
        self.min_duration = 30
        self.max_duration = 300
        self.duration_buffer = 0.1
        self.calculated_duration = self.min_duration
        self._last_update: float | None = None
        self._next_step: float | None = None
        self._cycle_started: float | None = None
        self._frames_logged: tuple[float, int] | None = None
        self._array: Any = None
        self._array_source: Image.Image | None = None
        self._strips: OrderedDict[tuple[Any, ...], Image.Image] = OrderedDict()

    # -- building the strip ----------------------------------------------------

    def create_scrolling_image(
        self,
        content: str | Sequence[Image.Image] | None = None,
        font: Any = None,
        color: Any = (255, 255, 255),
        *,
        background: Color = (0, 0, 0),
        item_gap: int = 32,
        element_gap: int = 16,
        lead_gap: int | None = None,
        y: int | None = None,
        content_items: Sequence[Image.Image] | None = None,
    ) -> Image.Image:
        """Build the strip from text (drawn in ``font``/``color``) or a list of images.

        Images are laid out left to right with ``item_gap`` between them and
        ``element_gap`` after each; text is one item. The strip starts with
        ``lead_gap`` blank columns (default: the panel width). Text is centred
        vertically unless ``y`` gives its top row. Resets the scroll position. An empty
        list gives a blank panel-sized strip with nothing to scroll.

        The existing system's form works too: ``content_items=`` for the images, and
        ``(items, item_gap, element_gap)`` given positionally.
        """
        if content is None:
            content = content_items if content_items is not None else []
        if not isinstance(content, str) and isinstance(font, int):  # (items, gap, gap)
            item_gap, font = font, None
            if isinstance(color, int):
                element_gap, color = color, (255, 255, 255)
        lead = self.display_width if lead_gap is None else max(0, int(lead_gap))
        if isinstance(content, str):
            key = ("text", content, font, tuple(color), tuple(background), y,
                   lead, element_gap, self.display_width, self.display_height)
            strip = self._strips.get(key)
            if strip is None:
                item = self.render_text(content, font, color, background=background, y=y)
                strip = self._lay_out([item], background, lead, item_gap, element_gap)
                self._remember(key, strip)
            else:
                self._strips.move_to_end(key)
        else:
            items = list(content)
            if not items:
                return self._set_blank(background)
            strip = self._lay_out(items, background, lead, item_gap, element_gap)
        self.set_scrolling_image(strip)
        return strip

    def render_text(
        self,
        text: str,
        font: Any = None,
        color: Color = (255, 255, 255),
        *,
        background: Color = (0, 0, 0),
        y: int | None = None,
    ) -> Image.Image:
        """Return ``text`` drawn on a panel-high image exactly as wide as its advance."""
        font = font if font is not None else ImageFont.load_default()
        width = max(1, int(round(font.getlength(text)))) if text else 1
        image = Image.new("RGB", (width, self.display_height), background)
        if y is None:
            ascent, descent = font.getmetrics() if hasattr(font, "getmetrics") else (0, 0)
            y = (self.display_height - (ascent + descent)) // 2
        ImageDraw.Draw(image).text((0, y), text, font=font, fill=color)
        return image

    def set_scrolling_image(self, image: Image.Image | None) -> None:
        """Scroll a strip the caller built; resets the position. None clears the strip."""
        if image is None:
            self.clear_cache()
            return
        self.cached_image = image.convert("RGB") if image.mode != "RGB" else image
        self.total_scroll_width = self.cached_image.width
        self.calculate_dynamic_duration()
        self.reset_scroll()

    def clear_cache(self) -> None:
        """Drop the current strip and the cached text strips."""
        self.cached_image = None
        self.total_scroll_width = 0
        self._strips.clear()
        self.calculate_dynamic_duration()
        self.reset_scroll()

    @property
    def cached_array(self) -> Any:
        """The strip's pixels, read-only, shaped (height, width, 3); None without a strip.

        Made on first read after the strip changes (see ``strip_pixels``). Assigning a
        value keeps it for the current strip; drawing still uses ``cached_image``.
        """
        image = self.cached_image
        if image is None:
            return None
        if self._array is None or self._array_source is not image:
            self._array, self._array_source = strip_pixels(image), image
        return self._array

    @cached_array.setter
    def cached_array(self, value: Any) -> None:
        self._array, self._array_source = value, self.cached_image

    def _set_blank(self, background: Color) -> Image.Image:
        """Show a blank panel-sized strip that does not scroll (no content)."""
        blank = Image.new("RGB", (max(1, self.display_width), max(1, self.display_height)),
                          background)
        self.cached_image = blank
        self.total_scroll_width = 0
        self.calculate_dynamic_duration()
        self.reset_scroll()
        return blank

    def _lay_out(
        self, items: list[Image.Image], background: Color, lead: int, item_gap: int, gap: int
    ) -> Image.Image:
        width = lead + sum(i.width for i in items) + gap * len(items)
        width += max(0, item_gap) * max(0, len(items) - 1)
        strip = Image.new("RGB", (max(1, width), self.display_height), background)
        x = lead
        for item in items:
            strip.paste(item, (x, 0))
            x += item.width + gap + max(0, item_gap)
        return strip

    def _remember(self, key: tuple[Any, ...], strip: Image.Image) -> None:
        self._strips[key] = strip
        while len(self._strips) > STRIP_CACHE_SIZE or (
            len(self._strips) > 1
            and sum(s.width * s.height for s in self._strips.values()) > STRIP_CACHE_PIXELS
        ):
            self._strips.popitem(last=False)

    # -- moving ------------------------------------------------------------------

    def update_scroll_position(self) -> None:
        """Advance by one presented frame (see ``scroll_settings`` for the pacing modes)."""
        if self.cached_image is None or self.total_scroll_width <= 0:
            return
        self.is_scrolling = True
        if self.scroll_complete and not self.continuous:
            return
        move = self._frame_move()
        total = float(self.total_scroll_width)
        self.total_distance_scrolled += move
        self.scroll_position += move
        if self.total_distance_scrolled >= total:
            self.scroll_complete = True
            if not self.continuous:
                self.total_distance_scrolled = total
                self.scroll_position = total
                return
        if self.scroll_position >= total:
            self.scroll_position %= total

    def _frame_move(self) -> float:
        """Return the pixels to move this frame: a fixed step, a due frame-based step, or
        the elapsed time's worth. Only the last two read the clock."""
        if self.fixed_pixels_per_frame:
            return float(self.fixed_pixels_per_frame)
        now = self.clock()
        if self._cycle_started is None:
            self._cycle_started = now
        if self.frame_based_scrolling:
            due = self._next_step
            if due is None:  # the first frame of a cycle starts the step clock
                self._next_step = now + self.scroll_delay
                return 0.0
            if now < due:
                return 0.0
            # Keep the rhythm through jitter; after a stall start again from now rather
            # than rushing to catch up.
            self._next_step = (due if now - due < self.scroll_delay else now) + self.scroll_delay
            return self.scroll_speed
        last, self._last_update = self._last_update, now
        return 0.0 if last is None else max(0.0, now - last) * self.scroll_speed

    def get_visible_portion(self) -> Image.Image | None:
        """Return the panel-sized window at the current (whole-pixel) position."""
        strip = self.cached_image
        if strip is None:
            return None
        width, height = self.display_width, self.display_height
        start = int(self.scroll_position) % max(1, strip.width)
        if start + width <= strip.width:
            return strip.crop((start, 0, start + width, height))
        frame = Image.new("RGB", (width, height))
        x = 0
        while x < width:  # wrap onto the head of the strip, as often as it takes
            piece = strip.crop((start, 0, min(strip.width, start + width - x), height))
            frame.paste(piece, (x, 0))
            x += piece.width
            start = 0
        return frame

    def is_scroll_complete(self) -> bool:
        """Return True once the strip has travelled its full width since the last reset."""
        return self.scroll_complete

    def remaining_unscrolled(self) -> int:
        """Return the strip columns still to the right of the window."""
        if self.cached_image is None:
            return 0
        return max(0, self.total_scroll_width - int(self.scroll_position) - self.display_width)

    def reset_scroll(self) -> None:
        """Go back to the start of the strip and a new cycle."""
        self.scroll_position = 0.0
        self.total_distance_scrolled = 0.0
        self.scroll_complete = False
        self._last_update = None
        self._next_step = None
        self._cycle_started = None

    reset = reset_scroll
