"""Where the apps repository is and what its tree listing and manifests say.

The repository is ``DEFAULT_REPOSITORY`` (Tronbyt's community apps) on branch ``main``
unless the ``starlark-apps`` section's ``repository`` names another
(``https://host/owner/name`` or ``.../tree/<branch>/<folder>``); apps are the folders
``<folder>/<app_id>/`` (``apps`` by default) holding a ``manifest.yaml``. Every request
goes through the store's repository-host layer: its checked session (public hosts only,
unless ``LEDPANEL_STORE_ALLOW_HOSTS`` allows more), its URLs, API base and token. A
repository that cannot be reached is a ``RepositoryError``: the store's error code,
answered 502.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import requests

from shared.errors import LedpanelError
from shared.http_fetch import FetchError, get_bytes
from shared.starlark.installed.app_ids import valid_app_id
from web_service.starlark.config_entry import section_of
from web_service.store import repo_url as urls
from web_service.store.errors import StoreError
from web_service.store.install.download import MAX_LISTING_BYTES, api_headers
from web_service.store.registry.sources import api_token_for, api_url

DEFAULT_REPOSITORY = "https://github.com/tronbyt/apps"
DEFAULT_BRANCH = "main"
DEFAULT_FOLDER = "apps"
TIMEOUT = (5.0, 30.0)  # connect, read (seconds): the store's
MAX_MANIFEST_BYTES = 64 * 1024
MAX_APPS = 5000


class RepositoryError(LedpanelError):
    """The repository could not be reached or read; ``error_code`` is the store's."""

    status = 502


@dataclass(frozen=True)
class Place:
    """The repository in force: its checked URL, branch, apps folder and API."""

    ref: urls.RepoRef
    branch: str
    folder: str
    api: str
    token: str | None = None

    @property
    def key(self) -> str:
        return f"{self.ref.url}#{self.branch}:{self.folder}@{self.api}"

    def app_path(self, app_id: str) -> str:
        return f"{self.folder}/{app_id}" if self.folder else app_id


@dataclass(frozen=True)
class Listed:
    """One app the listing shows: its id and its manifest's git blob id and size."""

    app_id: str
    sha: str
    size: int


def place_of(config: Mapping[str, Any], secrets: Mapping[str, Any]) -> Place:
    """The repository the config names (``RepositoryError`` ``BAD_REPO_URL`` if bad)."""
    configured = section_of(dict(config)).get("repository")
    url = configured if isinstance(configured, str) and configured.strip() \
        else DEFAULT_REPOSITORY
    try:
        ref = urls.parse_repo_url(url)
        branch = urls.check_branch(ref.branch or DEFAULT_BRANCH)
        folder = ref.plugin_path if ref.branch else DEFAULT_FOLDER
        return Place(ref, branch, folder, urls.api_base(api_url(config)),
                     api_token_for(config, secrets))
    except StoreError as err:
        raise RepositoryError(f"starlark-apps.repository: {err.message}",
                              error_code=err.error_code, status=400) from err


def listing(session: requests.Session, place: Place) -> list[Listed]:
    """The apps of one recursive tree listing of the branch (one request)."""
    body = _get(session, urls.tree_url(place.api, place.ref, place.branch),
                MAX_LISTING_BYTES, "the repository's file list",
                headers=api_headers(place.token))
    try:
        tree = json.loads(body).get("tree")
    except (ValueError, AttributeError, UnicodeDecodeError) as err:
        raise RepositoryError("the repository's file list is not the host's JSON",
                              error_code="DOWNLOAD_FAILED") from err
    if not isinstance(tree, list):
        raise RepositoryError("the repository's file list has no 'tree'",
                              error_code="DOWNLOAD_FAILED")
    prefix = f"{place.folder}/" if place.folder else ""
    found: dict[str, Listed] = {}
    for entry in tree:
        listed = _listed(entry, prefix)
        if listed is not None and len(found) < MAX_APPS:
            found[listed.app_id] = listed
    return [found[app_id] for app_id in sorted(found)]


def _listed(entry: Any, prefix: str) -> Listed | None:
    if not isinstance(entry, dict) or entry.get("type") != "blob":
        return None
    path, sha, size = entry.get("path"), entry.get("sha"), entry.get("size")
    if not isinstance(path, str) or not path.startswith(prefix) \
            or not isinstance(sha, str) or len(sha) != 40 or not isinstance(size, int):
        return None
    parts = path[len(prefix):].split("/")
    if len(parts) != 2 or parts[1] != "manifest.yaml" or not valid_app_id(parts[0]):
        return None
    if size > MAX_MANIFEST_BYTES or entry.get("mode") == "120000":
        return None
    return Listed(parts[0], sha.lower(), size)


def manifest_bytes(session: requests.Session, place: Place, listed: Listed) -> bytes:
    """One app's ``manifest.yaml``, checked against the listing's blob id."""
    path = f"{place.app_path(listed.app_id)}/manifest.yaml"
    data = _get(session, urls.raw_url(place.ref, place.branch, path), MAX_MANIFEST_BYTES,
                path)
    if blob_sha(data) != listed.sha:
        raise RepositoryError(f"{path}: the file differs from the listing (changed while "
                              "read?)", error_code="DOWNLOAD_FAILED")
    return data


def blob_sha(data: bytes) -> str:
    """A file's git blob id."""
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


def _get(session: requests.Session, url: str, limit: int, what: str,
         headers: Mapping[str, str] | None = None) -> bytes:
    try:
        return get_bytes(session, url, timeout=TIMEOUT, max_bytes=limit, headers=headers)
    except FetchError as err:
        limited = str(err).startswith(("HTTP 403 ", "HTTP 429 "))
        advice = (" (the host is limiting requests: try again later, or give the plugin "
                  "store a repository token)") if limited else ""
        raise RepositoryError(f"{what} could not be fetched from the apps repository: "
                              f"{err}{advice}",
                              error_code="RATE_LIMITED" if limited else "DOWNLOAD_FAILED"
                              ) from err
    except StoreError as err:  # a destination the store refuses
        raise RepositoryError(f"{what} was not fetched: {err.message}",
                              error_code=err.error_code, details=err.details) from err
