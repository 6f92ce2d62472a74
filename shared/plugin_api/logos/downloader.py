"""Team logos for sports boards: the ``src.logo_downloader`` names of the existing plugin API.

Community sports plugins look a logo up with ``LogoDownloader.get_logo_filename_variations``
and, when none is on disk, call ``download_missing_logo(league, team_id, abbreviation,
logo_path, logo_url)``, then open ``logo_path``. This module keeps those names and
behaviours, and holds three promises of its own:

- It writes only a checked logo file: no ``..`` part, no NUL, an image suffix, inside
  the assets, cache or plugins directory (a team abbreviation comes from a remote API
  and ends up in the path plugins build).
- What it writes is a real image: the body (at most ``MAX_LOGO_BYTES``) must open with
  Pillow within ``MAX_LOGO_PIXELS`` and is stored as an RGBA PNG, atomically, so a reader
  never sees half a file and a failure keeps the previous one.
- It never raises for a network or image problem (False and one log line instead), and it
  is quick: plugins call it from ``display()`` on the render thread, so the download runs
  on the small pool of ``download_pool`` and a call waits for it at most
  ``DOWNLOAD_BUDGET`` seconds, whatever the name lookup, connecting or the body take. A
  download not done by then is answered as failed now and finishes in the background,
  so a later call finds the file. Each GET has ``MAX_TIMEOUT`` seconds, there are no
  retries, and a logo that failed is not tried again for ``FAILURE_BACKOFF`` seconds
  (sooner when its download finished well in the background).

A failed download leaves a grey placeholder with the abbreviation (``logo_placeholder``:
stamped in the PNG, so it is retried after ``PLACEHOLDER_RETRY_SECONDS``) unless
``create_placeholder=False``.
"""

from __future__ import annotations

import io
import json
import logging
import os
import re
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import requests
from PIL import Image
from PIL.PngImagePlugin import PngInfo

from shared.errors import AtomicWriteError
from shared.files.jsonfile import atomic_write_bytes
from shared.http_fetch import FetchError, get_bytes
from shared.paths import resolve_paths
from shared.plugin_api.logos import download_pool
from shared.plugin_api.logos.placeholder import PLACEHOLDER_MARKER, placeholder_image, png_bytes
from shared.plugin_api.logos.placeholder import (
    is_placeholder_logo as is_placeholder_logo,  # plugins' name
)
from shared.plugin_api.logos.placeholder import should_attempt_download as should_attempt_download

logger = logging.getLogger(__name__)

MAX_LOGO_BYTES = 2 * 1024 * 1024
MAX_LOGO_PIXELS = 2048 * 2048
MAX_TIMEOUT = 3.0  # seconds per GET, on a download thread
DOWNLOAD_BUDGET = 2.0  # seconds a call waits for its download: two teams stay well under 8 s
FAILURE_BACKOFF = 300.0
IMAGE_SUFFIXES = frozenset({".png", ".jpg", ".jpeg", ".gif", ".bmp", ".webp"})
ESPN_SPORTS_API = "https://site.api.espn.com/apis/site/v2/sports"

# Characters a file name must not carry, and what replaces them (order matters: "&" first).
_REPLACEMENTS = (("&", "AND"), *((c, "_") for c in '/\\:*?"<>|'))
# Names Windows refuses as files; the existing system renames the one teams use.
_RESERVED = {"CON": "CONN"}
_ESPN_PATHS = {
    "nfl": "football/nfl", "nba": "basketball/nba", "wnba": "basketball/wnba",
    "mlb": "baseball/mlb", "nhl": "hockey/nhl",
    "ncaa_fb": "football/college-football", "ncaa_fb_all": "football/college-football",
    "fcs": "football/college-football",
    "ncaam_basketball": "basketball/mens-college-basketball",
    "ncaam": "basketball/mens-college-basketball",
    "ncaaw_basketball": "basketball/womens-college-basketball",
    "ncaaw": "basketball/womens-college-basketball",
    "ncaa_baseball": "baseball/college-baseball",
    "ncaam_hockey": "hockey/mens-college-hockey", "ncaaw_hockey": "hockey/womens-college-hockey",
    "ncaam_lacrosse": "lacrosse/mens-college-lacrosse",
    "ncaaw_lacrosse": "lacrosse/womens-college-lacrosse",
}
_NCAA_LEAGUES = frozenset(k for k in _ESPN_PATHS if k.startswith("ncaa") or k == "fcs")
_SAFE_LEAGUE = re.compile(r"[a-z0-9_-]+")
_SAFE_CODE = re.compile(r"[a-z0-9_-]+(\.[a-z0-9_-]+)*")  # "eng.1", "uefa.champions"
_SAFE_TEAM_ID = re.compile(r"[A-Za-z0-9_-]{1,40}")

