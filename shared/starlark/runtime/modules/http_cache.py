"""Responses kept for ``ttl_seconds``, as pixlet keeps them, in an AppCache of their own.

Only successful answers (status below 400) are kept; the key is the method, the URL
with its parameters, the headers and the body, so different requests never share one.
"""

from __future__ import annotations

import base64
import hashlib
import json

from shared.starlark.runtime.modules.app_cache import AppCache

Answer = tuple[int, dict[str, str], bytes]


def request_key(method: str, url: str, headers: dict[str, str], body: bytes | None) -> str:
    """A short key naming one request exactly."""
    digest = hashlib.sha256()
    for part in (method, url, json.dumps(headers, sort_keys=True)):
        digest.update(part.encode() + b"\0")
    digest.update(body or b"")
    return "http:" + digest.hexdigest()


def recall(store: AppCache, key: str) -> Answer | None:
    """The kept answer under ``key``, or None."""
    kept = store.get(key)
    if kept is None:
        return None
    status, headers, body = json.loads(kept)
    return int(status), dict(headers), base64.b64decode(body)


def keep(store: AppCache, key: str, answer: Answer, ttl_seconds: float) -> None:
    """Keep a successful ``answer`` for ``ttl_seconds`` (too large ones are not kept)."""
    status, headers, body = answer
    if ttl_seconds <= 0 or status >= 400:
        return
    text = json.dumps([status, headers, base64.b64encode(body).decode("ascii")])
    if len(text) < store.max_bytes:
        store.set(key, text, ttl_seconds)
