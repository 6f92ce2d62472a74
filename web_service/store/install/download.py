"""Download one plugin folder from the repository host into a fresh directory.

The API way first: one recursive tree listing of the branch, one branch-head request,
then a raw download of every file below the plugin folder (``RAW_WORKERS`` at a time),
each checked against the listing (size and git blob id), so a download cut mid-way never
passes. When the
listing fails, is truncated or the API is rate limited (403/429), the branch's ZIP
archive is streamed to a temp file (at most ``MAX_ARCHIVE_BYTES``) and the folder
extracted from it (``web_service.store.install.archive``). The token goes to the API base only.

Every request has explicit timeouts (``TIMEOUT``: connect 5 s, each read 30 s) and a
deadline for the whole answer, so a host dripping a byte every few seconds cannot hold
the one store job runner for hours: ``LISTING_DEADLINE`` (the tree listing and the
branch head), ``RAW_DEADLINE`` (each raw file) within ``RAW_TOTAL_DEADLINE`` (all raw
files together, shared by the workers), ``ARCHIVE_DEADLINE`` (the ZIP archive); passing
one is ``DOWNLOAD_FAILED`` naming the file and saying "too slow" (a slow listing falls
back to the archive). Long before those deadlines, an answer whose body arrives at
less than ``MIN_RATE`` bytes a second, averaged over each ``RATE_WINDOW`` seconds (1 KiB/s
over 20 s: a plugin of a few hundred KiB then still arrives on the slowest link a Pi
sees, while a host trickling bytes frees the one store job runner within 20 s instead
of holding it and every queued job for minutes), fails the same way. The window is
``LEDPANEL_STORE_RATE_WINDOW`` (seconds, 0.2 to 300) when the environment sets it, as
the daemon tests do; unit tests set the module's constant. Limits are
``archive.MAX_FILES``,
``MAX_FILE_BYTES`` and ``MAX_TOTAL_BYTES``.

``folder_tree_sha`` takes an optional ``listing_cache`` (a dict the caller keeps for one
run) so checking many plugins of one monorepo lists each (repository, branch) once.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import tempfile
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import requests
import urllib3

from shared.http_fetch import FetchError, iter_body, network_words
from shared.version import CORE_VERSION
from web_service.store import repo_url as urls
from web_service.store.destinations import store_session
from web_service.store.errors import StoreError
from web_service.store.install.archive import (
    MAX_FILE_BYTES,
    MAX_FILES,
    MAX_TOTAL_BYTES,
    Progress,
    check_distinct_paths,
    extract_folder,
    open_new_file,
    safe_relative,
)

logger = logging.getLogger(__name__)

TIMEOUT = (5.0, 30.0)  # (connect, read) seconds, every request
LISTING_DEADLINE = 60.0  # seconds for the whole tree listing (and the branch head)
RAW_DEADLINE = 60.0  # seconds for each raw file
RAW_TOTAL_DEADLINE = 300.0  # seconds for all raw files of one download
ARCHIVE_DEADLINE = 300.0  # seconds for the whole ZIP archive
MIN_RATE = 1024  # bytes a second an answer's body must average ...
RATE_WINDOW = 20.0  # ... over each window of this many seconds
RATE_WINDOW_ENV = "LEDPANEL_STORE_RATE_WINDOW"
MAX_LISTING_BYTES = 20 * 1024 * 1024
MAX_ARCHIVE_BYTES = 200 * 1024 * 1024  # a whole monorepo's archive
RAW_WORKERS = 4  # raw files fetched at once
USER_AGENT = f"ledpanel/{CORE_VERSION}"
_NETWORK_ERRORS = (requests.RequestException, urllib3.exceptions.HTTPError, OSError)


@dataclass(frozen=True)
class DownloadInfo:
    """What was downloaded: head commit and folder tree id (None when unknown)."""

    commit: str | None
    tree_sha: str | None
    method: str  # "api" | "zip"
    files: int
    bytes: int


class _Fallback(Exception):
    """The API way cannot be used; the message says why."""


def download_folder(repo: str, branch: str, plugin_path: str, dest: Path, *, api_url: str,
                    token: str | None = None, progress: Progress | None = None,
                    session: requests.Session | None = None) -> DownloadInfo:
    """Download ``plugin_path`` of ``repo`` at ``branch`` into ``dest`` (created, empty)."""
    ref = urls.parse_repo_url(repo)
    branch = urls.check_branch(branch)
    plugin_path = urls.check_plugin_path(plugin_path)
    api = urls.api_base(api_url)
    dest = Path(dest)
    dest.mkdir(parents=True, exist_ok=False)
    own = session is None
    http = session or store_session()
    try:
        _report(progress, "listing", 0, 0, 0)
        try:
            tree_sha, blobs = _select(_listing(http, api, ref, branch, token), plugin_path, ref)
        except _Fallback as why:
            logger.warning("%s: using the ZIP archive: %s", ref.url, why)
            files, size = _zip_way(http, ref, branch, plugin_path, dest, progress)
            return DownloadInfo(None, None, "zip", files, size)
        commit = _head(http, api, ref, branch, token)
        files, size = _raw_way(http, ref, branch, plugin_path, blobs, dest, progress)
        return DownloadInfo(commit, tree_sha, "api", files, size)
    finally:
        if own:
            http.close()


def folder_tree_sha(repo: str, branch: str, plugin_path: str, *, api_url: str,
                    token: str | None = None, session: requests.Session | None = None,
                    listing_cache: dict[Any, Any] | None = None) -> str | None:
    """Return the git id of the plugin folder from one tree listing; None when unknown.

    With ``listing_cache`` each (API, repository, branch) is listed once for the life of
    that dict (a failed listing too is remembered); without it, every call lists.
    """
    ref = urls.parse_repo_url(repo)
    api, branch = urls.api_base(api_url), urls.check_branch(branch)
    key = (api, ref.url, branch)
    http = session or store_session()
    try:
        if listing_cache is not None and key in listing_cache:
            listing = listing_cache[key]
        else:
            try:
                listing = _listing(http, api, ref, branch, token)
            except _Fallback as why:
                listing = why
            if listing_cache is not None:
                listing_cache[key] = listing
        if isinstance(listing, _Fallback):
            raise listing
        return _select(listing, urls.check_plugin_path(plugin_path), ref)[0]
    except (_Fallback, StoreError) as why:
        logger.info("%s: no tree listing: %s", ref.url, why)
        return None
    finally:
        if session is None:
            http.close()


def api_headers(token: str | None) -> dict[str, str]:
    """Headers for the API base URL (the only place the token is ever sent)."""
    headers = {"User-Agent": USER_AGENT, "Accept": "application/vnd.github+json"}
    if token:
        headers["Authorization"] = f"token {token}"
    return headers


def _listing(http: requests.Session, api: str, ref: urls.RepoRef, branch: str,
             token: str | None) -> dict[str, Any]:
    url = urls.tree_url(api, ref, branch)
    deadline = _Deadline(LISTING_DEADLINE)
    try:
        response = http.get(url, headers=api_headers(token), timeout=TIMEOUT, stream=True)
        with response:
            if response.status_code in (403, 429):
                raise _Fallback(f"API rate limited (HTTP {response.status_code})")
            if response.status_code != 200:
                raise _Fallback(f"tree listing answered HTTP {response.status_code}")
            body = _read_capped(response, MAX_LISTING_BYTES, "the tree listing", deadline)
    except _NETWORK_ERRORS as err:
        raise _Fallback(f"tree listing failed: {network_words(err)}") from err
    except StoreError as err:
        raise _Fallback(err.message) from err
    try:
        listing = json.loads(body)
    except (ValueError, UnicodeDecodeError) as err:
        raise _Fallback(f"tree listing is not JSON: {err}") from err
    if not isinstance(listing, dict) or not isinstance(listing.get("tree"), list):
        raise _Fallback("tree listing has no 'tree' list")
    if listing.get("truncated") is True:
        raise _Fallback("tree listing is truncated")
    return listing


def _select(listing: dict[str, Any], plugin_path: str,
            ref: urls.RepoRef) -> tuple[str | None, list[tuple[str, str, int]]]:
    """Return the folder's tree id and its blobs as (path, sha, size), checked."""
    tree_sha: str | None = listing.get("sha") if not plugin_path else None
    prefix = f"{plugin_path}/" if plugin_path else ""
    blobs: list[tuple[str, str, int]] = []
    for entry in listing["tree"]:
        if not isinstance(entry, dict) or not isinstance(entry.get("path"), str):
            raise _Fallback("tree listing has a malformed entry")
        if plugin_path and entry["path"] == plugin_path and entry.get("type") == "tree":
            tree_sha = entry.get("sha") if isinstance(entry.get("sha"), str) else None
        blob = _blob(entry, prefix)
        if blob is not None:
            blobs.append(blob)
    _check_selection(blobs, plugin_path, ref)
    return tree_sha, blobs