_failures: dict[str, tuple[float, bool]] = {}  # logo path -> (when it failed, answer)
_failures_lock = threading.Lock()
_MAX_FAILURES = 512
# Held for every write of a logo file: a placeholder written because a download ran past
# the budget must not land over the real logo that download wrote meanwhile.
_write_lock = threading.RLock()


class LogoDownloader:
    """Find, download and stand in for team logos (the existing API's class)."""

    API_BASE = ESPN_SPORTS_API

    def __init__(self, request_timeout: float = 30, retry_attempts: int = 3) -> None:
        # retry_attempts is accepted for compatibility: a retry would hold the render
        # thread, and a failed logo is retried later instead.
        self.request_timeout = max(0.5, min(float(request_timeout), MAX_TIMEOUT))
        self.retry_attempts = retry_attempts
        self.session = requests.Session()
        self.headers = {"Accept": "image/png,image/*;q=0.8,application/json;q=0.5"}

    @staticmethod
    def normalize_abbreviation(abbreviation: str) -> str:
        """Return the file-name form of a team abbreviation (``TA&M`` -> ``TAANDM``)."""
        normalized = abbreviation.upper()
        for char, replacement in _REPLACEMENTS:
            normalized = normalized.replace(char, replacement)
        return _RESERVED.get(normalized, normalized)

    @staticmethod
    def get_logo_filename_variations(abbreviation: str) -> list[str]:
        """Return the file names a team's logo may have: as given upper-cased, then normalized."""
        return [f"{abbreviation.upper()}.png",
                f"{LogoDownloader.normalize_abbreviation(abbreviation)}.png"]

    def get_logo_directory(self, league: str) -> str:
        """Return the directory a league's logos live in (under the assets directory)."""
        if league in ("nfl", "nba", "wnba", "mlb", "nhl"):
            folder = f"{league}_logos"
        elif league in _NCAA_LEAGUES:
            folder = "ncaa_logos"
        elif league.startswith("soccer_"):
            folder = "soccer_logos"
        elif _SAFE_LEAGUE.fullmatch(league):
            folder = f"{league}_logos"
        else:
            raise ValueError(f"unsafe league name: {league!r}")
        return str(resolve_paths().assets_dir / "sports" / folder)

    @staticmethod
    def ensure_logo_directory(logo_dir: str | os.PathLike[str]) -> bool:
        """Create ``logo_dir`` if needed; return whether logos can be written there."""
        path = Path(logo_dir)
        try:
            path.mkdir(parents=True, exist_ok=True)
        except OSError as err:
            logger.error("logo directory %s cannot be created: %s", path, err)
            return False
        if not os.access(path, os.W_OK | os.X_OK):
            logger.error("logo directory %s is not writable by uid %d", path, os.geteuid())
            return False
        return True

    def download_logo(self, logo_url: str, filepath: str | os.PathLike[str],
                      team_abbreviation: str) -> bool:
        """Download the image at ``logo_url`` to ``filepath`` as an RGBA PNG; False on failure."""
        target = logo_target(filepath)
        if target is None:
            return False
        try:
            body = get_bytes(self.session, logo_url, timeout=self.request_timeout,
                             max_bytes=MAX_LOGO_BYTES, headers=self.headers)
            image = as_rgba_png(body)
            with _write_lock:
                atomic_write_bytes(target, image)
        except FetchError as err:
            logger.warning("logo for %s not downloaded: %s", team_abbreviation, err)
            return False
        except ValueError as err:
            logger.warning("logo for %s from %s refused: %s", team_abbreviation, logo_url, err)
            return False
        except AtomicWriteError as err:
            logger.error("logo for %s not saved: %s", team_abbreviation, err)
            return False
        logger.info("downloaded logo for %s -> %s", team_abbreviation, target)
        return True

    def fetch_single_team(self, league: str, team_id: str) -> dict[str, Any] | None:
        """Return ESPN's record of one team, or None (logged) when it cannot be had."""
        base = self._teams_url(league)
        if base is None or not _SAFE_TEAM_ID.fullmatch(str(team_id)):
            logger.warning("no team record for league %r, team %r", league, team_id)
            return None
        try:
            body = get_bytes(self.session, f"{base}/{team_id}", timeout=self.request_timeout,
                             max_bytes=MAX_LOGO_BYTES, headers={"Accept": "application/json"})
            data = json.loads(body)
        except (FetchError, ValueError) as err:
            logger.warning("team %s of %s not fetched: %s", team_id, league, err)
            return None
        return data if isinstance(data, dict) else None

    def download_missing_logo_for_team(self, league: str, team_id: str, team_abbreviation: str,
                                       logo_path: str | os.PathLike[str]) -> bool:
        """Look the team's logo URL up at ESPN and download it to ``logo_path``."""
        data = self.fetch_single_team(league, team_id)
        try:
            logo_url = data["team"]["logos"][0]["href"]  # type: ignore[index]
        except (KeyError, IndexError, TypeError):
            logger.warning("no logo URL for %s (team %s of %s)", team_abbreviation, team_id,
                           league)
            return False
        return self.download_logo(str(logo_url), logo_path, team_abbreviation)

    @staticmethod
    def create_placeholder_logo(team_abbreviation: str, logo_dir: str | os.PathLike[str],
                                filepath: str | os.PathLike[str] | None = None) -> bool:
        """Write a grey 64x64 logo showing the abbreviation; return whether it was written."""
        if filepath is None:
            name = f"{LogoDownloader.normalize_abbreviation(team_abbreviation)}.png"
            filepath = Path(logo_dir) / name
        target = logo_target(filepath)
        if target is None:
            return False
        info = PngInfo()
        info.add_text(PLACEHOLDER_MARKER, str(time.time()))
        try:
            with _write_lock:
                atomic_write_bytes(target, png_bytes(placeholder_image(team_abbreviation), info))
        except AtomicWriteError as err:
            logger.error("placeholder logo for %s not saved: %s", team_abbreviation, err)
            return False
        logger.info("placeholder logo for %s -> %s", team_abbreviation, target)
        return True

    def _teams_url(self, league: str) -> str | None:
        path = _ESPN_PATHS.get(league)
        if path is None and league.startswith("soccer_") and _SAFE_CODE.fullmatch(league[7:]):
            path = f"soccer/{league[7:]}"
        return None if path is None else f"{self.API_BASE}/{path}/teams"


