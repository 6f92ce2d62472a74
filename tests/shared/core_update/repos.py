"""Real git repositories for core update tests: a bare origin, a publisher's clone that
pushes releases, and a clone as the install (with a fake ``.venv`` python recording pip).

A release's ``check.sh`` is its health check (``LEDPANEL_UPDATE_HEALTH_COMMAND``): a
release that fails it is published with ``healthy=False``.
"""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from tests.fake_commands import calls, fake_command, path_with

ROOT = Path(__file__).resolve().parents[3]
GIT_ENV = {"GIT_AUTHOR_NAME": "Release", "GIT_AUTHOR_EMAIL": "release@example.invalid",
           "GIT_COMMITTER_NAME": "Release", "GIT_COMMITTER_EMAIL": "release@example.invalid",
           "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1"}


def git(cwd: Path, *args: str) -> str:
    done = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True,
                          env={**os.environ, **GIT_ENV}, check=True)
    return done.stdout.strip()


@dataclass
class Repos:
    origin: Path
    publisher: Path
    install: Path
    cache: Path
    bin: Path

    def release(self, message: str, files: dict[str, str], *, healthy: bool = True) -> str:
        """Commit ``files`` (and the health check's verdict, unless ``files`` has its own
        ``check.sh``) and push; return the commit."""
        files = {"check.sh": "exit 0\n" if healthy else "echo broken >&2; exit 1\n", **files}
        for name, text in files.items():
            path = self.publisher / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text)
        git(self.publisher, "add", "-A")
        git(self.publisher, "commit", "-q", "-m", message)
        git(self.publisher, "push", "-q", "origin", "main")
        return git(self.publisher, "rev-parse", "HEAD")

    def head(self) -> str:
        return git(self.install, "rev-parse", "HEAD")

    def env(self, **extra: str) -> dict[str, str]:
        return {**os.environ, **GIT_ENV, "PATH": path_with(self.bin),
                "LEDPANEL_SUPERVISOR": "systemd", "LEDPANEL_CACHE_DIR": str(self.cache),
                "LEDPANEL_UPDATE_HEALTH_COMMAND": "sh check.sh", **extra}

    def pip_calls(self) -> list[list[str]]:
        return calls(self.install / ".venv" / "bin", "python")

    def systemctl_calls(self) -> list[list[str]]:
        return calls(self.bin, "systemctl")


def make_repos(tmp: Path) -> Repos:
    """Build the origin with a first release and clone it as the install."""
    origin, publisher, install = tmp / "origin.git", tmp / "publisher", tmp / "install"
    git(tmp, "init", "-q", "--bare", "-b", "main", str(origin))
    git(tmp, "clone", "-q", str(origin), str(publisher))
    git(publisher, "checkout", "-q", "-b", "main")
    repos = Repos(origin, publisher, install, tmp / "cache", tmp / "bin")
    repos.release("first release", {
        ".gitignore": ".venv/\n/plugins/*\n!/plugins/.gitkeep\n",
        "pyproject.toml": "[project]\nname = 'x'\n", "core.py": "VERSION = 1\n",
        "plugins/.gitkeep": "", "plugin-repos/clock/manifest.json": "{}\n"})
    git(tmp, "clone", "-q", str(origin), str(install))
    fake_command(install / ".venv" / "bin", "python")
    fake_command(repos.bin, "systemctl")
    return repos


def run_update(repos: Repos, request: dict[str, object] | None = None,
               **env: str) -> subprocess.CompletedProcess[str]:
    """Write ``request`` and run the updater as the unit does; return the finished run."""
    if request is not None:
        from shared.core_update.state import write_request

        write_request(repos.cache, request)
    return subprocess.run(
        [sys.executable, "-m", "shared.core_update", "--root", str(repos.install),
         "--cache-dir", str(repos.cache)],
        cwd=ROOT, env=repos.env(**env), capture_output=True, text=True, timeout=120,
        check=False)
