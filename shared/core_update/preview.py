"""What the install is and what an update would bring, without writing to the checkout.

The web daemon runs as a user that cannot write the install's ``.git`` (root owns it), so
``check_update`` asks the remote for the followed branch's commit (``git ls-remote``) and
fetches it into a temporary object folder, with the checkout's objects as alternates and
no ref (an empty ``--refmap``), FETCH_HEAD or maintenance written: the checkout stays
exactly as it was.
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from shared.core_update import git
from shared.core_update.git import GitError

CHECK_TIMEOUT = 30.0  # the fetch behind GET /system/check-update, a web request
_READ_ONLY = ("-c", "gc.auto=0", "-c", "maintenance.auto=false",
              "-c", "fetch.writeCommitGraph=false")


def is_checkout(root: Path) -> bool:
    """True when ``root`` is the top of a git checkout."""
    return (root / ".git").exists()


def shown_url(url: str) -> str:
    """Return ``url`` without a user name or password in it."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return ""
    if parts.scheme and parts.hostname:
        host = parts.hostname + (f":{parts.port}" if parts.port else "")
        return urlunsplit((parts.scheme, host, parts.path, "", ""))
    return url if "@" not in url else url.split("@", 1)[1]


def git_info(root: Path) -> dict[str, Any]:
    """Return the checkout's branch, commit, what it follows and its local changes."""
    if not is_checkout(root):
        return {"is_checkout": False, "root": str(root)}
    commit = git.head(root)
    line = git.git(root, "log", "-1", "--format=%aI%x1f%s", commit).strip().split("\x1f")
    branch = git.branch(root)
    try:
        upstream = git.git(root, "rev-parse", "--abbrev-ref", "@{upstream}").strip()
    except GitError:
        upstream = None
    remote = upstream.split("/", 1)[0] if upstream else "origin"
    try:
        url = shown_url(git.git(root, "remote", "get-url", remote).strip())
    except GitError:
        url = None
    return {"is_checkout": True, "root": str(root), "branch": branch, "commit": commit,
            "short_commit": commit[:12], "commit_date": line[0] if line else None,
            "subject": line[1][:300] if len(line) > 1 else None, "upstream": upstream,
            "remote_url": url, "local_changes": git.local_changes(root)}


def check_update(root: Path, timeout: float = CHECK_TIMEOUT) -> dict[str, Any]:
    """Return the commits the followed branch has over the checkout and whether dependency
    files change; raise GitError when the remote cannot be read."""
    info = git.git(root, "rev-parse", "--abbrev-ref", "@{upstream}").strip()
    remote, _, branch = info.partition("/")
    listed = git.git(root, "ls-remote", remote, f"refs/heads/{branch}", timeout=timeout)
    if not listed.strip():
        raise GitError(f"the remote {remote} has no branch {branch}")
    new = listed.split()[0]
    old = git.head(root)
    with tempfile.TemporaryDirectory(prefix="ledpanel-check-") as objects:
        env = {"GIT_OBJECT_DIRECTORY": objects,
               "GIT_ALTERNATE_OBJECT_DIRECTORIES": _objects_dir(root)}
        git.git(root, *_READ_ONLY, "fetch", "--quiet", "--no-tags", "--no-write-fetch-head",
                "--refmap=", remote, f"refs/heads/{branch}", timeout=timeout, env=env)
        commits = git.incoming(root, old, new, env=env)
        deps = git.dependency_changes(root, old, new, env=env) if commits else []
    return {"current": old, "latest": new, "update_available": bool(commits),
            "commits": commits, "dependency_files_changed": deps,
            "dependencies_change": bool(deps), "upstream": info}


def _objects_dir(root: Path) -> str:
    common = git.git(root, "rev-parse", "--git-common-dir").strip()
    return str((root / common / "objects").resolve())
