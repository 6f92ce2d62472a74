"""TextHelper: fonts by file name, outlined text and text measurements for plugins.

Community plugins import it as ``from src.common import TextHelper``. Fonts come from
ledpanel's font manager, never from a path relative to the working directory: a
font file name (``PressStart2P-Regular.ttf``, ``4x6-font.ttf``) is looked up in the
plugin's ``font_dir`` when one is given, then in the font catalog by its name or
stem (aliases included). Without a ``font_dir`` the helper reports ``assets/fonts``
(the shipped fonts, as the existing system does); that relative name always means the
shipped fonts, found through the catalog. A font that cannot be found or loaded is replaced by
Pillow's built-in font, with one warning per name: never an exception.
"""

from __future__ import annotations

import copy
import logging
from pathlib import Path, PurePath
from typing import Any

from PIL import Image, ImageDraw

from shared.fonts.catalog import describe
from shared.fonts.manager import PilFont, builtin_font
from shared.plugin_api.common.default_fonts import default_font_manager

Color = tuple[int, ...]
MAX_OUTLINE_WIDTH = 4  # (2w+1)^2 - 1 extra draws per call: keep it bounded
FONT_CACHE_MAX = 64

# The font roles sports plugins ask ``load_fonts()`` for, with the sizes they expect.
DEFAULT_FONT_CONFIG: dict[str, dict[str, Any]] = {
    "score": {"file": "PressStart2P-Regular.ttf", "size": 10},
    "time": {"file": "PressStart2P-Regular.ttf", "size": 8},
    "team": {"file": "PressStart2P-Regular.ttf", "size": 8},
    "status": {"file": "4x6-font.ttf", "size": 6},
    "detail": {"file": "4x6-font.ttf", "size": 6},
    "rank": {"file": "PressStart2P-Regular.ttf", "size": 10},
}

#: What ``font_dir`` reports when the plugin names none: the shipped fonts' folder.
DEFAULT_FONT_DIR = Path("assets/fonts")

_MEASURE = ImageDraw.Draw(Image.new("1", (1, 1)))