def get_soccer_league_key(league_code: str) -> str:
    """Return the league name the downloader uses for a soccer league code (``eng.1``)."""
    return f"soccer_{league_code}"


def download_missing_logo(league: str, team_id: str, team_abbreviation: str,
                          logo_path: str | os.PathLike[str], logo_url: str | None = None,
                          create_placeholder: bool = True) -> bool:
    """Make sure a logo is at ``logo_path``: keep it, download it, or write a placeholder.

    Return True when ``logo_path`` holds a logo or placeholder afterwards. A relative
    path is taken from the install root, as the existing system does. Waits at most
    ``DOWNLOAD_BUDGET`` seconds for the download (see the module's docstring).
    """
    key = os.fspath(logo_path)
    recent = _recent_failure(key)
    if recent is not None:  # failed moments ago: answer as then, without a request or a log
        return recent
    target = logo_target(logo_path)
    if target is None:
        return _failed(key, False)
    if target.exists() and not should_attempt_download(target):
        return True
    if not LogoDownloader.ensure_logo_directory(target.parent):
        return _failed(key, False)

    def fetch(downloader: LogoDownloader) -> bool:
        if logo_url:
            return downloader.download_logo(logo_url, target, team_abbreviation)
        return downloader.download_missing_logo_for_team(league, team_id, team_abbreviation,
                                                         target)

    outcome = _download_within_budget(key, target, team_abbreviation, fetch)
    if outcome:
        return True
    if create_placeholder:  # a download still running keeps what is there (it may be done)
        return _failed(key, _stand_in(team_abbreviation, target, keep=outcome is None))
    return _failed(key, target.exists())


