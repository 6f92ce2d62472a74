"""Bounded HTTP GETs for the download helpers plugins call (team logos, background data).

Every GET here ends within its ``timeout`` (connect, each read and the whole exchange:
a server that drips one byte a second is cut off at the deadline, not after the body)
and reads at most ``max_bytes`` of body, counted as it streams in, so a body that never
ends is abandoned, never buffered. Failures are one exception, ``FetchError``, which
says whether trying again may help.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

import requests
import urllib3

from shared.version import CORE_VERSION

USER_AGENT = f"ledpanel/{CORE_VERSION}"
CHUNK = 64 * 1024


class FetchError(Exception):
    """A GET that gave no usable body; ``retryable`` when another try may succeed."""

    def __init__(self, message: str, *, retryable: bool = False) -> None:
        super().__init__(message)
        self.retryable = retryable


def get_bytes(
    session: requests.Session,
    url: str,
    *,
    timeout: float,
    max_bytes: int,
    params: Mapping[str, Any] | None = None,
    headers: Mapping[str, str] | None = None,
) -> bytes:
    """Return the body of a GET of ``url``; raise FetchError on any failure."""
    if not isinstance(url, str) or not url.startswith(("http://", "https://")):
        raise FetchError(f"not an http(s) URL: {str(url)[:200]!r}")
    deadline = time.monotonic() + timeout
    sent = {"User-Agent": USER_AGENT, **(headers or {})}
    try:
        with session.get(url, params=params, headers=sent, timeout=(timeout, timeout),
                         stream=True) as response:
            status = response.status_code
            if status >= 400:
                raise FetchError(f"HTTP {status} from {_short(url)}",
                                 retryable=status == 429 or status >= 500)
            declared = response.headers.get("Content-Length", "")
            if declared.isdigit() and int(declared) > max_bytes:
                raise FetchError(f"{_short(url)} is {declared} bytes, more than the "
                                 f"{max_bytes} allowed")
            return _read_body(response, url, deadline, max_bytes)
    except FetchError:
        raise
    except (requests.RequestException, urllib3.exceptions.HTTPError, OSError) as err:
        raise FetchError(f"GET {_short(url)} failed: {err}", retryable=True) from err


def _read_body(response: requests.Response, url: str, deadline: float, max_bytes: int
               ) -> bytes:
    raw = response.raw
    # read1 returns what has arrived instead of waiting for a whole chunk; older urllib3
    # lacks it, and then the socket timeout below still bounds each read.
    read = getattr(raw, "read1", None) or raw.read
    body = bytearray()
    while True:  # ends at the body's end, the deadline or the size limit
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise FetchError(f"{_short(url)} took longer than the timeout", retryable=True)
        _limit_next_read(raw, remaining)
        chunk = read(CHUNK, decode_content=True)
        if not chunk:
            return bytes(body)
        body += chunk
        if len(body) > max_bytes:
            raise FetchError(f"{_short(url)} sent more than the {max_bytes} bytes allowed")


def _limit_next_read(raw: Any, seconds: float) -> None:
    """Let the next socket read wait at most ``seconds`` (the time left of the deadline)."""
    sock = getattr(getattr(raw, "connection", None), "sock", None)
    if sock is not None:
        sock.settimeout(max(seconds, 0.01))


def _short(url: str) -> str:
    return url if len(url) <= 120 else url[:117] + "..."
