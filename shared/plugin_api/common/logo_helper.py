"""LogoHelper: team and ticker logos loaded, sized and cached for plugins.

Community plugins import it as ``from src.common import LogoHelper`` and call
``load_logo(team_abbr, logo_path, max_width, max_height)``. A logo is a regular image
file opened with Pillow, converted to RGBA and shrunk (never enlarged) to fit the
given box, by default one and a half times the panel; a missing or unreadable logo
answers None with a log line. Loaded logos are kept in an LRU of ``cache_size``.

Paths stay where they were meant to: a path with a ``..`` part is refused, as is one
built from a team name holding a path (``base / f"{abbr}.png"`` with an abbreviation
from a feed: the path holds the name's folders, however the name spells them, or with
``logo_dir`` the file does not sit directly in that folder); with ``logo_dir`` given
every path must resolve inside that folder and a bare team name is reduced to one plain
file name there, so ``load_logo("../../etc/x")`` reads nothing outside it.

Downloads (``load_logo_with_download``) are ``shared.plugin_api.logos.downloader``'s: written only
inside the assets, cache and plugins directories, checked to be an image and stored as
an RGBA PNG, atomically; a call waits for one at most ``DOWNLOAD_BUDGET`` (2) seconds
(one still running then finishes in the background, for the next call), and a logo
that failed is not tried again for five minutes.
"""

from __future__ import annotations

import logging
import posixpath
import re
from collections import OrderedDict
from pathlib import Path

from PIL import Image

from shared.plugin_api.logos.placeholder import placeholder_image

MAX_LOGO_BYTES = 8 * 1024 * 1024  # a logo file larger than this is not opened
MAX_LOGO_PIXELS = 4096 * 4096  # nor one that would decode larger than this
PLACEHOLDER_FILL = (100, 100, 100, 200)
PLACEHOLDER_OUTLINE = (200, 200, 200, 255)
_UNSAFE = re.compile(r"[^A-Za-z0-9_&+.-]")

# Other file names a team's logo is often stored under.
_SPECIAL_VARIATIONS: dict[str, list[str]] = {
    "TA&M": ["TAMU", "TEXASAM"],
}


def safe_logo_name(team_abbr: str) -> str | None:
    """Return ``team_abbr`` as one plain file-name stem, or None when nothing is left."""
    name = _UNSAFE.sub("_", str(team_abbr).strip())
    return None if name in ("", ".", "..") else name


def _carries_path(name: str) -> bool:
    """Return True when a team name could steer a path built from it (``/``, ``..``)."""
    return any(part in name for part in ("/", "\\", "..", "\0"))


def _built_from(name: str, path: Path, folder: Path | None) -> bool:
    """Return True when ``path`` looks built from ``name``, a team name that carries a path.

    With the plugin's ``folder`` the file must sit directly in it. Without one, the path
    must not hold the name's folders as ``Path`` writes them (``x//y``, ``./x/y`` and
    ``/x/y`` all become ``x/y``).
    """
    if folder is not None:
        return path.resolve().parent != folder.resolve()
    text = str(path)
    forms = {name, posixpath.normpath(name.lstrip("/"))}
    return any(form not in ("", ".") and form in text for form in forms)


