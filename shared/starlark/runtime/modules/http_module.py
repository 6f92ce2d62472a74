"""http.star: requests through an injected Fetcher; the default refuses non-public hosts.

The default Fetcher goes through ``shared.public_hosts``' checked session (the store's
rule: every hop's addresses checked and connected to exactly, so a loopback, private or
link-local address, or a redirect to one, is refused; ``LEDPANEL_APPS_ALLOW_HOSTS``
lists hosts the operator allows) and ``shared.http_fetch`` (its timeouts and size
limit). An app gets every answer, error statuses included, with its headers and body,
as pixlet gives them. An answer asked for with ``ttl_seconds`` is kept that long
(http_cache.py) in the run's ``http_cache``.
"""

from __future__ import annotations

import json
import time
import urllib.parse
from collections.abc import Callable
from typing import Any, Protocol

from shared import public_hosts
from shared.http_fetch import request_answer
from shared.starlark.runtime.modules import http_cache
from shared.starlark.runtime.modules.app_cache import AppCache
from shared.starlark.runtime.modules.base import ModuleSource
from shared.starlark.runtime.modules.blob import as_bytes, to_starlark

ALLOW_ENV = "LEDPANEL_APPS_ALLOW_HOSTS"

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
        with public_hosts.checked_session(ALLOW_ENV) as session:
            answer = request_answer(session, method, url, timeout=timeout,
                                    max_bytes=self.max_bytes, headers=headers, data=body)
        return answer.status, answer.headers, answer.body


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
