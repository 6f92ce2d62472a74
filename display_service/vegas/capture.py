"""Capture a plugin's regular ``display()`` output as an image.

``CaptureSurface`` offers the drawing surface plugins use (``width``, ``height``,
``image``, ``draw``, ``clear()``, ``update_display()``, ``draw_text``, the fonts,
``set_scrolling_state``, ``matrix`` with the capture's size) but presents nothing:
``update_display()`` only counts. ``capture_display`` puts a surface in place of the
plugin's ``display_manager`` for one ``display(force_clear=True)`` call, then puts the
original back. It must run on the render thread, the thread that owns ``display()``.
A helper object the plugin built around its real display manager still draws there.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from types import SimpleNamespace
from typing import Any

from PIL import Image, ImageDraw, ImageFont

Color = tuple[int, int, int]
SurfaceFactory = Callable[[int, int], Any]

REGULAR_SIZE, SMALL_SIZE, EXTRA_SMALL_SIZE = 10, 8, 7


@lru_cache(maxsize=4)
def default_font(size: int) -> Any:
    """Return Pillow's built-in font at ``size`` (the bitmap font without FreeType)."""
    try:
        return ImageFont.load_default(size=size)
    except (TypeError, OSError, ImportError):
        return ImageFont.load_default()


class CaptureSurface:
    """A display-manager surface that keeps what a plugin draws instead of showing it.

    Args:
        width, height: the capture size in pixels.
        fonts: an object whose ``regular_font``, ``small_font``, ``extra_small_font`` and
            ``refresh_hz`` are borrowed (the real display manager); Pillow's default
            font and 100 Hz when None.
    """

    def __init__(self, width: int, height: int, fonts: Any = None) -> None:
        self.width = int(width)
        self.height = int(height)
        self._fonts = fonts
        self.refresh_hz = float(getattr(fonts, "refresh_hz", 100.0) or 100.0)
        self.image = Image.new("RGB", (self.width, self.height))
        self.draw = ImageDraw.Draw(self.image)
        self.presented = 0
        self.scroll_frame_hold = 1
        self._scrolling = False

    @property
    def matrix(self) -> Any:
        """The capture's size and the real panel's brightness: plugins read
        ``matrix.width``/``matrix.height`` without a None check."""
        real = getattr(self._fonts, "matrix", None)
        return SimpleNamespace(width=self.width, height=self.height,
                               brightness=getattr(real, "brightness", 100))

    @property
    def regular_font(self) -> Any:
        return getattr(self._fonts, "regular_font", None) or default_font(REGULAR_SIZE)

    @property
    def small_font(self) -> Any:
        return getattr(self._fonts, "small_font", None) or default_font(SMALL_SIZE)

    @property
    def extra_small_font(self) -> Any:
        return getattr(self._fonts, "extra_small_font", None) or default_font(EXTRA_SMALL_SIZE)

    def clear(self) -> None:
        """Start a fresh black canvas."""
        self.image = Image.new("RGB", (self.width, self.height))
        self.draw = ImageDraw.Draw(self.image)

    def update_display(self) -> None:
        """Note that the plugin presented its canvas (nothing is pushed anywhere)."""
        self.presented += 1

    def draw_text(self, text: str, x: int | None = None, y: int | None = None,
                  color: Color = (255, 255, 255), small_font: bool = False,
                  font: Any = None, centered: bool = False) -> None:
        """Draw ``text`` the way the display manager does (``x=None`` centres it)."""
        chosen = font if font is not None else (
            self.small_font if small_font else self.regular_font)
        if x is None or centered:
            x = (self.width - self.get_text_width(text, chosen)) // 2
        self.draw.text((x, 0 if y is None else y), text, font=chosen, fill=color)

    def get_text_width(self, text: str, font: Any) -> int:
        """Return the advance width of ``text`` in ``font``."""
        if hasattr(font, "getlength"):
            return int(round(font.getlength(text)))
        left, _top, right, _bottom = self.draw.textbbox((0, 0), text, font=font)
        return int(right - left)

    def get_font_height(self, font: Any) -> int:
        """Return the line height of ``font``."""
        if hasattr(font, "getmetrics"):
            ascent, descent = font.getmetrics()
            return int(ascent + descent)
        _left, top, _right, bottom = self.draw.textbbox((0, 0), "Ay", font=font)
        return int(bottom - top)

    def set_scrolling_state(self, is_scrolling: bool, frame_hold: int = 1) -> None:
        """Accept the call plugins make; a capture is one still frame either way."""
        self._scrolling = bool(is_scrolling)
        self.scroll_frame_hold = max(1, int(frame_hold or 1))

    def is_currently_scrolling(self) -> bool:
        return self._scrolling

    def defer_update(self, fn: Callable[[], Any], priority: int = 0) -> None:
        """Drop deferred work: it belongs to the real display, not to a capture."""

    def process_deferred_updates(self) -> int:
        return 0


def capture_display(plugin: Any, width: int, height: int,
                    factory: SurfaceFactory | None = None) -> Image.Image | None:
    """Return what ``plugin.display(force_clear=True)`` draws at ``width`` x ``height``.

    None when ``display`` returns False (no content now). Exceptions propagate.
    """
    surface = (factory or CaptureSurface)(width, height)
    original = plugin.display_manager
    plugin.display_manager = surface
    try:
        result = plugin.display(force_clear=True)
    finally:
        plugin.display_manager = original
    if result is False:
        return None
    image = surface.image
    return image if image.mode == "RGB" else image.convert("RGB")
