"""Helpers for the installer's tests: tree hashes, sources, leftovers."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from tests.web_service.store.repo_host import RepoHost
from tests.web_service.store.sample_plugins import plugin_files
from web_service.store.install.folders import InstallSource

OWNER, MONO = "acme", "ledpanel-plugins"


def tree_hash(folder: Path) -> str:
    """A hash of every path, kind, mode and content below ``folder`` (links not followed)."""
    digest = hashlib.sha256()
    for current, dirs, files in sorted(os.walk(folder)):
        dirs.sort()
        for name in sorted(dirs + files):
            path = Path(current) / name
            info = path.lstat()
            digest.update(f"{path.relative_to(folder)}\0{info.st_mode}\0".encode())
            if path.is_symlink():
                digest.update(os.readlink(path).encode())
            elif path.is_file():
                digest.update(path.read_bytes())
    return digest.hexdigest()


def push_mono(host: RepoHost, plugin_id: str, **kwargs: object) -> str:
    """Put ``plugin_id`` in the monorepo at ``plugins/<id>``; return the head."""
    return host.push(OWNER, MONO, plugin_files(plugin_id, **kwargs),  # type: ignore[arg-type]
                     under=f"plugins/{plugin_id}", replace=True)


def mono_source(host: RepoHost, plugin_id: str, **more: object) -> InstallSource:
    """A registry install source for ``plugins/<id>`` of the monorepo."""
    return InstallSource(repo=host.repo_url(OWNER, MONO), plugin_id=plugin_id,
                         plugin_path=f"plugins/{plugin_id}",
                         registry_url=f"{host.url}/plugins.json", **more)  # type: ignore[arg-type]


def leftovers(plugins_dir: Path) -> list[str]:
    """Store working folders left in a plugins directory (should be none)."""
    return sorted(p.name for p in plugins_dir.iterdir() if p.name.startswith(".store-"))
