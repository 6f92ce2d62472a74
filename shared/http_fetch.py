"""Bounded HTTP requests for the download helpers plugins call (team logos, background data).

``timeout`` is seconds, or a ``(connect, read)`` pair as requests takes it. Connecting
waits at most the connect time for each address the host name resolves to, the answer's
headers and each later read at most the read time, and the body is cut off once the
whole timeout (for a pair: connect plus read) has passed since the request began, so a
server that drips one byte a second is abandoned at that point, not after the body.
Looking the host name up is the system resolver's business and has no bound here:
callers that must not wait (the render thread) wait on ``download_pool`` instead.

At most ``max_bytes`` of body are read, counted as they stream in, so a body that never
ends is abandoned, never buffered. Failures are one exception, ``FetchError``, which
says whether trying again may help.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

import requests
import urllib3

from shared.version import CORE_VERSION

USER_AGENT = f"ledpanel/{CORE_VERSION}"
CHUNK = 64 * 1024

Timeout = float | tuple[float, float]  # seconds, or (connect, read)


class FetchError(Exception):
    """A request that gave no usable body; ``retryable`` when another try may succeed."""

    def __init__(self, message: str, *, retryable: bool = False) -> None:
        super().__init__(message)
        self.retryable = retryable


def get_bytes(
    session: requests.Session,
    url: str,
    *,
    timeout: Timeout,
    max_bytes: int,
    params: Mapping[str, Any] | None = None,
    headers: Mapping[str, str] | None = None,
) -> bytes:
    """Return the body of a GET of ``url``; raise FetchError on any failure."""
    return request_bytes(session, "GET", url, timeout=timeout, max_bytes=max_bytes,
                         params=params, headers=headers)


def request_bytes(
    session: requests.Session,
    method: str,
    url: str,
    *,
    timeout: Timeout,
    max_bytes: int,
    **kwargs: Any,
) -> bytes:
    """Return the body of one ``method`` request of ``url``; raise FetchError on any failure.

    ``kwargs`` go to requests (``params``, ``headers``, ``data``, ``json``).
    """
    return request_answer(session, method, url, timeout=timeout, max_bytes=max_bytes,
                          accept_errors=False, **kwargs).body


@dataclass(frozen=True)
class Answer:
    """A whole answer: its status, headers and (bounded) body."""

    status: int
    headers: dict[str, str]
    body: bytes


def request_answer(
    session: requests.Session,
    method: str,
    url: str,
    *,
    timeout: Timeout,
    max_bytes: int,
    accept_errors: bool = True,
    **kwargs: Any,
) -> Answer:
    """Like ``request_bytes``, but an HTTP error status is an answer, not a FetchError
    (unless ``accept_errors`` is false): for callers that show the status themselves."""
    if not isinstance(url, str) or not url.startswith(("http://", "https://")):
        raise FetchError(f"not an http(s) URL: {str(url)[:200]!r}")
    waits = timeout if isinstance(timeout, tuple) else (timeout, timeout)
    deadline = time.monotonic() + (sum(waits) if isinstance(timeout, tuple) else timeout)
    kwargs["headers"] = {"User-Agent": USER_AGENT, **(kwargs.get("headers") or {})}
    try:
        with session.request(method, url, timeout=waits, stream=True, **kwargs) as response:
            status = response.status_code
            if status >= 400 and not accept_errors:
                raise FetchError(f"HTTP {status} from {_short(url)}",
                                 retryable=status == 429 or status >= 500)
            declared = response.headers.get("Content-Length", "")
            if re.fullmatch(r"[0-9]{1,20}", declared) and int(declared) > max_bytes:
                raise FetchError(f"{_short(url)} is {declared} bytes, more than the "
                                 f"{max_bytes} allowed")
            body = _read_body(response, url, deadline, waits[1], max_bytes)
            return Answer(status, dict(response.headers), body)
    except FetchError:
        raise
    except (requests.RequestException, urllib3.exceptions.HTTPError, OSError) as err:
        raise FetchError(f"{method} {_short(url)} failed: {network_words(err)}",
                         retryable=True) from err
    except ValueError as err:  # requests refusing what it was given (a timeout <= 0 ...)
        raise FetchError(f"{method} {_short(url)} not sent: {err}") from err


def _read_body(response: requests.Response, url: str, deadline: float, read_wait: float,
               max_bytes: int) -> bytes:
    body = bytearray()
    for chunk in iter_body(response, deadline, read_wait, url=url):  # ends at end or limit
        body += chunk
        if len(body) > max_bytes:
            raise FetchError(f"{_short(url)} sent more than the {max_bytes} bytes allowed")
    return bytes(body)


def iter_body(response: requests.Response, deadline: float, read_wait: float, *,
              url: str | None = None) -> Iterator[bytes]:
    """Yield a streamed response's body as it arrives, until ``deadline`` (monotonic).

    Each socket read waits at most ``read_wait`` seconds and never past the deadline;
    passing it raises FetchError (retryable) naming ``url`` (default: the response's).
    The caller counts and caps the bytes.
    """
    raw = response.raw
    # read1 returns what has arrived instead of waiting for a whole chunk; older urllib3
    # lacks it, and then the socket timeout below still bounds each read.
    read = getattr(raw, "read1", None) or raw.read
    while True:  # ends at the body's end or the deadline
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise FetchError(f"{_short(url or response.url or '')} took longer than the timeout",
                             retryable=True)
        _limit_next_read(raw, min(remaining, read_wait))
        chunk = read(CHUNK, decode_content=True)
        if not chunk:
            return
        yield chunk


def _limit_next_read(raw: Any, seconds: float) -> None:
    """Let the next socket read wait at most ``seconds`` (the time left of the deadline)."""
    sock = getattr(getattr(raw, "connection", None), "sock", None)
    if sock is not None:
        sock.settimeout(max(seconds, 0.01))


def _short(url: str) -> str:
    return url if len(url) <= 120 else url[:117] + "..."


# What a network failure means, in a user's words: the library's text names connection
# pools and retry counts ("HTTPConnectionPool(host=..., port=1): Max retries exceeded").
_CAUSES = (
    ("Name or service not known", "the host name could not be found (offline?)"),
    ("Temporary failure in name resolution", "the host name could not be found (offline?)"),
    ("NameResolutionError", "the host name could not be found (offline?)"),
    ("Network is unreachable", "the network is unreachable (offline?)"),
    ("Connection refused", "the host refused the connection"),
    ("Connection reset", "the connection was cut"),
    ("No route to host", "there is no route to the host"),
)


def network_words(err: BaseException) -> str:
    """Say what a requests/urllib3/socket failure means, in a few plain words."""
    if isinstance(err, requests.Timeout | TimeoutError | urllib3.exceptions.TimeoutError):
        return "no answer in time"
    if isinstance(err, requests.exceptions.SSLError):
        return "the secure connection failed (certificate, or the Pi's clock?)"
    if isinstance(err, requests.exceptions.ChunkedEncodingError | urllib3.exceptions.ProtocolError):
        return "the connection was cut mid-way"
    text = str(err)
    for marker, words in _CAUSES:
        if marker in text:
            return words
    if isinstance(err, requests.ConnectionError):
        return "could not connect"
    return f"{type(err).__name__}: {text[:160]}"
