"""The git commands of a core update, each bounded in time, on the install's checkout.

Every command runs with ``core.fileMode=false`` (a change of a file's mode alone is no
local change) and with the checkout named safe (the web, running as another user than
the checkout's owner, reads it too). Never a prompt: ``GIT_TERMINAL_PROMPT=0``.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Mapping
from pathlib import Path

from shared.core_update.limits import FETCH_TIMEOUT, GIT_LOCAL_TIMEOUT

PLUGIN_FOLDERS = ("plugins/", "plugin-repos/")
DEPENDENCY_FILES = ("pyproject.toml", "requirements.txt", "web_service/requirements.txt")
MAX_COMMITS = 200
_OUTPUT_LIMIT = 400


class GitError(Exception):
    """A git command failed or ran out of time; the message names it and its output."""


def git(root: Path, *args: str, timeout: float = GIT_LOCAL_TIMEOUT,
        env: Mapping[str, str] | None = None) -> str:
    """Run ``git args`` in ``root`` (``env`` added to the environment); return its
    standard output or raise GitError."""
    argv = ["git", "-c", f"safe.directory={root}", "-c", "core.fileMode=false",
            "-C", str(root), *args]
    env = {**os.environ, "GIT_TERMINAL_PROMPT": "0", "LC_ALL": "C", **(env or {})}
    try:
        done = subprocess.run(argv, capture_output=True, timeout=timeout, env=env,
                              stdin=subprocess.DEVNULL, check=False)
    except subprocess.TimeoutExpired as err:
        raise GitError(f"git {args[0]} took longer than {timeout:g} s; stopped") from err
    except OSError as err:
        raise GitError(f"git could not run ({err.strerror}); is git installed?") from err
    if done.returncode != 0:
        text = (done.stderr or done.stdout).decode("utf-8", "replace").strip()
        raise GitError(f"git {args[0]} failed (exit {done.returncode}): "
                       f"{text[-_OUTPUT_LIMIT:] or 'no output'}")
    return done.stdout.decode("utf-8", "replace")


def head(root: Path) -> str:
    """Return the commit the checkout is on."""
    return git(root, "rev-parse", "--verify", "HEAD^{commit}").strip()


def upstream(root: Path) -> str:
    """Return the commit of the branch the checkout follows, as last fetched."""
    return git(root, "rev-parse", "--verify", "@{upstream}^{commit}").strip()


def branch(root: Path) -> str | None:
    """Return the checked-out branch, or None on a detached HEAD."""
    name = git(root, "rev-parse", "--abbrev-ref", "HEAD").strip()
    return None if name == "HEAD" else name


def local_changes(root: Path) -> list[str]:
    """Return the tracked files changed outside the plugin folders (mode-only ignored)."""
    out = git(root, "status", "--porcelain=v1", "-z", "--untracked-files=no")
    fields = out.split("\0")
    changed: list[str] = []
    index = 0
    while index < len(fields):
        entry = fields[index]
        index += 1
        if len(entry) < 4:
            continue
        if entry[0] in "RC":  # a rename's source follows as its own field
            index += 1
        path = entry[3:]
        if not path.startswith(PLUGIN_FOLDERS):
            changed.append(path)
    return changed


def stash(root: Path, paths: list[str], label: str) -> None:
    """Stash the changes to ``paths`` only: the plugin folders are left as they are."""
    git(root, "stash", "push", "--message", label, "--", *paths)


def fetch(root: Path, timeout: float = FETCH_TIMEOUT) -> None:
    """Fetch the followed branch's remote."""
    git(root, "fetch", "--quiet", "--no-tags", timeout=timeout)


def incoming(root: Path, old: str, new: str,
             env: Mapping[str, str] | None = None) -> list[dict[str, str]]:
    """Return the commits ``new`` brings over ``old``, newest first (at most 200)."""
    out = git(root, "log", f"--max-count={MAX_COMMITS}", "--format=%H%x1f%an%x1f%aI%x1f%s",
              f"{old}..{new}", env=env)
    commits = []
    for line in out.splitlines():
        parts = line.split("\x1f")
        if len(parts) == 4:
            commits.append({"commit": parts[0], "author": parts[1][:200], "date": parts[2],
                            "subject": parts[3][:300]})
    return commits


def dependency_changes(root: Path, old: str, new: str,
                       env: Mapping[str, str] | None = None) -> list[str]:
    """Return the dependency files that differ between ``old`` and ``new``."""
    out = git(root, "diff", "--name-only", old, new, "--", *DEPENDENCY_FILES, env=env)
    return [line for line in out.splitlines() if line]


def is_ancestor(root: Path, old: str, new: str) -> bool:
    """True when ``new`` contains ``old`` (the checkout can move forward to it)."""
    try:
        git(root, "merge-base", "--is-ancestor", old, new)
    except GitError as err:
        if "(exit 1)" in str(err):
            return False
        raise
    return True


def merge(root: Path, new: str) -> None:
    """Move the checkout forward to ``new`` (fast-forward only)."""
    git(root, "merge", "--ff-only", "--quiet", new)


def restore(root: Path, old: str) -> None:
    """Put the checkout back on ``old``, keeping local changes the move does not touch
    (the plugin folders' among them)."""
    git(root, "reset", "--keep", old)
