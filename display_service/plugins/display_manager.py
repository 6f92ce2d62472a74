"""The drawing surface plugins receive as ``display_manager``.

Plugins draw on ``image`` (through ``draw`` or by pasting), then call
``update_display()`` to present it. Called on the render thread, which is the thread
that calls ``display()``, the frame goes to the panel at once; called from any other
thread it is kept as pending and the render loop pushes it before its next frame. A
frame identical to the one on the panel is not pushed again.

Read the panel size from ``width`` and ``height`` (or ``matrix.width`` and
``matrix.height``, as plugins for the existing system do): they come from the backend
and are right on every backend, the headless fallback included. ``matrix`` is never
None: it is a ``PanelView`` with ``width``, ``height`` and ``brightness``. There is no
``draw_image``: paste images on ``image``.

Fonts come from the shared font manager (``font_manager``, also reachable as
``plugin_manager.font_manager``): ``regular_font`` is Press Start 2P at 8 px,
``small_font`` the 5x8 bitmap font, ``extra_small_font`` the 5x7 bitmap font at 7 px.

Scrolling: a plugin that scrolls calls ``set_scrolling_state(True, frame_hold=N)``
in ``display()``. The render loop then calls ``display()`` once every ``N`` panel
refreshes (``frame_interval``), so a scroll helper stepping ``s`` whole pixels per
call moves ``s * refresh_hz / N`` px/s. Omitting ``frame_hold`` means N = 1: the
scroll runs at ``s * refresh_hz``, too fast for any speed that asked for a hold.
``shared.plugin_api.common.scroll_config.configure()`` picks ``s`` and ``N``.
"""

from __future__ import annotations

import functools
import hashlib
import logging
import threading
from collections.abc import Callable
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from display_service.matrix.panel_view import PanelView
from display_service.matrix.protocol import MatrixBackend
from display_service.matrix.select import configured_brightness, hardware_section
from shared.fonts import FontManager
from shared.plugin_api.boundary import CONTAINED, current_plugin, plugin_call

logger = logging.getLogger(__name__)

Color = tuple[int, int, int]
FontLike = Any  # a Pillow font, or whatever a plugin passes in

DEFAULT_REFRESH_HZ = 100.0
REGULAR_FONT = ("press-start-2p", 8)
SMALL_FONT = ("5x8", 8)
EXTRA_SMALL_FONT = ("5x7", 7)