def _blob(entry: dict[str, Any], prefix: str) -> tuple[str, str, int] | None:
    """Return a file under ``prefix`` as (relative path, sha, size), checked; None for
    anything else: other folders, sub-trees, submodules (type "commit")."""
    path = entry["path"]
    if not path.startswith(prefix) or entry.get("type") != "blob":
        return None
    relative = safe_relative(path[len(prefix):])
    if entry.get("mode") == "120000":
        raise StoreError(f"{relative}: symbolic links are not accepted", "UNSAFE_ARCHIVE")
    size, sha = entry.get("size"), entry.get("sha")
    if not isinstance(size, int) or size < 0 or not isinstance(sha, str):
        raise _Fallback(f"tree listing entry {path!r} lacks size or sha")
    if size > MAX_FILE_BYTES:
        raise StoreError(f"{relative}: {size} bytes, more than the {MAX_FILE_BYTES} "
                         "allowed per file", "TOO_LARGE")
    return relative, sha, size


def _check_selection(blobs: list[tuple[str, str, int]], plugin_path: str,
                     ref: urls.RepoRef) -> None:
    """Refuse an empty folder, clashing paths, too many files or too many bytes."""
    if not blobs:
        where = f"folder {plugin_path!r}" if plugin_path else "repository"
        raise StoreError(f"{ref.url}: the {where} has no files", "BAD_PLUGIN")
    check_distinct_paths([relative for relative, _sha, _size in blobs])
    if len(blobs) > MAX_FILES:
        raise StoreError(f"{len(blobs)} files, more than the {MAX_FILES} allowed", "TOO_LARGE")
    total = sum(size for _relative, _sha, size in blobs)
    if total > MAX_TOTAL_BYTES:
        raise StoreError(f"{total} bytes, more than the {MAX_TOTAL_BYTES} allowed", "TOO_LARGE")


