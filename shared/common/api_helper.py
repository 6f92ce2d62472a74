"""APIHelper: JSON over HTTP for plugins, with bounded retries and optional caching.

Community plugins import it as ``from src.common import APIHelper`` and call
``get(url, params=..., cache_key=..., cache_ttl=...)`` or the ESPN shortcuts. Every
request method answers the decoded JSON or None: a network error, a timeout, an HTTP
error status, a body that is not JSON or larger than ``MAX_BODY_BYTES`` is one
warning line (the URL without its query, which may hold an API key), never an
exception.

Bounds: a GET makes at most ``1 + max_retries`` attempts (``max_retries`` is capped
at ``MAX_RETRIES``) through ``shared.http_fetch.get_bytes``, so each attempt ends
within its timeout, body included, and reads at most ``MAX_BODY_BYTES``. Connection
errors, timeouts, HTTP 429 and 5xx are retried, after waits that double from
``backoff_factor`` up to ``MAX_BACKOFF`` seconds; no attempt starts more than twice
the timeout after the first (so a call ends within about three timeouts). A POST is
attempted once. Calls from one helper are spaced at least ``min_request_interval``
seconds apart (1 s by default, ``set_rate_limit()`` changes it).

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

from shared.http_fetch import FetchError, get_bytes
from shared.version import CORE_VERSION

MAX_RETRIES = 5
MAX_BACKOFF = 4.0
MAX_BODY_BYTES = 16 * 1024 * 1024
ESPN_BASE_URL = "https://site.api.espn.com/apis/site/v2/sports"


class APIHelper:
    """HTTP GET/POST returning JSON or None, for plugins.

    Args:
        cache_manager: the plugin's cache manager, used when a call names a cache_key.
        default_timeout: seconds to wait for the server (connecting, or the next bytes)
            when a call gives no timeout.
        max_retries: extra attempts after a retryable failure (0 to 5).
        logger: where messages go (the plugin's logger); default this module's.
        backoff_factor: the first wait between attempts, in seconds.
    """

    espn_base_url = ESPN_BASE_URL

    def __init__(
        self,
        cache_manager: Any = None,
        default_timeout: float = 30,
        max_retries: int = 3,
        logger: logging.Logger | None = None,
        *,
        backoff_factor: float = 0.5,
    ) -> None:
        self.cache_manager = cache_manager
        self.default_timeout = float(default_timeout) if default_timeout else 30.0
        self.max_retries = max(0, min(int(max_retries), MAX_RETRIES))
        self.backoff_factor = max(0.0, float(backoff_factor))
        self.logger = logger or logging.getLogger(__name__)
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
        timeout: float | None = None,
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
        timeout: float | None = None,
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
        return self.get(f"{self.espn_base_url}/{sport}/{league}/standings",
                        cache_key=cache_key or f"espn_standings_{sport}_{league}",
                        cache_ttl=cache_ttl)

    def fetch_espn_rankings(
        self, sport: str, league: str, cache_key: str | None = None, cache_ttl: float = 3600
    ) -> Any:
        """Return ESPN's rankings for ``sport``/``league``."""
        return self.get(f"{self.espn_base_url}/{sport}/{league}/rankings",
                        cache_key=cache_key or f"espn_rankings_{sport}_{league}",
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

    def _call(self, method: str, url: str, timeout: float | None, attempts: int,
              **kwargs: Any) -> Any:
        where = f"{method} {_without_query(str(url))}"
        limit = float(timeout) if timeout else self.default_timeout
        self._pace()
        try:
            if method == "GET":
                body = self._get_body(url, limit, attempts, **kwargs)
            else:
                body = self._post_body(url, limit, **kwargs)
        except FetchError as err:
            self.logger.warning("%s failed: %s", where, _QUERY.sub("?...", str(err)))
            return None
        try:
            return json.loads(body)
        except ValueError as err:
            self.logger.warning("%s failed: the answer is not JSON (%s)", where, err)
            return None

    def _get_body(self, url: str, limit: float, attempts: int, **kwargs: Any) -> bytes:
        """Return the body of the first good answer; raise FetchError when there is none."""
        deadline = time.monotonic() + 2 * limit
        for attempt in range(1, attempts + 1):
            try:
                return get_bytes(self.session, url, max_bytes=MAX_BODY_BYTES,
                                 timeout=min(limit, deadline - time.monotonic()), **kwargs)
            except FetchError as err:
                if not err.retryable or attempt == attempts:
                    raise
                wait = min(self.backoff_factor * 2 ** (attempt - 1), MAX_BACKOFF)
                time.sleep(max(0.0, min(wait, deadline - time.monotonic())))
                if deadline - time.monotonic() <= 0:
                    raise FetchError(f"{err}; no time left for attempt {attempt + 1} "
                                     f"(budget {2 * limit:g} s)") from err
        raise AssertionError("unreachable: the last attempt returns or raises")

    def _post_body(self, url: str, limit: float, **kwargs: Any) -> bytes:
        """Return the body of one POST answer, bounded like a GET; raise FetchError."""
        deadline = time.monotonic() + limit
        try:
            with self.session.post(url, timeout=(limit, limit), stream=True,
                                   **kwargs) as response:
                if response.status_code >= 400:
                    raise FetchError(f"HTTP {response.status_code}")
                body = bytearray()
                for chunk in response.iter_content(64 * 1024):
                    body += chunk
                    if len(body) > MAX_BODY_BYTES:
                        raise FetchError(f"answer larger than {MAX_BODY_BYTES} bytes")
                    if time.monotonic() > deadline:
                        raise FetchError("answer still arriving when the timeout ran out")
                return bytes(body)
        except requests.RequestException as err:
            raise FetchError(type(err).__name__) from err


_QUERY = re.compile(r"\?\S*")


def _without_query(url: str) -> str:
    """Return ``url`` without its query string (where API keys usually sit)."""
    return url.split("?", 1)[0]
