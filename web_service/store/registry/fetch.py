"""Fetch one store source over HTTP: a registry index, or a single plugin's repository.

Explicit limits on every request: connect 5 s, read 15 s, 5 MiB. A repository source
(``https://github.com/owner/name``) is read through its ``manifest.json`` on the raw-file
URL ``{repo}/raw/{branch}/manifest.json`` (the host redirects to its raw-file host;
redirects are followed, each hop checked by ``destinations``). The URL is read by
``repo_url.parse_repo_url``, the parser the installer uses: the branch is ``main`` unless
the URL names one (``.../owner/name/tree/<branch>[/<folder>]``).
"""

from __future__ import annotations

from typing import Any

import requests

from shared.http_fetch import FetchError, get_bytes
from web_service.store.errors import StoreError
from web_service.store.registry.parse import (
    RegistryFormatError,
    entry_from_manifest,
    parse_registry,
)
from web_service.store.registry.sources import Source, SourceError
from web_service.store.repo_url import parse_repo_url, raw_url

TIMEOUT = (5.0, 15.0)  # connect, read (seconds)
MAX_BYTES = 5 * 1024 * 1024
MAX_MANIFEST_BYTES = 256 * 1024


def fetch_source(session: requests.Session, source: Source
                 ) -> tuple[list[dict[str, Any]], list[str]]:
    """Return ``(entries, warnings)`` of one source; raise SourceError."""
    try:
        if source.kind == "repository":
            try:
                ref = parse_repo_url(source.url)
            except StoreError as err:
                raise SourceError(f"{source.url}: {err.message}") from err
            branch = ref.branch or "main"
            manifest = "/".join(p for p in (ref.plugin_path, "manifest.json") if p)
            body = get_bytes(session, raw_url(ref, branch, manifest), timeout=TIMEOUT,
                             max_bytes=MAX_MANIFEST_BYTES)
            return [entry_from_manifest(body, ref.url, branch, source.url,
                                        plugin_path=ref.plugin_path)], []
        body = get_bytes(session, source.url, timeout=TIMEOUT, max_bytes=MAX_BYTES)
        return parse_registry(body, source.url)
    except FetchError as err:
        raise SourceError(f"{source.url} could not be fetched: {err}") from err
    except StoreError as err:  # a destination the store refuses (destinations.py)
        raise SourceError(f"{source.url} was not fetched: {err.message}") from err
    except RegistryFormatError as err:
        raise SourceError(str(err)) from err
