"""APIHelper: JSON over HTTP for plugins, with bounded retries and optional caching.

Community plugins import it as ``from src.common import APIHelper`` and call
``get(url, params=..., cache_key=..., cache_ttl=...)`` or the ESPN shortcuts. Every
request method answers the decoded JSON or None: a network error, a timeout, an HTTP
error status, a body that is not JSON or larger than ``MAX_BODY_BYTES`` is one
warning line (the URL without its query, which may hold an API key), never an
exception.

Bounds: a timeout is seconds or a ``(connect, read)`` pair, as requests takes it; a
value that is not above zero counts as ``MIN_TIMEOUT``, one that is no number (or no
pair of them) as the default. Requests go through ``shared.http_fetch``: connecting
waits at most the connect time per address the host name resolves to, each read at
most the read time, the body is cut off once the whole timeout (connect plus read for
a pair) has passed, and at most ``MAX_BODY_BYTES`` are read; looking the host name up
is the system resolver's and not bounded here. A GET makes at most ``1 + max_retries``
attempts (``max_retries`` is capped at ``MAX_RETRIES``): connection errors, timeouts,
HTTP 429 and 5xx are retried, after waits that double from ``backoff_factor`` up to
``MAX_BACKOFF`` seconds, and no attempt starts more than twice the whole timeout after
the first. A POST is attempted once. Calls from one helper are spaced at least
``min_request_interval`` seconds apart (1 s by default, ``set_rate_limit()`` changes it).

With a ``cache_manager`` (the plugin's ``self.cache_manager``), a ``cache_key`` makes
``get`` answer a cached value younger than ``cache_ttl`` seconds without a request,
and store each fresh answer.
"""

from __future__ import annotations

import json
import logging
import re
import threading
import time
from datetime import datetime
from typing import Any

import requests

from shared.http_fetch import FetchError, Timeout, request_bytes
from shared.version import CORE_VERSION

DEFAULT_TIMEOUT = 30.0
MIN_TIMEOUT = 0.1
MAX_TIMEOUT = 300.0
MAX_RETRIES = 5
MAX_BACKOFF = 4.0
MAX_BODY_BYTES = 16 * 1024 * 1024
ESPN_BASE_URL = "https://site.api.espn.com/apis/site/v2/sports"


