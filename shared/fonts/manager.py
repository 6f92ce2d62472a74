"""FontManager: the shared font manager plugins reach as ``plugin_manager.font_manager``.

It hands out Pillow font objects for the fonts shipped in ``assets/fonts`` (and any
directories or files added), cached per (file, size). Use it instead of opening
font files by path, so every plugin shares one copy of each font.

Rules:

- ``get_font(family, size)``: ``family`` is a catalog family (``5x7``, ``spleen-8x16``,
  ``press-start-2p``), a bitmap collection (``fixed``, ``spleen``: the tallest strike
  not taller than ``size``), or a path to a font file. A TTF loads at any size.
  A bitmap font loads only at its native size, so a bitmap family asked for at
  another size is given at its native size (logged once).
- An unknown family falls back to the default family at the requested size, logged
  once per name. When no font file can be loaded at all, Pillow's built-in font is used.
- ``cache_generation`` is an integer that goes up whenever fonts handed out earlier
  may be stale: after ``reload()``, ``add_font()`` or ``clear_cache()``. A plugin that
  keeps font objects compares it with the value it saw and fetches again when it moved.

Not thread-aware beyond the GIL: the caches are plain dicts, bounded, and a race
between two threads at worst loads the same font twice.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from PIL import ImageFont

from shared.fonts.catalog import (
    REPO_ROOT,
    SHIPPED_FONTS_DIR,
    FontInfo,
    build_index,
    collections,
    describe,
    native_size_of,
    normalize,
    pick_strike,
    scan,
)

logger = logging.getLogger(__name__)

PilFont = ImageFont.FreeTypeFont | ImageFont.ImageFont

DEFAULT_FAMILY = "press-start-2p"
DEFAULT_SIZE = 8
FONT_CACHE_MAX = 128

#: Size words community plugins pass instead of numbers.
SIZE_TOKENS: dict[str, int] = {"xs": 6, "sm": 8, "md": 10, "lg": 12, "xl": 14, "xxl": 16}


def builtin_font(size: int) -> PilFont:
    """Return Pillow's built-in font at ``size`` (a fixed bitmap without FreeType)."""
    try:
        return ImageFont.load_default(size=size)
    except (TypeError, OSError, ImportError):
        return ImageFont.load_default()