class TextHelper:
    """Font loading, outlined text, measuring and wrapping.

    Args:
        font_dir: a folder of the plugin's own font files, searched first by name;
            without one, ``font_dir`` is ``assets/fonts``: the shipped fonts, which the
            catalog serves.
        logger: where warnings go (the plugin's logger); default this module's.
        font_manager: the FontManager to use (``plugin_manager.font_manager``); default
            the shared one over ``assets/fonts``.
    """

    def __init__(
        self,
        font_dir: str | Path | None = None,
        logger: logging.Logger | None = None,
        *,
        font_manager: Any = None,
    ) -> None:
        self.logger = logger or logging.getLogger(__name__)
        self.font_dir = Path(font_dir) if font_dir is not None else DEFAULT_FONT_DIR
        self.font_manager = font_manager if font_manager is not None else default_font_manager()
        self._font_cache: dict[tuple[str, int], PilFont] = {}
        self._warned: set[str] = set()

    def load_fonts(
        self, font_config: dict[str, dict[str, Any]] | None = None
    ) -> dict[str, PilFont]:
        """Return a font per role of ``font_config`` (``{"score": {"file": ..., "size": 10}}``).

        Without a config, the roles ``score``, ``time``, ``team``, ``status``, ``detail``
        and ``rank``. An entry that is not a mapping with ``file`` and ``size`` gets
        Pillow's built-in font and a warning.
        """
        config = self._get_default_font_config() if font_config is None else font_config
        fonts: dict[str, PilFont] = {}
        for role, entry in config.items():
            file = entry.get("file") if isinstance(entry, dict) else None
            size = entry.get("size") if isinstance(entry, dict) else None
            if not isinstance(file, str) or isinstance(size, bool) or not isinstance(size, int):
                self._warn(f"entry:{role}", "font %r: needs a file name and a whole size; "
                           "using Pillow's default font", role)
                fonts[role] = builtin_font(8)
                continue
            fonts[role] = self.load_font(file, size)
        return fonts

    def _get_default_font_config(self) -> dict[str, dict[str, Any]]:
        """Return (a copy of) the roles ``load_fonts()`` gives without a config."""
        return copy.deepcopy(DEFAULT_FONT_CONFIG)

    def load_font(self, file: str, size: int) -> PilFont:
        """Return the font file ``file`` (a name, or a catalog family) at ``size`` pixels."""
        size = max(1, min(int(size), 256))
        key = (file, size)
        font = self._font_cache.get(key)
        if font is None:
            font = self._resolve(file, size)
            if len(self._font_cache) >= FONT_CACHE_MAX:
                self._font_cache.pop(next(iter(self._font_cache)))
            self._font_cache[key] = font
        return font

    def draw_text_with_outline(
        self,
        draw: ImageDraw.ImageDraw,
        text: str,
        position: tuple[int, int],
        font: Any,
        fill: Color = (255, 255, 255),
        outline_color: Color = (0, 0, 0),
        outline_width: int = 1,
    ) -> None:
        """Draw ``text`` at ``position`` with an ``outline_width``-pixel outline (at most 4)."""
        x, y = position
        reach = max(0, min(int(outline_width), MAX_OUTLINE_WIDTH))
        for dx in range(-reach, reach + 1):
            for dy in range(-reach, reach + 1):
                if dx or dy:
                    draw.text((x + dx, y + dy), text, font=font, fill=outline_color)
        draw.text((x, y), text, font=font, fill=fill)

    def get_text_width(self, text: str, font: Any) -> int:
        """Return the advance width of ``text`` in ``font``, in pixels."""
        try:
            return int(_MEASURE.textlength(text, font=font))
        except ValueError:  # several lines: Pillow measures no length for those
            left, _top, right, _bottom = _MEASURE.textbbox((0, 0), text, font=font)
            return int(right - left)

    def get_text_height(self, text: str, font: Any) -> int:
        """Return the ink height of ``text`` in ``font``, in pixels."""
        _left, top, _right, bottom = _MEASURE.textbbox((0, 0), text, font=font)
        return int(bottom - top)

    def get_text_dimensions(self, text: str, font: Any) -> tuple[int, int]:
        """Return (width, height) of ``text`` in ``font``."""
        return (self.get_text_width(text, font), self.get_text_height(text, font))

    def center_text(
        self, text: str, font: Any, container_width: int, container_height: int
    ) -> tuple[int, int]:
        """Return the (x, y) that centres ``text`` in a container of the given size."""
        width, height = self.get_text_dimensions(text, font)
        return ((container_width - width) // 2, (container_height - height) // 2)

    def wrap_text(
        self, text: str, font: Any, max_width: int, max_lines: int | None = None
    ) -> list[str]:
        """Return ``text`` broken into lines no wider than ``max_width`` (a longer word
        gets a line of its own), at most ``max_lines`` of them."""
        lines: list[str] = []
        current: list[str] = []
        for word in text.split():
            if max_lines is not None and len(lines) >= max_lines:
                break
            candidate = " ".join([*current, word])
            if not current or self.get_text_width(candidate, font) <= max_width:
                current.append(word)
            else:
                lines.append(" ".join(current))
                current = [word]
        if current:
            lines.append(" ".join(current))
        return lines if max_lines is None else lines[: max(0, max_lines)]

    def draw_multiline_text(
        self,
        draw: ImageDraw.ImageDraw,
        text: str,
        position: tuple[int, int],
        font: Any,
        line_spacing: int = 2,
        **kwargs: Any,
    ) -> None:
        """Draw each line of ``text`` outlined (``kwargs`` as ``draw_text_with_outline``),
        ``line_spacing`` pixels apart; a blank line takes the height of a capital."""
        x, y = position
        for line in text.split("\n"):
            if line.strip():
                self.draw_text_with_outline(draw, line, (x, y), font, **kwargs)
            y += self.get_text_height(line if line.strip() else "A", font) + line_spacing

    def create_text_image(
        self,
        text: str,
        font: Any,
        background_color: Color = (0, 0, 0),
        text_color: Color = (255, 255, 255),
        padding: int = 5,
    ) -> Image.Image:
        """Return an RGB image holding just ``text``, outlined, ``padding`` pixels around."""
        width, height = self.get_text_dimensions(text, font)
        pad = max(0, padding)
        image = Image.new("RGB", (max(1, width + 2 * pad), max(1, height + 2 * pad)),
                          background_color)
        self.draw_text_with_outline(ImageDraw.Draw(image), text, (pad, pad), font,
                                    fill=text_color)
        return image

    def clear_font_cache(self) -> None:
        """Forget the fonts loaded so far (the font manager keeps its own cache)."""
        self._font_cache.clear()

    def get_font_cache_stats(self) -> dict[str, int]:
        """Return how many fonts this helper holds: ``{"cached_fonts": n}``."""
        return {"cached_fonts": len(self._font_cache)}

    # -- internals -------------------------------------------------------------

    def _resolve(self, file: str, size: int) -> PilFont:
        """Find ``file`` in the plugin's font_dir, then the catalog; else Pillow's font."""
        name = PurePath(file.replace("\\", "/")).name
        own = self._own_font(name) if name and name == file else None
        try:
            if own is not None:
                return self.font_manager.get_font(str(own), size)
            for candidate in (name, PurePath(name).stem):
                info = self.font_manager.lookup(candidate) if candidate else None
                if info is not None:
                    return self.font_manager.get_font(info.family, size)
        except (OSError, ValueError) as err:
            self._warn(f"load:{file}", "font %s at %d px could not be loaded (%s); "
                       "using Pillow's default font", file, size, err)
            return builtin_font(size)
        self._warn(f"missing:{file}", "font %s not found in %s or the font catalog; "
                   "using Pillow's default font", file, self.font_dir)
        return builtin_font(size)

    def _own_font(self, name: str) -> Path | None:
        """Return the plugin's font file ``name`` when it is a usable font in font_dir."""
        # ``assets/fonts`` (relative, as plugins for the existing system write it) means
        # the shipped fonts: the catalog has them, the working directory is never read.
        if self.font_dir == DEFAULT_FONT_DIR or name in ("", ".", ".."):
            return None
        path = self.font_dir / name
        return path if path.is_file() and describe(path) is not None else None

    def _warn(self, key: str, message: str, *args: Any) -> None:
        if key not in self._warned:
            self._warned.add(key)
            self.logger.warning(message, *args)