class APIHelper:
    """HTTP GET/POST returning JSON or None, for plugins.

    Args:
        cache_manager: the plugin's cache manager, used when a call names a cache_key.
        default_timeout: the timeout of a call that gives none: seconds, or a
            ``(connect, read)`` pair.
        max_retries: extra attempts after a retryable failure (0 to 5).
        logger: where messages go (the plugin's logger); default this module's.
        backoff_factor: the first wait between attempts, in seconds.
    """

    espn_base_url = ESPN_BASE_URL

    def __init__(
        self,
        cache_manager: Any = None,
        default_timeout: Timeout = DEFAULT_TIMEOUT,
        max_retries: int = 3,
        logger: logging.Logger | None = None,
        *,
        backoff_factor: float = 0.5,
    ) -> None:
        self.cache_manager = cache_manager
        self.logger = logger or logging.getLogger(__name__)
        self.default_timeout = _timeout(default_timeout, DEFAULT_TIMEOUT, self.logger)
        self.max_retries = max(0, min(int(max_retries), MAX_RETRIES))
        self.backoff_factor = max(0.0, float(backoff_factor))
        self.session = requests.Session()
        self.session.headers.update({
            "User-Agent": f"ledpanel/{CORE_VERSION}",
            "Accept": "application/json",
        })
        self._min_request_interval = 1.0
        self._last_request_time = 0.0
        self._pace_lock = threading.Lock()
        self._cached_keys: set[str] = set()

    # -- requests ----------------------------------------------------------------

    def get(
        self,
        url: str,
        params: dict[str, Any] | None = None,
        headers: dict[str, str] | None = None,
        timeout: Timeout | None = None,
        cache_key: str | None = None,
        cache_ttl: float = 3600,
    ) -> Any:
        """Return the JSON answer of GET ``url``, or the one cached under ``cache_key``;
        None when there is neither."""
        if cache_key and self.cache_manager is not None:
            cached = self.cache_manager.get(cache_key, max_age=cache_ttl)
            if cached is not None:
                return cached
        data = self._call("GET", url, timeout, 1 + self.max_retries,
                          params=params, headers=headers)
        if data is not None and cache_key and self.cache_manager is not None:
            self.set_cache(cache_key, data, cache_ttl)
        return data

    def post(
        self,
        url: str,
        data: dict[str, Any] | None = None,
        json_data: Any = None,
        headers: dict[str, str] | None = None,
        timeout: Timeout | None = None,
    ) -> Any:
        """Return the JSON answer of one POST of ``data`` (form) or ``json_data``, else None."""
        return self._call("POST", url, timeout, 1, data=data, json=json_data, headers=headers)

    def fetch_espn_scoreboard(
        self,
        sport: str,
        league: str,
        date: str | None = None,
        cache_key: str | None = None,
        cache_ttl: float = 300,
    ) -> Any:
        """Return ESPN's scoreboard for ``sport``/``league`` on ``date`` (YYYYMMDD; today)."""
        day = date or datetime.now().strftime("%Y%m%d")
        return self.get(f"{self.espn_base_url}/{sport}/{league}/scoreboard",
                        params={"dates": day, "limit": 1000},
                        cache_key=cache_key or f"espn_{sport}_{league}_{day}", cache_ttl=cache_ttl)

    def fetch_espn_standings(
        self, sport: str, league: str, cache_key: str | None = None, cache_ttl: float = 3600
    ) -> Any:
        """Return ESPN's standings for ``sport``/``league``."""
        return self._espn_table("standings", sport, league, cache_key, cache_ttl)

    def fetch_espn_rankings(
        self, sport: str, league: str, cache_key: str | None = None, cache_ttl: float = 3600
    ) -> Any:
        """Return ESPN's rankings for ``sport``/``league``."""
        return self._espn_table("rankings", sport, league, cache_key, cache_ttl)

    def _espn_table(self, table: str, sport: str, league: str, cache_key: str | None,
                    cache_ttl: float) -> Any:
        return self.get(f"{self.espn_base_url}/{sport}/{league}/{table}",
                        cache_key=cache_key or f"espn_{table}_{sport}_{league}",
                        cache_ttl=cache_ttl)

    # -- cache -------------------------------------------------------------------

    def set_cache(self, key: str, data: Any, ttl: float = 3600) -> None:
        """Store ``data`` under ``key`` (freshness is decided when read: ``get``'s cache_ttl)."""
        if self.cache_manager is not None:
            self.cache_manager.set(key, data)
            self._cached_keys.add(key)

    def get_cache(self, key: str) -> Any:
        """Return the value cached under ``key`` (the cache manager's freshness), else None."""
        return self.cache_manager.get(key) if self.cache_manager is not None else None

    def clear_cache(self, pattern: str | None = None) -> None:
        """Forget the answers this helper cached (those whose key contains ``pattern``)."""
        if self.cache_manager is None:
            return
        for key in [k for k in self._cached_keys if pattern is None or pattern in k]:
            self.cache_manager.clear_cache(key)
            self._cached_keys.discard(key)

    # -- pacing ------------------------------------------------------------------

    def set_rate_limit(self, min_interval: float) -> None:
        """Space this helper's requests at least ``min_interval`` seconds apart (0 for none)."""
        self._min_request_interval = max(0.0, float(min_interval))

    def get_request_stats(self) -> dict[str, float]:
        """Return the request interval, the last request's time and the seconds since."""
        return {
            "min_request_interval": self._min_request_interval,
            "last_request_time": self._last_request_time,
            "time_since_last_request": time.time() - self._last_request_time,
        }

    def _pace(self) -> None:
        with self._pace_lock:
            wait = self._min_request_interval - (time.time() - self._last_request_time)
            if wait > 0:
                time.sleep(min(wait, self._min_request_interval))
            self._last_request_time = time.time()

    # -- internals -------------------------------------------------------------------

    def _call(self, method: str, url: str, timeout: Any, attempts: int, **kwargs: Any) -> Any:
        where = f"{method} {_without_query(str(url))}"
        limit = _timeout(timeout, self.default_timeout, self.logger) if timeout else (
            self.default_timeout)
        self._pace()
        try:
            if method == "GET":
                body = self._get_body(url, limit, attempts, **kwargs)
            else:
                body = request_bytes(self.session, method, url, timeout=limit,
                                     max_bytes=MAX_BODY_BYTES, **kwargs)
        except FetchError as err:
            self.logger.warning("%s failed: %s", where, _QUERY.sub("?...", str(err)))
            return None
        try:
            return json.loads(body)
        except ValueError as err:
            self.logger.warning("%s failed: the answer is not JSON (%s)", where, err)
            return None

    def _get_body(self, url: str, limit: Timeout, attempts: int, **kwargs: Any) -> bytes:
        """Return the body of the first good answer; raise FetchError when there is none."""
        budget = 2 * _span(limit)
        deadline = time.monotonic() + budget
        for attempt in range(1, attempts + 1):
            try:
                return request_bytes(self.session, "GET", url, max_bytes=MAX_BODY_BYTES,
                                     timeout=_capped(limit, deadline - time.monotonic()),
                                     **kwargs)
            except FetchError as err:
                if not err.retryable or attempt == attempts:
                    raise
                wait = min(self.backoff_factor * 2 ** (attempt - 1), MAX_BACKOFF)
                time.sleep(max(0.0, min(wait, deadline - time.monotonic())))
                if deadline - time.monotonic() <= 0:
                    raise FetchError(f"{err}; no time left for attempt {attempt + 1} "
                                     f"(budget {budget:g} s)") from err
        raise AssertionError("unreachable: the last attempt returns or raises")


_QUERY = re.compile(r"\?\S*")


def _timeout(value: Any, default: Timeout, logger: logging.Logger) -> Timeout:
    """Return ``value`` as seconds or a (connect, read) pair, each within the bounds.

    A number not above zero becomes ``MIN_TIMEOUT``; a value that is no number, nor a
    pair of them, is ``default`` (with a warning).
    """
    if isinstance(value, tuple | list) and len(value) == 2:
        connect, read = (_seconds(part) for part in value)
        if connect is not None and read is not None:
            return (connect, read)
    else:
        seconds = _seconds(value)
        if seconds is not None:
            return seconds
    logger.warning("timeout %r is not seconds nor a (connect, read) pair; using %r",
                   value, default)
    return default


def _seconds(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float) or value != value:
        return None
    return max(MIN_TIMEOUT, min(float(value), MAX_TIMEOUT))


def _span(timeout: Timeout) -> float:
    """Return how long one request may take in all (connect plus read for a pair)."""
    return sum(timeout) if isinstance(timeout, tuple) else timeout


def _capped(timeout: Timeout, seconds: float) -> Timeout:
    """Return ``timeout`` with each part at most ``seconds`` (and above zero)."""
    cap = max(MIN_TIMEOUT, seconds)
    if isinstance(timeout, tuple):
        return (min(timeout[0], cap), min(timeout[1], cap))
    return min(timeout, cap)


def _without_query(url: str) -> str:
    """Return ``url`` without its query string (where API keys usually sit)."""
    return url.split("?", 1)[0]
