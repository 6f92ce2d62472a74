"""The drawing surface a previewed plugin gets: a headless display manager of one size.

It offers what plugins use from the device's display manager (``width``, ``height``,
``image``, ``draw``, ``matrix``, ``clear``, ``update_display``, ``draw_text``, the
three standard fonts, scrolling state and deferred updates), draws into a Pillow
image, and keeps a copy of the image at each ``update_display()`` as one frame.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PIL import Image, ImageDraw, ImageFont

FontLike = Any


class PreviewSurface:
    """A display manager without a panel: frames are kept, never shown."""

    def __init__(self, width: int, height: int) -> None:
        self._width = width
        self._height = height
        self.matrix = None
        self.image = Image.new("RGB", (width, height))
        self.draw = ImageDraw.Draw(self.image)
        self.frames: list[Image.Image] = []
        self.font_manager = None
        self._scrolling = False

    @property
    def width(self) -> int:
        return self._width

    @property
    def height(self) -> int:
        return self._height

    @property
    def regular_font(self) -> FontLike:
        return ImageFont.load_default(size=8)

    @property
    def small_font(self) -> FontLike:
        return ImageFont.load_default(size=7)

    @property
    def extra_small_font(self) -> FontLike:
        return ImageFont.load_default(size=7)

    def clear(self) -> None:
        self.image = Image.new("RGB", (self._width, self._height))
        self.draw = ImageDraw.Draw(self.image)

    def update_display(self) -> None:
        self.frames.append(self.image.copy())

    def draw_text(self, text: str, x: int | None = None, y: int | None = None,
                  color: tuple[int, int, int] = (255, 255, 255), small_font: bool = False,
                  font: FontLike = None, centered: bool = False) -> None:
        chosen = font or (self.small_font if small_font else self.regular_font)
        left = 0 if x is None else x
        if x is None or centered:
            left = (self._width - self.get_text_width(text, chosen)) // 2
        self.draw.text((left, 0 if y is None else y), text, font=chosen, fill=color)

    def get_text_width(self, text: str, font: FontLike = None) -> int:
        box = self.draw.textbbox((0, 0), text, font=font or self.regular_font)
        return int(box[2] - box[0])

    def get_font_height(self, font: FontLike = None) -> int:
        box = self.draw.textbbox((0, 0), "Ag", font=font or self.regular_font)
        return int(box[3] - box[1])

    def set_scrolling_state(self, is_scrolling: bool, frame_hold: int = 1) -> None:
        self._scrolling = is_scrolling

    def is_currently_scrolling(self) -> bool:
        return self._scrolling

    def defer_update(self, fn: Callable[[], Any], priority: int = 0) -> None:
        fn()

    def process_deferred_updates(self) -> int:
        return 0
