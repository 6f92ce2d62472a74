"""The drawing surface plugins receive as ``display_manager``.

Plugins draw on ``image`` (through ``draw`` or by pasting), then call
``update_display()`` to present it. Called on the render thread, which is the thread
that calls ``display()``, the frame goes to the panel at once; called from any other
thread it is kept as pending and the render loop pushes it before its next frame. A
frame identical to the one on the panel is not pushed again.
"""

from __future__ import annotations

import hashlib
import logging
import threading
from collections.abc import Callable
from functools import cached_property
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from display_service.matrix.protocol import MatrixBackend
from display_service.matrix.select import configured_brightness, hardware_section

logger = logging.getLogger(__name__)

Color = tuple[int, int, int]
FontLike = Any  # PIL ImageFont / FreeTypeFont, or whatever a plugin passes in

REGULAR_FONT_SIZE = 10
SMALL_FONT_SIZE = 8
EXTRA_SMALL_FONT_SIZE = 7


def _default_font(size: int) -> FontLike:
    try:
        return ImageFont.load_default(size=size)
    except (TypeError, OSError, ImportError):  # Pillow without FreeType: bitmap font
        return ImageFont.load_default()


class DisplayManager:
    """Canvas, fonts and frame presentation for one panel."""

    def __init__(self, backend: MatrixBackend, *, refresh_hz: float = 100.0) -> None:
        self.backend = backend
        # The real binding's matrix object in hardware mode; None in fallback mode.
        self.matrix: Any = getattr(backend, "matrix", None)
        self.refresh_hz = float(refresh_hz) if refresh_hz and refresh_hz > 0 else 100.0
        self.image = Image.new("RGB", (self.width, self.height))
        self.draw = ImageDraw.Draw(self.image)
        self.frames_pushed = 0
        self._last_digest: bytes | None = None
        self._pending: Image.Image | None = None
        self._lock = threading.Lock()
        self._render_thread: int | None = None
        self._scrolling = False
        self.scroll_frame_hold = 1
        self._deferred: list[tuple[int, int, Callable[[], Any]]] = []
        self._deferred_seq = 0

    @property
    def width(self) -> int:
        return self.backend.width

    @property
    def height(self) -> int:
        return self.backend.height

    @cached_property
    def regular_font(self) -> FontLike:
        return _default_font(REGULAR_FONT_SIZE)

    @cached_property
    def small_font(self) -> FontLike:
        return _default_font(SMALL_FONT_SIZE)

    @cached_property
    def extra_small_font(self) -> FontLike:
        return _default_font(EXTRA_SMALL_FONT_SIZE)

    def apply_config(self, config: dict[str, Any]) -> int | None:
        """Apply brightness and refresh rate from config; return the new brightness if changed."""
        hardware = hardware_section(config)
        hz = hardware.get("limit_refresh_rate_hz")
        if isinstance(hz, int | float) and not isinstance(hz, bool) and hz > 0:
            self.refresh_hz = float(hz)
        brightness = configured_brightness(config)
        if brightness == self.backend.brightness:
            return None
        self.backend.brightness = brightness
        return brightness

    # -- drawing -------------------------------------------------------------

    def clear(self) -> None:
        """Start a fresh black canvas; nothing is pushed until ``update_display()``."""
        self.image = Image.new("RGB", (self.width, self.height))
        self.draw = ImageDraw.Draw(self.image)

    def draw_text(
        self,
        text: str,
        x: int | None = None,
        y: int | None = None,
        color: Color = (255, 255, 255),
        small_font: bool = False,
        font: FontLike = None,
        centered: bool = False,
    ) -> None:
        """Draw ``text`` on the canvas.

        ``x=None`` or ``centered=True`` centres the text horizontally; ``y=None`` is the
        top row. ``font`` wins over ``small_font``; the default is ``regular_font``.
        """
        chosen = font
        if chosen is None:
            chosen = self.small_font if small_font else self.regular_font
        if x is None or centered:
            x = (self.width - self.get_text_width(text, chosen)) // 2
        self.draw.text((x, 0 if y is None else y), text, font=chosen, fill=color)

    def get_text_width(self, text: str, font: FontLike) -> int:
        """Return the advance width of ``text`` in ``font``, in pixels."""
        if hasattr(font, "getlength"):
            return int(round(font.getlength(text)))
        left, _top, right, _bottom = self.draw.textbbox((0, 0), text, font=font)
        return int(right - left)

    def get_font_height(self, font: FontLike) -> int:
        """Return the line height of ``font`` (ascent plus descent), in pixels."""
        if hasattr(font, "getmetrics"):
            ascent, descent = font.getmetrics()
            return int(ascent + descent)
        _left, top, _right, bottom = self.draw.textbbox((0, 0), "Ay", font=font)
        return int(bottom - top)

    # -- presenting ----------------------------------------------------------

    def update_display(self) -> None:
        """Present the canvas as the next frame (skipped when identical to the last)."""
        if threading.get_ident() == self._render_thread:
            self._push(self.image)
        else:
            with self._lock:
                self._pending = self.image.copy()

    def bind_render_thread(self) -> None:
        """Mark the calling thread as the one that pushes frames (the render loop)."""
        self._render_thread = threading.get_ident()

    def flush_pending(self) -> bool:
        """Push a frame presented from another thread; return True if one was pushed."""
        with self._lock:
            frame, self._pending = self._pending, None
        return frame is not None and self._push(frame)

    def blank(self) -> None:
        """Clear the canvas and present the blank frame."""
        self.clear()
        self._push(self.image)

    def forget_frame(self) -> None:
        """Forget what is on the panel, so the next frame is pushed even if unchanged."""
        self._last_digest = None

    def _push(self, frame: Image.Image) -> bool:
        digest = hashlib.blake2b(frame.tobytes(), digest_size=16)
        digest.update(f"{frame.mode}{frame.size}".encode())
        value = digest.digest()
        if value == self._last_digest:
            return False
        self._last_digest = value
        self.backend.show(frame)
        self.frames_pushed += 1
        return True

    # -- scrolling and deferred work ------------------------------------------

    def set_scrolling_state(self, is_scrolling: bool, frame_hold: int = 1) -> None:
        """Tell the render loop the plugin is scrolling (frames at ``refresh_hz``)."""
        self._scrolling = bool(is_scrolling)
        self.scroll_frame_hold = max(1, int(frame_hold or 1))

    def is_currently_scrolling(self) -> bool:
        """Return True while the current plugin says it is scrolling."""
        return self._scrolling

    def defer_update(self, fn: Callable[[], Any], priority: int = 0) -> None:
        """Queue ``fn`` to run on the render thread between frames (lower priority first)."""
        with self._lock:
            self._deferred_seq += 1
            self._deferred.append((priority, self._deferred_seq, fn))

    def process_deferred_updates(self) -> int:
        """Run queued deferred work; return how many callables ran."""
        with self._lock:
            queued, self._deferred = sorted(self._deferred, key=lambda item: item[:2]), []
        for _priority, _seq, fn in queued:
            try:
                fn()
            except Exception:  # isolation boundary: one deferred callable
                logger.exception("deferred display update failed")
        return len(queued)