def _head(http: requests.Session, api: str, ref: urls.RepoRef, branch: str,
          token: str | None) -> str | None:
    deadline = _Deadline(LISTING_DEADLINE)
    try:
        with http.get(urls.head_url(api, ref, branch), headers=api_headers(token),
                      timeout=TIMEOUT, stream=True) as response:
            if response.status_code != 200:
                logger.info("%s: branch head answered HTTP %s", ref.url, response.status_code)
                return None
            data = json.loads(_read_capped(response, 1024 * 1024, "the branch head",
                                           deadline))
    except (*_NETWORK_ERRORS, ValueError, StoreError) as err:
        logger.info("%s: branch head unknown: %s", ref.url, err)
        return None
    sha = data.get("sha") if isinstance(data, dict) else None
    return sha if isinstance(sha, str) else None


def _raw_way(http: requests.Session, ref: urls.RepoRef, branch: str, plugin_path: str,
             blobs: list[tuple[str, str, int]], dest: Path,
             progress: Progress | None) -> tuple[int, int]:
    """Fetch the files ``RAW_WORKERS`` at a time (a distant host's latency is paid per
    file); the first failure cancels what has not started and is raised."""

    overall = _Deadline(RAW_TOTAL_DEADLINE, words="the files did not all arrive within "
                                                  f"{RAW_TOTAL_DEADLINE:g} s")

    def fetch_one(relative: str, sha: str, size: int) -> int:
        path = f"{plugin_path}/{relative}" if plugin_path else relative
        deadline = _Deadline(RAW_DEADLINE, within=overall)
        if deadline.passed():
            raise StoreError(f"{relative}: too slow ({deadline.words})", "DOWNLOAD_FAILED")
        data = _fetch(http, urls.raw_url(ref, branch, path), size, relative, deadline)
        if len(data) != size or _blob_sha(data) != sha:
            raise StoreError(f"{relative}: download incomplete or changed ({len(data)} of "
                             f"{size} bytes)", "DOWNLOAD_FAILED")
        with os.fdopen(open_new_file(dest, relative), "wb") as out:
            out.write(data)
        return len(data)

    total = 0
    with ThreadPoolExecutor(RAW_WORKERS, thread_name_prefix="store-download") as pool:
        futures = [pool.submit(fetch_one, *blob) for blob in blobs]
        try:
            for done, future in enumerate(as_completed(futures), start=1):
                total += future.result()
                _report(progress, "downloading", total, done, len(blobs))
        finally:
            for future in futures:
                future.cancel()
    return len(blobs), total


