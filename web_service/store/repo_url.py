"""Repository URLs: parse what a user or registry gives, build the host's URLs from it.

A repository is ``<scheme>://<host>[:port]/<owner>/<name>`` (http or https only), with an
optional ``.git`` suffix or the browser form ``.../tree/<branch>/<path>`` naming a branch
and a plugin folder. Anything else is refused with ``BAD_REPO_URL``. The host's URLs:

- tree listing ``{api}/repos/{owner}/{name}/git/trees/{branch}?recursive=1``
- branch head ``{api}/repos/{owner}/{name}/commits/{branch}``
- raw file ``{repo}/raw/{branch}/{path}`` (the real host redirects it; follow redirects)
- ZIP archive ``{repo}/archive/refs/heads/{branch}.zip`` (one top folder inside)
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import SplitResult, quote, urlsplit

from web_service.store.errors import StoreError

_SEGMENT = re.compile(r"[A-Za-z0-9_.-]{1,100}")
_BRANCH = re.compile(r"[A-Za-z0-9_./-]{1,200}")
MAX_URL = 2000


@dataclass(frozen=True)
class RepoRef:
    """A checked repository: ``url`` is ``base/owner/name`` without ``.git``."""

    base: str
    owner: str
    name: str
    branch: str | None = None
    plugin_path: str = ""

    @property
    def url(self) -> str:
        return f"{self.base}/{self.owner}/{self.name}"


def parse_repo_url(url: object) -> RepoRef:
    """Return the repository a URL names; raise StoreError(BAD_REPO_URL) for anything else."""
    text, parts = _split(url)
    segments = [s for s in parts.path.split("/")]
    if segments and segments[0] == "":
        segments = segments[1:]
    if segments and segments[-1] == "":
        segments = segments[:-1]
    if len(segments) < 2:
        raise StoreError(f"{_short(text)}: expected http(s)://host/owner/name", "BAD_REPO_URL")
    owner, name = _owner_and_name(text, segments)
    branch, plugin_path = _tree_part(text, segments[2:])
    base = f"{parts.scheme}://{parts.netloc}"
    return RepoRef(base=base, owner=owner, name=name, branch=branch, plugin_path=plugin_path)


def _split(url: object) -> tuple[str, SplitResult]:
    """Return the stripped URL and its parts: http(s), a host, no user, query or fragment."""
    if not isinstance(url, str) or not url.strip() or len(url) > MAX_URL:
        raise StoreError("repository URL is required (http(s)://host/owner/name)",
                         "BAD_REPO_URL")
    text = url.strip()
    parts = urlsplit(text)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise StoreError(f"{_short(text)} is not an http(s) repository URL", "BAD_REPO_URL")
    if parts.username or parts.password or parts.query or parts.fragment:
        raise StoreError(f"{_short(text)}: a repository URL has no user, query or fragment",
                         "BAD_REPO_URL")
    return text, parts


def _owner_and_name(text: str, segments: list[str]) -> tuple[str, str]:
    """Return the first two path segments, checked; ``.git`` is dropped from a bare name."""
    owner, name = segments[0], segments[1]
    if name.endswith(".git") and len(segments) == 2:
        name = name[:-4]
    for segment in (owner, name):
        if not _SEGMENT.fullmatch(segment) or segment in (".", ".."):
            raise StoreError(f"{_short(text)}: {segment!r} is not a valid owner or name",
                             "BAD_REPO_URL")
    return owner, name


def _tree_part(text: str, rest: list[str]) -> tuple[str | None, str]:
    """Return the branch and plugin folder of a ``.../tree/<branch>/<path>`` tail."""
    if not rest:
        return None, ""
    if rest[0] != "tree" or len(rest) < 2:
        raise StoreError(f"{_short(text)}: expected http(s)://host/owner/name or "
                         ".../tree/<branch>/<path>", "BAD_REPO_URL")
    return check_branch(rest[1]), check_plugin_path("/".join(rest[2:]))


def check_branch(branch: object) -> str:
    """Return a branch name safe to put in a URL; raise BAD_REPO_URL otherwise."""
    if not isinstance(branch, str) or not _BRANCH.fullmatch(branch) \
            or any(p in ("", ".", "..") for p in branch.split("/")):
        raise StoreError(f"branch {str(branch)[:100]!r} is not a valid branch name",
                         "BAD_REPO_URL")
    return branch


def check_plugin_path(path: object) -> str:
    """Return a relative folder path inside a repository (``""`` for the root)."""
    if path is None or path == "":
        return ""
    if not isinstance(path, str) or len(path) > 500 or "\\" in path or "\x00" in path:
        raise StoreError(f"plugin path {str(path)[:100]!r} is not a folder path",
                         "BAD_REPO_URL")
    parts = path.strip("/").split("/")
    if path.startswith("/") or any(p in ("", ".", "..") for p in parts):
        raise StoreError(f"plugin path {path[:100]!r} must be a relative folder path",
                         "BAD_REPO_URL")
    return "/".join(parts)


def api_base(api_url: str) -> str:
    """Return the API base URL without a trailing slash, refusing non-http(s) URLs."""
    if not isinstance(api_url, str) or urlsplit(api_url).scheme not in ("http", "https"):
        raise StoreError(f"API URL {str(api_url)[:100]!r} is not http(s)", "BAD_REPO_URL")
    return api_url.rstrip("/")


def tree_url(api_url: str, repo: RepoRef, branch: str) -> str:
    return (f"{api_base(api_url)}/repos/{repo.owner}/{repo.name}/git/trees/"
            f"{quote(branch, safe='/')}?recursive=1")


def head_url(api_url: str, repo: RepoRef, branch: str) -> str:
    return f"{api_base(api_url)}/repos/{repo.owner}/{repo.name}/commits/{quote(branch, safe='/')}"


def raw_url(repo: RepoRef, branch: str, path: str) -> str:
    return f"{repo.url}/raw/{quote(branch, safe='/')}/{quote(path, safe='/')}"


def zip_url(repo: RepoRef, branch: str) -> str:
    return f"{repo.url}/archive/refs/heads/{quote(branch, safe='/')}.zip"


def _short(text: str) -> str:
    return repr(text if len(text) <= 100 else text[:97] + "...")
