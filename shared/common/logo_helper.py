"""LogoHelper: team and ticker logos loaded, sized and cached for plugins.

Community plugins import it as ``from src.common import LogoHelper`` and call
``load_logo(team_abbr, logo_path, max_width, max_height)``. A logo is a regular image
file opened with Pillow, converted to RGBA and shrunk (never enlarged) to fit the
given box, by default one and a half times the panel; a missing or unreadable logo
answers None with a log line. Loaded logos are kept in an LRU of ``cache_size``.

Paths stay where they were meant to: a path with a ``..`` part is refused, as is one
built from a team name holding ``/`` or ``..`` (``base / f"{abbr}.png"`` with an
abbreviation from a feed); with ``logo_dir`` given every path must resolve inside
that folder and a bare team name is reduced to one plain file name there, so
``load_logo("../../etc/x")`` reads nothing outside it. Downloads
(``load_logo_with_download``) go only to such a path, are size-limited, checked to be
images, written atomically, and a failing URL is not retried for five minutes.
"""

from __future__ import annotations

import io
import logging
import re
import time
from collections import OrderedDict
from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from shared.errors import AtomicWriteError
from shared.jsonfile import atomic_write_bytes

MAX_LOGO_BYTES = 8 * 1024 * 1024  # a logo file larger than this is not opened
MAX_LOGO_PIXELS = 4096 * 4096  # nor one that would decode larger than this
DOWNLOAD_TIMEOUT = 10.0
DOWNLOAD_RETRY_AFTER = 300.0  # seconds a failed URL is left alone
FAILED_URLS_MAX = 256
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
        self._failed_urls: OrderedDict[str, float] = OrderedDict()
        self._session: Any = None

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

        When there is no file and the download fails (or there is no URL), answers a
        placeholder: a grey box of the target size with the team's abbreviation.
        A path outside the logo folder answers None and downloads nothing.
        """
        path = self._logo_path(team_abbr, logo_path)
        if path is None:
            return None
        if not path.is_file() and logo_url and self._download(team_abbr, logo_url, path):
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
        name = str(team_abbr)
        if _carries_path(name) and name in str(logo_path):
            self.logger.warning("logo %r: refused: the team name carries a path", name)
            return None
        path = Path(logo_path)
        if ".." in path.parts:
            self.logger.warning("logo %r: refused path %s: it climbs out with '..'",
                                team_abbr, path)
            return None
        if self.logo_dir is None:
            return path
        if not path.is_absolute():
            path = self.logo_dir / path
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
        except (OSError, ValueError, Image.DecompressionBombError) as err:
            self.logger.warning("logo %r at %s could not be read: %s", team_abbr, path, err)
            return None

    def _forget(self, path: Path) -> None:
        for key in [key for key in self._cache if key[1] == str(path)]:
            del self._cache[key]

    def _download(self, team_abbr: str, url: str, path: Path) -> bool:
        """Fetch ``url`` into ``path`` when it is an image; False (logged) otherwise."""
        failed_at = self._failed_urls.get(url)
        if failed_at is not None and time.monotonic() - failed_at < DOWNLOAD_RETRY_AFTER:
            return False
        data = self._fetch(team_abbr, url)
        if data is not None and self._is_image(team_abbr, url, data):
            try:
                atomic_write_bytes(path, data)
                self._failed_urls.pop(url, None)
                self.logger.info("logo %r downloaded to %s", team_abbr, path)
                return True
            except AtomicWriteError as err:
                self.logger.warning("logo %r: %s", team_abbr, err)
        self._failed_urls[url] = time.monotonic()
        self._failed_urls.move_to_end(url)
        while len(self._failed_urls) > FAILED_URLS_MAX:
            self._failed_urls.popitem(last=False)
        return False

    def _fetch(self, team_abbr: str, url: str) -> bytes | None:
        from shared.http_fetch import FetchError, get_bytes  # imports requests: on first use

        if self._session is None:
            import requests

            self._session = requests.Session()
        try:
            return get_bytes(self._session, url, timeout=DOWNLOAD_TIMEOUT,
                             max_bytes=MAX_LOGO_BYTES, headers={"Accept": "image/*"})
        except FetchError as err:
            self.logger.warning("logo %r: download failed: %s", team_abbr,
                                re.sub(r"\?\S*", "?...", str(err)))
            return None

    def _is_image(self, team_abbr: str, url: str, data: bytes) -> bool:
        try:
            with Image.open(io.BytesIO(data)) as image:
                image.verify()
            return True
        except (OSError, ValueError, Image.DecompressionBombError) as err:
            self.logger.warning("logo %r: %s did not send an image: %s", team_abbr,
                                url.split("?", 1)[0], err)
            return False

    def _placeholder(self, team_abbr: str, width: int, height: int) -> Image.Image:
        """Return a grey outlined box of the given size with the abbreviation in it."""
        image = Image.new("RGBA", (width, height), (0, 0, 0, 0))
        draw = ImageDraw.Draw(image)
        draw.rectangle((0, 0, width - 1, height - 1), fill=(100, 100, 100, 200),
                       outline=(200, 200, 200, 255))
        font: Any = ImageFont.load_default()
        text = str(team_abbr)[:6]
        left, top, right, bottom = draw.textbbox((0, 0), text, font=font)
        draw.text(((width - (right - left)) // 2 - left, (height - (bottom - top)) // 2 - top),
                  text, font=font, fill=(255, 255, 255, 255))
        return image