class FontManager:
    """Catalog of the available fonts and a cache of loaded font objects."""

    def __init__(
        self,
        font_dirs: Iterable[Path | str] | Mapping[str, Any] | None = None,
        *,
        default_family: str = DEFAULT_FAMILY,
        default_size: int = DEFAULT_SIZE,
    ) -> None:
        # A mapping is the existing system's ``FontManager(config)`` (community plugins
        # call ``FontManager({})``): it names no folders, so the shipped fonts serve.
        dirs = [SHIPPED_FONTS_DIR]
        if font_dirs is not None and not isinstance(font_dirs, Mapping):
            dirs = [Path(d) for d in font_dirs]
        self.font_dirs: list[Path] = dirs
        self.default_family = default_family
        self.default_size = default_size
        self.cache_generation = 0
        self._added: dict[str, FontInfo] = {}
        self._fonts: dict[str, FontInfo] = {}
        self._index: dict[str, str] = {}
        self._collections: dict[str, list[FontInfo]] = {}
        self._cache: dict[tuple[str, int], PilFont] = {}
        self._warned: set[str] = set()
        self._rescan()

    # -- catalog ---------------------------------------------------------------

    def reload(self) -> None:
        """Scan the font directories again, drop cached fonts, bump ``cache_generation``."""
        self._rescan()
        self._invalidate()

    def add_font(self, path: Path | str, family: str | None = None) -> bool:
        """Add one font file to the catalog (e.g. a plugin's own); return True if added."""
        resolved = self._resolve_path(str(path))
        info = describe(resolved, family.lower() if family else None) if resolved else None
        if info is None:
            logger.warning("font %s: not a usable font file", path)
            return False
        self._added[info.family] = info
        self._rescan()
        self._invalidate()
        return True

    def clear_cache(self) -> None:
        """Drop cached font objects and bump ``cache_generation``."""
        self._invalidate()

    def catalog(self) -> dict[str, FontInfo]:
        """Return the catalog: family name to ``FontInfo``."""
        return dict(self._fonts)

    def get_font_catalog(self) -> dict[str, str]:
        """Return family names and their file paths."""
        return {family: str(info.path) for family, info in self._fonts.items()}

    get_available_fonts = get_font_catalog

    def get_size_tokens(self) -> dict[str, int]:
        """Return the size words accepted in place of a pixel size."""
        return dict(SIZE_TOKENS)

    def lookup(self, family: str) -> FontInfo | None:
        """Return the catalog entry a family name or alias refers to, or None."""
        name = self._index.get(normalize(family))
        return self._fonts.get(name) if name else None

    # -- fonts -----------------------------------------------------------------

    def get_font(self, family: str | None = None, size: int | str | None = None) -> PilFont:
        """Return a font of ``family`` at ``size`` pixels (see the module rules)."""
        size_px = self._size(size)
        info = self._find(family or self.default_family, size_px)
        if info is None:
            info = self._find(self.default_family, size_px)
        if info is None:
            return self._cached(("<builtin>", size_px or self.default_size),
                                lambda: builtin_font(size_px or self.default_size))
        if info.kind == "bitmap":
            if size_px is not None and size_px != info.native_size:
                self._warn_once(f"size:{info.family}:{size_px}",
                                "font %s is a bitmap font: drawn at its native %d px, not %d",
                                info.family, info.native_size, size_px, level=logging.INFO)
            load_size = info.native_size or self.default_size
        else:
            load_size = size_px or self.default_size
        return self._cached((str(info.path), load_size), lambda: self._load(info, load_size))

    def resolve_font(
        self,
        element_key: str = "",
        family: str | None = None,
        size_px: int | str | None = None,
        plugin_id: str | None = None,
    ) -> PilFont:
        """Return ``get_font(family, size_px)``; the element key and plugin id are not used."""
        return self.get_font(family, size_px)

    def get_native_bdf_size(self, family_or_path: str | Path) -> int | None:
        """Return the native pixel size of a bitmap font (family or file), else None."""
        text = str(family_or_path)
        info = self.lookup(text)
        if info is not None:
            return info.native_size
        strikes = self._collections.get(normalize(text))
        if strikes:
            return strikes[0].native_size
        path = self._resolve_path(text)
        return native_size_of(path) if path else None

    # -- measuring -------------------------------------------------------------

    @staticmethod
    def measure_text(text: str, font: Any) -> tuple[int, int, int]:
        """Return (advance width, ink height, baseline from the top of the ink)."""
        left, top, right, bottom = font.getbbox(text)
        width = int(round(font.getlength(text))) if hasattr(font, "getlength") else right - left
        return int(width), int(bottom - top), int(-top)

    @staticmethod
    def get_font_height(font: Any) -> int:
        """Return the line height of ``font`` (ascent plus descent), in pixels."""
        if hasattr(font, "getmetrics"):
            ascent, descent = font.getmetrics()
            return int(ascent + descent)
        _left, top, _right, bottom = font.getbbox("Ay")
        return int(bottom - top)

    # -- internals -------------------------------------------------------------

    def _rescan(self) -> None:
        fonts = scan(self.font_dirs)
        fonts.update(self._added)
        self._fonts = fonts
        self._index = build_index(fonts)
        self._collections = collections(fonts)

    def _invalidate(self) -> None:
        self._cache.clear()
        self.cache_generation += 1

    def _size(self, size: int | str | None) -> int | None:
        if isinstance(size, str):
            token = SIZE_TOKENS.get(size.strip().lower())
            if token is not None:
                return token
            try:
                size = int(float(size))
            except ValueError:
                return None
        if isinstance(size, bool) or not isinstance(size, int | float) or size < 1:
            return None
        return int(size)

    def _find(self, family: str, size: int | None) -> FontInfo | None:
        info = self.lookup(family)
        if info is not None:
            return info
        strikes = self._collections.get(normalize(family))
        if strikes:
            return pick_strike(strikes, size)
        path = self._resolve_path(family)
        if path is not None:
            found = describe(path)
            if found is not None:
                return found
        if family != self.default_family:
            self._warn_once(f"family:{family}", "font family %r is not in the catalog; using %s",
                            family, self.default_family)
        return None

    @staticmethod
    def _resolve_path(text: str) -> Path | None:
        if not any(sep in text for sep in ("/", "\\")) and "." not in text:
            return None
        candidate = Path(text).expanduser()
        for path in (candidate, REPO_ROOT / candidate, SHIPPED_FONTS_DIR / candidate.name):
            if path.is_file():
                return path
        return None

    def _load(self, info: FontInfo, size: int) -> PilFont:
        try:
            return ImageFont.truetype(str(info.path), size)
        except OSError as err:
            self._warn_once(f"load:{info.path}:{size}", "font %s at %d px failed to load: %s",
                            info.path, size, err)
            return builtin_font(size)

    def _cached(self, key: tuple[str, int], load: Any) -> PilFont:
        font = self._cache.get(key)
        if font is None:
            font = load()
            if len(self._cache) >= FONT_CACHE_MAX:
                self._cache.pop(next(iter(self._cache), key), None)
            self._cache[key] = font
        return font

    def _warn_once(self, key: str, message: str, *args: Any, level: int = logging.WARNING) -> None:
        if key not in self._warned:
            self._warned.add(key)
            logger.log(level, message, *args)
