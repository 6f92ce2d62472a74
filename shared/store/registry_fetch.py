"""Fetch one store source over HTTP: a registry index, or a single plugin's repository.

Explicit limits on every request: connect 5 s, read 15 s, 5 MiB. A repository source
(``https://github.com/owner/name``) is read through its ``manifest.json`` on the raw-file
URL ``{repo}/raw/{branch}/manifest.json`` (the host redirects to its raw-file host;
redirects are followed). The branch is ``main`` unless the URL names one
(``.../owner/name/tree/<branch>``).
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

import requests

from shared.http_fetch import FetchError, get_bytes
from shared.store.registry_parse import (
    RegistryFormatError,
    entry_from_manifest,
    parse_registry,
)
from shared.store.sources import Source

TIMEOUT = (5.0, 15.0)  # connect, read (seconds)
MAX_BYTES = 5 * 1024 * 1024
MAX_MANIFEST_BYTES = 256 * 1024


class SourceError(Exception):
    """A source that gave no entries; the message names it and says why."""


def repository_parts(url: str) -> tuple[str, str]:
    """Return ``(repo URL, branch)`` of a repository source URL."""
    parts = urlsplit(url)
    path = parts.path.rstrip("/")
    branch = "main"
    if "/tree/" in path:
        path, branch = path.split("/tree/", 1)
    path = path.removesuffix(".git")
    return f"{parts.scheme}://{parts.netloc}{path}", branch or "main"


def fetch_source(session: requests.Session, source: Source
                 ) -> tuple[list[dict[str, Any]], list[str]]:
    """Return ``(entries, warnings)`` of one source; raise SourceError."""
    try:
        if source.kind == "repository":
            repo, branch = repository_parts(source.url)
            if len(urlsplit(repo).path.strip("/").split("/")) != 2:
                raise SourceError(f"{source.url}: not a repository URL (https://host/owner/name)")
            body = get_bytes(session, f"{repo}/raw/{branch}/manifest.json", timeout=TIMEOUT,
                             max_bytes=MAX_MANIFEST_BYTES)
            return [entry_from_manifest(body, repo, branch, source.url)], []
        body = get_bytes(session, source.url, timeout=TIMEOUT, max_bytes=MAX_BYTES)
        return parse_registry(body, source.url)
    except FetchError as err:
        raise SourceError(f"{source.url} could not be fetched: {err}") from err
    except RegistryFormatError as err:
        raise SourceError(str(err)) from err