class DisplayManager:
    """Canvas, fonts and frame presentation for one panel."""

    def __init__(
        self,
        backend: MatrixBackend,
        *,
        refresh_hz: float = DEFAULT_REFRESH_HZ,
        font_manager: FontManager | None = None,
    ) -> None:
        self.backend = backend
        # The panel's width, height and brightness, the same object on every backend.
        self.matrix = PanelView(self)
        self.refresh_hz = _positive(refresh_hz) or DEFAULT_REFRESH_HZ
        # What refresh_hz goes back to when the config sets no limit (0 or no key).
        self.default_refresh_hz = self.refresh_hz
        self.font_manager = font_manager if font_manager is not None else FontManager()
        self.image = Image.new("RGB", (self.width, self.height))
        self.draw = self._new_draw()
        self.frames_pushed = 0
        self._last_digest: bytes | None = None
        self._pending: Image.Image | None = None
        self._lock = threading.Lock()
        self._render_thread: int | None = None
        self._scrolling = False
        self.scroll_frame_hold = 1
        # (priority, sequence, the plugin that queued it or None, the callable)
        self._deferred: list[tuple[int, int, str | None, Callable[[], Any]]] = []
        # Told of a deferred callable's failure: (plugin_id, "deferred", error).
        self.on_plugin_error: Callable[[str, str, BaseException], None] | None = None
        self._deferred_seq = 0
        self._fonts: dict[str, tuple[int, FontLike]] = {}

    @property
    def width(self) -> int:
        """Panel width in pixels (after pixel mappers), also without hardware."""
        return self.backend.width

    @property
    def height(self) -> int:
        """Panel height in pixels (after pixel mappers), also without hardware."""
        return self.backend.height

    # -- fonts ---------------------------------------------------------------

    @property
    def regular_font(self) -> FontLike:
        """Press Start 2P at 8 px: the default for ``draw_text``."""
        return self._standard_font("regular", REGULAR_FONT)

    @property
    def small_font(self) -> FontLike:
        """The 5x8 bitmap font (8 px): ``draw_text(..., small_font=True)``."""
        return self._standard_font("small", SMALL_FONT)

    @property
    def extra_small_font(self) -> FontLike:
        """The 5x7 bitmap font, loaded at size 7."""
        return self._standard_font("extra_small", EXTRA_SMALL_FONT)

    def _standard_font(self, role: str, spec: tuple[str, int]) -> FontLike:
        generation = self.font_manager.cache_generation
        held = self._fonts.get(role)
        if held is None or held[0] != generation:
            held = (generation, self.font_manager.get_font(*spec))
            self._fonts[role] = held
        return held[1]

    # -- config --------------------------------------------------------------

    def apply_config(self, config: dict[str, Any]) -> int | None:
        """Apply brightness and refresh rate from config; return the new brightness if changed.

        ``display.hardware.limit_refresh_rate_hz`` above 0 is the refresh rate; 0, no key
        or an unusable value means no limit, and the rate goes back to the default.
        """
        hz = _positive(hardware_section(config).get("limit_refresh_rate_hz"))
        self.refresh_hz = self.default_refresh_hz if hz is None else hz
        brightness = configured_brightness(config)
        if brightness == self.backend.brightness:
            return None
        self.backend.brightness = brightness
        return brightness

    # -- drawing -------------------------------------------------------------

    def clear(self) -> None:
        """Start a fresh black canvas; nothing is pushed until ``update_display()``."""
        self.image = Image.new("RGB", (self.width, self.height))
        self.draw = self._new_draw()

    def _new_draw(self) -> ImageDraw.ImageDraw:
        """Return a drawing context on ``image`` that already holds Pillow's default font.

        ``draw.text()`` without a font loads Pillow's default font, once per drawing
        context; plugins call ``clear()`` (a new context) every frame, so without this
        each frame would load and parse that font again.
        """
        draw = ImageDraw.Draw(self.image)
        draw.font = pillow_default_font()
        return draw

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
        """Draw ``text`` with its top-left corner at (x, y).

        Args:
            text: the text.
            x: left edge; None centres the text horizontally.
            y: top edge (the font's ascent line); None is the top row.
            color: RGB fill.
            small_font: use ``small_font`` instead of ``regular_font``.
            font: a font object; wins over ``small_font``.
            centered: centre horizontally, whatever ``x`` says, at row ``y``.
        """
        chosen = font
        if chosen is None:
            chosen = self.small_font if small_font else self.regular_font
        if x is None or centered:
            x = (self.width - self.get_text_width(text, chosen)) // 2
        self.draw.text((x, 0 if y is None else y), text, font=chosen, fill=color)

    def get_text_width(self, text: str, font: FontLike = None) -> int:
        """Return the advance width of ``text`` in ``font`` (default: regular), in pixels."""
        font = self.regular_font if font is None else font
        if hasattr(font, "getlength"):
            return int(round(font.getlength(text)))
        left, _top, right, _bottom = self.draw.textbbox((0, 0), text, font=font)
        return int(right - left)

    def get_font_height(self, font: FontLike = None) -> int:
        """Return the line height of ``font`` (ascent plus descent), in pixels."""
        font = self.regular_font if font is None else font
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
        """Say whether the plugin is scrolling, and for how many refreshes each frame shows.

        While scrolling, ``display()`` is called every ``frame_hold / refresh_hz``
        seconds. The hold is part of the scroll speed (see the module docstring):
        pass the one ``scroll_config.configure()`` chose.
        """
        self._scrolling = bool(is_scrolling)
        try:
            hold = int(frame_hold or 1)
        except (TypeError, ValueError):
            hold = 1
        self.scroll_frame_hold = max(1, hold)

    def is_currently_scrolling(self) -> bool:
        """Return True while the current plugin says it is scrolling."""
        return self._scrolling

    @property
    def frame_interval(self) -> float:
        """Seconds between ``display()`` calls for fast content: hold / refresh_hz."""
        hold = self.scroll_frame_hold if self._scrolling else 1
        return hold / self.refresh_hz

    def defer_update(self, fn: Callable[[], Any], priority: int = 0) -> None:
        """Queue ``fn`` to run on the render thread between frames (lower priority first).

        It runs as a call of the plugin that queued it: watched for hangs, its failures
        counted against that plugin.
        """
        owner = current_plugin()
        with self._lock:
            self._deferred_seq += 1
            self._deferred.append((priority, self._deferred_seq, owner, fn))

    def process_deferred_updates(self) -> int:
        """Run queued deferred work; return how many callables ran."""
        with self._lock:
            queued, self._deferred = sorted(self._deferred, key=lambda item: item[:2]), []
        for _priority, _seq, owner, fn in queued:
            try:
                if owner is None:
                    fn()
                else:
                    with plugin_call(owner, "deferred"):
                        fn()
            except CONTAINED as err:  # isolation boundary: one deferred callable
                if owner is not None and self.on_plugin_error is not None:
                    self.on_plugin_error(owner, "deferred", err)
                else:
                    logger.exception("deferred display update failed")
        return len(queued)


@functools.cache
def pillow_default_font() -> Any:
    """Return Pillow's default font (what ``ImageDraw.text`` uses without one), loaded once."""
    return ImageFont.load_default()


def _positive(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float) or value <= 0:
        return None
    return float(value)