class _Deadline:
    """The moment a whole answer must be in by, started when the request is sent; with
    ``within``, the earlier of its own and that one (whose words then explain it)."""

    def __init__(self, seconds: float, *, words: str | None = None,
                 within: _Deadline | None = None) -> None:
        self.at = time.monotonic() + seconds
        self.words = words or f"not complete within {seconds:g} s"
        if within is not None and within.at < self.at:
            self.at, self.words = within.at, within.words

    def passed(self) -> bool:
        return time.monotonic() >= self.at

    def body(self, response: requests.Response, what: str) -> Iterator[bytes]:
        """Yield the body as it arrives; raise DOWNLOAD_FAILED ("too slow") at the
        deadline, or when a window of ``RATE_WINDOW`` seconds brought less than
        ``MIN_RATE`` bytes a second (silence included: no read waits past a window)."""
        window, floor = rate_window(), MIN_RATE
        slow = f"under {floor / 1024:g} KiB/s for {window:g} s"
        started, received = time.monotonic(), 0
        try:
            for chunk in iter_body(response, self.at, min(TIMEOUT[1], window)):
                received += len(chunk)
                now = time.monotonic()
                if now - started >= window:
                    if received < floor * (now - started):
                        raise StoreError(f"{what}: too slow ({slow})", "DOWNLOAD_FAILED")
                    started, received = now, 0
                yield chunk
        except (FetchError, *_NETWORK_ERRORS) as err:
            # the last read waits only until the deadline, so it ends as a read timeout
            if isinstance(err, FetchError) or time.monotonic() >= self.at - 0.05:
                raise StoreError(f"{what}: too slow ({self.words})",
                                 "DOWNLOAD_FAILED") from err
            if _timed_out(err):
                raise StoreError(f"{what}: too slow ({slow})", "DOWNLOAD_FAILED") from err
            raise


def rate_window() -> float:
    """Seconds over which a body must average ``MIN_RATE`` (``LEDPANEL_STORE_RATE_WINDOW``,
    0.2 to 300; a value that is no number leaves ``RATE_WINDOW``)."""
    try:
        value = float(os.environ.get(RATE_WINDOW_ENV) or RATE_WINDOW)
    except ValueError:
        return RATE_WINDOW
    return min(max(value, 0.2), 300.0) if value == value else RATE_WINDOW


def _timed_out(err: BaseException) -> bool:
    return isinstance(err, requests.Timeout | TimeoutError | urllib3.exceptions.TimeoutError)