def download_logo_within_budget(logo_url: str, logo_path: str | os.PathLike[str],
                                team_abbreviation: str) -> bool:
    """Download the image at ``logo_url`` to ``logo_path``; return whether it is there now.

    The same rules and bounds as ``download_missing_logo`` (where it may be written, the
    wait budget, the failure memory), without the placeholder: ``LogoHelper`` uses it.
    """
    key = os.fspath(logo_path)
    recent = _recent_failure(key)
    if recent is not None:
        return recent
    target = logo_target(logo_path)
    if target is None or not LogoDownloader.ensure_logo_directory(target.parent):
        return _failed(key, False)

    def fetch(downloader: LogoDownloader) -> bool:
        return downloader.download_logo(logo_url, target, team_abbreviation)

    if _download_within_budget(key, target, team_abbreviation, fetch):
        return True
    return _failed(key, False)


def _download_within_budget(key: str, target: Path, team_abbreviation: str,
                            fetch: Callable[[LogoDownloader], bool]) -> bool | None:
    """Run ``fetch`` on the download pool; its answer, or None when not done in the budget."""

    def job() -> bool:
        downloader = LogoDownloader()
        with downloader.session:
            done = fetch(downloader)
        if done:  # landed after its caller stopped waiting: the next call may use it
            with _failures_lock:
                _failures.pop(key, None)
        return done

    outcome = download_pool.run(str(target), job, DOWNLOAD_BUDGET)
    if outcome is None:
        logger.warning("logo for %s not there after %g s; answered without it (a download "
                       "still running saves it to %s)", team_abbreviation, DOWNLOAD_BUDGET,
                       target)
    return outcome


def _stand_in(team_abbreviation: str, target: Path, *, keep: bool) -> bool:
    """Write a placeholder at ``target`` (``keep``: only when nothing is there yet)."""
    with _write_lock:
        if keep and target.exists():
            return True
        return LogoDownloader.create_placeholder_logo(team_abbreviation, target.parent, target)


def logo_target(logo_path: str | os.PathLike[str]) -> Path | None:
    """Return the absolute path a logo may be written to, or None (logged) if it may not."""
    raw = os.fspath(logo_path)
    path = Path(raw)
    if "\0" in raw or ".." in path.parts or path.suffix.lower() not in IMAGE_SUFFIXES:
        logger.warning("refusing to write a logo at %r: not a plain image file name", raw)
        return None
    paths = resolve_paths()
    if not path.is_absolute():
        path = paths.root / path
    parent = path.parent.resolve()
    bases = (paths.root / "assets", paths.assets_dir, paths.cache_dir, paths.plugins_dir())
    if not any(parent.is_relative_to(base.resolve()) for base in bases):
        logger.warning("refusing to write a logo at %s: outside the assets, cache and "
                       "plugins directories", path)
        return None
    return parent / path.name


def as_rgba_png(data: bytes) -> bytes:
    """Return ``data`` decoded as an image and re-encoded as an RGBA PNG; ValueError if not one.

    The image must pass Pillow's own check (a PNG chunk whose checksum is wrong is a
    damaged download) and decode completely within ``MAX_LOGO_PIXELS``.
    """
    try:
        with Image.open(io.BytesIO(data)) as image:
            image.verify()
        with Image.open(io.BytesIO(data)) as image:
            width, height = image.size
            if width * height > MAX_LOGO_PIXELS:
                raise ValueError(f"{width}x{height} pixels is more than a logo may have")
            image.load()
            rgba = image.convert("RGBA")
    except ValueError:
        raise
    except Exception as err:  # Pillow's decoders raise many kinds for damaged bytes
        raise ValueError(f"not an image Pillow can read: {type(err).__name__}: {err}"
                         ) from err
    return png_bytes(rgba)


def _recent_failure(key: str) -> bool | None:
    """Return the outcome of a failure of ``key`` within FAILURE_BACKOFF, else None."""
    with _failures_lock:
        entry = _failures.get(key)
    if entry is None or time.monotonic() - entry[0] >= FAILURE_BACKOFF:
        return None
    return entry[1]


def _failed(key: str, outcome: bool) -> bool:
    """Remember that ``key`` failed just now (answered ``outcome``); return ``outcome``."""
    with _failures_lock:
        _failures.pop(key, None)
        if len(_failures) >= _MAX_FAILURES:
            _failures.pop(next(iter(_failures)))
        _failures[key] = (time.monotonic(), outcome)
    return outcome