class LogoHelper:
    """Load, shrink and cache logos.

    Args:
        display_width, display_height: the panel size; the default box a logo is
            shrunk into is one and a half times it.
        cache_size: how many sized logos stay in memory (least recently used go first).
        logger: where messages go (the plugin's logger); default this module's.
        logo_dir: the folder logos live in (optional). When given, relative paths are
            taken inside it, every path must stay inside it, and ``load_logo(name)``
            without a path reads ``<logo_dir>/<name>.png``.
    """

    def __init__(
        self,
        display_width: int,
        display_height: int,
        cache_size: int = 100,
        logger: logging.Logger | None = None,
        *,
        logo_dir: str | Path | None = None,
    ) -> None:
        self.display_width = int(display_width)
        self.display_height = int(display_height)
        self.cache_size = max(1, int(cache_size))
        self.logger = logger or logging.getLogger(__name__)
        self.logo_dir = Path(logo_dir) if logo_dir is not None else None
        self._cache: OrderedDict[tuple[str, str, int, int], Image.Image] = OrderedDict()

    def load_logo(
        self,
        team_abbr: str,
        logo_path: str | Path | None = None,
        max_width: int | None = None,
        max_height: int | None = None,
    ) -> Image.Image | None:
        """Return the logo at ``logo_path`` as RGBA, shrunk into max_width x max_height.

        ``team_abbr`` names the logo in messages (and, with ``logo_dir`` and no path,
        picks the file). Answers None when the file is missing, unreadable, too large,
        or outside the logo folder. The same image object is returned while cached.
        """
        path = self._logo_path(team_abbr, logo_path)
        if path is None:
            return None
        box = self._box(max_width, max_height)
        key = (str(team_abbr), str(path), *box)
        cached = self._cache.get(key)
        if cached is not None:
            self._cache.move_to_end(key)
            return cached
        logo = self._open(team_abbr, path)
        if logo is None:
            return None
        if logo.width > box[0] or logo.height > box[1]:
            logo.thumbnail(box, Image.Resampling.LANCZOS)
        self._cache[key] = logo
        while len(self._cache) > self.cache_size:
            self._cache.popitem(last=False)
        return logo

    def load_logo_with_download(
        self,
        team_abbr: str,
        logo_path: str | Path | None = None,
        logo_url: str | None = None,
        max_width: int | None = None,
        max_height: int | None = None,
    ) -> Image.Image | None:
        """Return the logo, downloading it to ``logo_path`` first when it is missing.

        When there is no file and the download fails, is not done within
        ``logo_downloader.DOWNLOAD_BUDGET`` seconds or may not be written there (or
        there is no URL), answers a placeholder: a grey box of the target size with the
        team's abbreviation. A path outside the logo folder answers None and downloads nothing.
        """
        path = self._logo_path(team_abbr, logo_path)
        if path is None:
            return None
        if not path.is_file() and logo_url:
            from shared.plugin_api.logos.downloader import (
                download_logo_within_budget,  # imports requests
            )

            if download_logo_within_budget(logo_url, path, str(team_abbr)):
                self._forget(path)
        if path.is_file():
            logo = self.load_logo(team_abbr, path, max_width, max_height)
            if logo is not None:
                return logo
        return self._placeholder(team_abbr, *self._box(max_width, max_height))

    def get_logo_variations(self, team_abbr: str) -> list[str]:
        """Return the file-name stems a team's logo may be stored under, the given one first."""
        variations = [team_abbr]
        if "&" in team_abbr:
            variations.append(team_abbr.replace("&", "AND"))
        if "AND" in team_abbr:
            variations.append(team_abbr.replace("AND", "&"))
        variations.extend(_SPECIAL_VARIATIONS.get(team_abbr, []))
        return list(dict.fromkeys(variations))

    def normalize_abbreviation(self, team_abbr: str) -> str:
        """Return ``team_abbr`` upper-cased, without spaces, ``&`` spelled ``AND``."""
        return team_abbr.strip().upper().replace("&", "AND").replace(" ", "")

    def clear_cache(self) -> None:
        """Forget every cached logo."""
        self._cache.clear()

    def get_cache_stats(self) -> dict[str, float]:
        """Return ``cached_logos``, ``cache_size_limit`` and ``cache_usage_percent``."""
        return {
            "cached_logos": len(self._cache),
            "cache_size_limit": self.cache_size,
            "cache_usage_percent": len(self._cache) / self.cache_size * 100,
        }

    # -- internals -------------------------------------------------------------

    def _box(self, max_width: int | None, max_height: int | None) -> tuple[int, int]:
        width = int(self.display_width * 1.5) if max_width is None else int(max_width)
        height = int(self.display_height * 1.5) if max_height is None else int(max_height)
        return (max(1, width), max(1, height))

    def _logo_path(self, team_abbr: str, logo_path: str | Path | None) -> Path | None:
        """Return the file to read, or None (logged) when it would leave the logo folder."""
        if logo_path is None:
            name = safe_logo_name(team_abbr)
            if self.logo_dir is None or name is None:
                self.logger.warning("logo %r: no logo path given and no logo folder to "
                                    "look in", team_abbr)
                return None
            return self.logo_dir / f"{name}.png"
        path = Path(logo_path)
        if ".." in path.parts:
            self.logger.warning("logo %r: refused path %s: it climbs out with '..'",
                                team_abbr, path)
            return None
        if self.logo_dir is not None and not path.is_absolute():
            path = self.logo_dir / path
        name = str(team_abbr)
        if _carries_path(name) and _built_from(name, path, self.logo_dir):
            self.logger.warning("logo %r: refused: the team name carries a path", name)
            return None
        if self.logo_dir is None:
            return path
        if not path.resolve().is_relative_to(self.logo_dir.resolve()):
            self.logger.warning("logo %r: refused path %s: outside the logo folder %s",
                                team_abbr, path, self.logo_dir)
            return None
        return path

    def _open(self, team_abbr: str, path: Path) -> Image.Image | None:
        """Read one logo file into an RGBA image; None (logged) when it cannot be used."""
        try:
            if not path.is_file():
                self.logger.warning("logo %r not found at %s", team_abbr, path)
                return None
            if path.stat().st_size > MAX_LOGO_BYTES:
                self.logger.warning("logo %r at %s: larger than %d bytes, not read",
                                    team_abbr, path, MAX_LOGO_BYTES)
                return None
            with Image.open(path) as image:
                if image.width * image.height > MAX_LOGO_PIXELS:
                    self.logger.warning("logo %r at %s: %dx%d is too many pixels", team_abbr,
                                        path, image.width, image.height)
                    return None
                return image.convert("RGBA")
        except Exception as err:  # Pillow raises many kinds for a damaged file
            self.logger.warning("logo %r at %s could not be read: %s: %s", team_abbr, path,
                                type(err).__name__, err)
            return None

    def _forget(self, path: Path) -> None:
        for key in [key for key in self._cache if key[1] == str(path)]:
            del self._cache[key]

    def _placeholder(self, team_abbr: str, width: int, height: int) -> Image.Image:
        """Return a grey outlined box of the given size with the abbreviation in it."""
        return placeholder_image(str(team_abbr)[:6], (width, height), PLACEHOLDER_FILL,
                                 PLACEHOLDER_OUTLINE)