def _fetch(http: requests.Session, url: str, limit: int, what: str,
           deadline: _Deadline) -> bytes:
    # waiting for the answer's headers counts too: never past the deadline
    wait = max(0.1, min(TIMEOUT[1], deadline.at - time.monotonic()))
    try:
        with http.get(url, headers={"User-Agent": USER_AGENT}, timeout=(TIMEOUT[0], wait),
                      stream=True) as response:
            if response.status_code != 200:
                raise StoreError(f"{what}: the host answered HTTP {response.status_code}",
                                 "DOWNLOAD_FAILED")
            return _read_capped(response, limit, what, deadline)
    except _NETWORK_ERRORS as err:
        if deadline.passed():
            raise StoreError(f"{what}: too slow ({deadline.words})",
                             "DOWNLOAD_FAILED") from err
        raise StoreError(f"{what}: download failed: {network_words(err)}",
                         "DOWNLOAD_FAILED") from err


def _read_capped(response: requests.Response, limit: int, what: str,
                 deadline: _Deadline) -> bytes:
    body = bytearray()
    for chunk in deadline.body(response, what):  # ends at the end, the limit or deadline
        body += chunk
        if len(body) > limit:
            raise StoreError(f"{what}: more than the {limit} bytes expected", "TOO_LARGE")
    declared = _plain_length(response)
    if declared is not None and declared != len(body):
        raise StoreError(f"{what}: download cut off ({len(body)} of {declared} bytes)",
                         "DOWNLOAD_FAILED")
    return bytes(body)


def _zip_way(http: requests.Session, ref: urls.RepoRef, branch: str, plugin_path: str,
             dest: Path, progress: Progress | None) -> tuple[int, int]:
    url = urls.zip_url(ref, branch)
    fd, name = tempfile.mkstemp(prefix=".archive-", suffix=".zip", dir=dest.parent)
    try:
        with os.fdopen(fd, "wb") as out:
            _stream_to(http, url, out, progress)
        return extract_folder(Path(name), plugin_path, dest, progress)
    finally:
        Path(name).unlink(missing_ok=True)


def _stream_to(http: requests.Session, url: str, out: Any, progress: Progress | None) -> None:
    what = f"the archive {url.rsplit('/', 1)[-1]}"
    received = 0
    deadline = _Deadline(ARCHIVE_DEADLINE)
    try:
        with http.get(url, headers={"User-Agent": USER_AGENT}, timeout=TIMEOUT,
                      stream=True) as response:
            if response.status_code in (403, 429):
                raise StoreError(f"{what}: the host is rate limiting (HTTP "
                                 f"{response.status_code})", "RATE_LIMITED")
            if response.status_code != 200:
                raise StoreError(f"{what}: the host answered HTTP {response.status_code}",
                                 "DOWNLOAD_FAILED")
            for chunk in deadline.body(response, what):  # ends at the end, cap or deadline
                received += len(chunk)
                if received > MAX_ARCHIVE_BYTES:
                    raise StoreError(f"{what}: more than {MAX_ARCHIVE_BYTES} bytes",
                                     "TOO_LARGE")
                out.write(chunk)
                _report(progress, "downloading", received, 0, 1)
            declared = _plain_length(response)
            if declared is not None and declared != received:
                raise StoreError(f"{what}: download cut off ({received} of {declared} "
                                 "bytes)", "DOWNLOAD_FAILED")
    except _NETWORK_ERRORS as err:
        raise StoreError(f"{what}: download failed: {network_words(err)}",
                         "DOWNLOAD_FAILED") from err


def _plain_length(response: requests.Response) -> int | None:
    """Return the declared body length when the body is sent as is (not compressed)."""
    declared = response.headers.get("Content-Length", "")
    encoding = response.headers.get("Content-Encoding", "identity").strip().lower()
    return int(declared) if declared.isdigit() and encoding == "identity" else None


def _blob_sha(data: bytes) -> str:
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


def _report(progress: Progress | None, step: str, size: int, done: int, total: int) -> None:
    if progress is not None:
        progress({"step": step, "bytes": size, "files_done": done, "files_total": total})
