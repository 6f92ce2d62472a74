"""http.star: requests through an injected Fetcher; the default refuses non-public hosts.

The display gives its own Fetcher; the default one resolves the host, refuses any
address that is not public (loopback, private, link-local ...), then fetches with
``shared.http_fetch`` (its timeouts and size limit). That path reports no response
headers and gives an HTTP error status with an empty body. An answer asked for with
``ttl_seconds`` is kept that long (http_cache.py) in the run's ``http_cache``.
"""

from __future__ import annotations

import ipaddress
import json
import socket
import time
import urllib.parse
from collections.abc import Callable
from typing import Any, Protocol

import requests

from shared.http_fetch import FetchError, request_bytes
from shared.starlark.runtime.modules import http_cache
from shared.starlark.runtime.modules.app_cache import AppCache
from shared.starlark.runtime.modules.base import ModuleSource
from shared.starlark.runtime.modules.blob import as_bytes, to_starlark

TEXT = '''
def _response(r):
    return struct(status_code = r["status_code"], status = r["status"],
                  headers = r["headers"], url = r["url"], encoding = "",
                  body = lambda: r["body"], json = lambda: _py_json(r["body"]))

def _request(method, url, params = None, headers = None, body = None, form_body = None,
             form_encoding = "", json_body = None, auth = None, ttl_seconds = 0):
    return _response(_py_request(method, url, params, headers, body, form_body,
                                 form_encoding, json_body, auth, ttl_seconds))

http = struct(
    get = partial(_request, "GET"), post = partial(_request, "POST"),
    put = partial(_request, "PUT"), patch = partial(_request, "PATCH"),
    delete = partial(_request, "DELETE"), options = partial(_request, "OPTIONS"),
)
'''


class Fetcher(Protocol):
    """One HTTP request: (status, headers, body); raise an Exception to fail it."""

    def __call__(self, method: str, url: str, headers: dict[str, str], body: bytes | None,
                 timeout: float) -> tuple[int, dict[str, str], bytes]: ...


class PublicFetcher:
    """The default Fetcher: public addresses only, bounded by shared.http_fetch."""

    def __init__(self, max_bytes: int = 5 * 1024 * 1024) -> None:
        self.max_bytes = max_bytes

    def __call__(self, method: str, url: str, headers: dict[str, str], body: bytes | None,
                 timeout: float) -> tuple[int, dict[str, str], bytes]:
        refuse_private(url)
        with requests.Session() as session:
            try:
                data = request_bytes(session, method, url, timeout=timeout,
                                     max_bytes=self.max_bytes, headers=headers, data=body)
            except FetchError as err:
                words = str(err).split()
                if len(words) >= 2 and words[0] == "HTTP" and words[1].isdigit():
                    return int(words[1]), {}, b""
                raise
        return 200, {}, data


def refuse_private(url: str) -> None:
    """ValueError unless every address ``url``'s host resolves to is a public one."""
    host = urllib.parse.urlsplit(url).hostname
    if not host:
        raise ValueError(f"http: no host in {url[:100]!r}")
    try:
        infos = socket.getaddrinfo(host, None)
    except OSError as err:
        raise ValueError(f"http: cannot resolve {host}") from err
    for info in infos:
        address = ipaddress.ip_address(str(info[4][0]).split("%")[0])
        if not address.is_global:
            raise ValueError(f"http: {host} is not a public address")


def _body(body: Any, form: Any, json_body: Any, headers: dict[str, str]) -> bytes | None:
    if json_body is not None:
        headers.setdefault("Content-Type", "application/json")
        return json.dumps(json_body).encode()
    if form is not None:
        headers.setdefault("Content-Type", "application/x-www-form-urlencoded")
        return urllib.parse.urlencode(form).encode()
    return as_bytes(body) if body is not None else None


def module(fetch: Fetcher, timeout: float = 5.0, kept: AppCache | None = None,
           clock: Callable[[], float] = time.monotonic,
           waited: Callable[[float], None] = lambda seconds: None) -> ModuleSource:
    """http.star over ``fetch``; answers with ``ttl_seconds`` are kept in ``kept``;
    the time each fetch took is reported to ``waited`` (the run's deadline)."""
    store = kept if kept is not None else AppCache()

    def request(method: str, url: str, params: Any, headers: Any, body: Any, form: Any,
                form_encoding: str, json_body: Any, auth: Any,
                ttl_seconds: float = 0) -> dict[str, Any]:
        sent = {str(k): str(v) for k, v in (headers or {}).items()}
        if params:
            joiner = "&" if "?" in url else "?"
            url = url + joiner + urllib.parse.urlencode(params)
        if auth:
            import base64

            pair = f"{auth[0]}:{auth[1]}".encode()
            sent.setdefault("Authorization", "Basic " + base64.b64encode(pair).decode())
        payload = _body(body, form, json_body, sent)
        key = http_cache.request_key(method, url, sent, payload)
        answer = http_cache.recall(store, key)
        if answer is None:
            started = clock()
            try:
                answer = fetch(method, url, sent, payload, timeout)
            except Exception as err:  # any fetch failure is the app's http error, in one line
                raise ValueError(f"http.{method.lower()} {url[:100]}: {err}") from err
            finally:
                waited(clock() - started)
            http_cache.keep(store, key, answer, float(ttl_seconds or 0))
        status, answer_headers, data = answer
        return {"status_code": status, "status": f"{status}", "url": url,
                "headers": dict(answer_headers), "body": to_starlark(data)}

    def decode(body: Any) -> Any:
        data = as_bytes(body) or b""
        try:
            return json.loads(data)
        except ValueError as err:
            raise ValueError(f"http response is not JSON: {err}") from err

    return ModuleSource(TEXT, {"_py_request": request, "_py_json": decode})
