"""Install, replace and uninstall plugin folders, all or nothing.

An install downloads into ``<plugins_dir>/.store-staging/<random>/``, checks the folder
(``checks.check_plugin``), writes the record ``.ledpanel-store.json`` last, installs the
staged ``requirements.txt`` with pip into the staged folder's ``.ledpanel-deps/``, pinned
to the core's own dependencies (a failure stops the install there: the previous folder
was never moved; a download already holding that folder is refused), then swaps: the
existing
``<plugins_dir>/<id>`` is renamed into ``.store-trash/`` and the staged folder renamed
into place. A development link or checkout (a symlink, or a folder holding ``.git``)
claiming the id, by its name or its manifest, in the plugins directory or one of
``also_dirs`` (the development folder), is never shadowed or replaced: the install is
refused with ``LOCAL_CHECKOUT`` before the download and again right before the swap
(pip may have run for minutes). Uninstall refuses a checkout too; a link it unlinks.
On any failure the previous install is left byte for byte as it was and no staging or
trash is left behind. One plugin's installs and uninstalls exclude each other across
processes through a lock file (``staging.plugin_lock``: the second gets ``BUSY``).
``staging.recover`` finishes what a crash interrupted; call it at start-up.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import sys
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from shared.files.jsonfile import atomic_write_bytes
from shared.ids import is_plain_segment
from shared.plugin_system.dependencies import DEPS_FOLDER, deps_dir
from shared.plugin_system.discovery import discover
from web_service.store.errors import StoreError
from web_service.store.install import staging
from web_service.store.install.archive import Progress, extract_upload
from web_service.store.install.checks import check_plugin
from web_service.store.install.staging import recover  # noqa: F401 (part of this module's surface)

if TYPE_CHECKING:  # requests and packaging load with the first download, not at start
    import requests

logger = logging.getLogger(__name__)

RECORD_FILE = ".ledpanel-store.json"
PIP_TIMEOUT = 600


@dataclass(frozen=True)
class InstallSource:
    """Where a plugin comes from: a registry entry, or a repository URL (``repo_url``)."""

    repo: str
    plugin_id: str | None = None
    branch: str = "main"
    plugin_path: str = ""
    registry_url: str | None = None
    latest_version: str | None = None
    last_updated: str | None = None
    kind: str = "registry"  # "registry" | "repo_url" | "upload"
    archive: Path | None = None  # an uploaded ZIP (kind "upload"), its name in ``repo``

    def where(self) -> str:
        """Where the files come from, in words (the log, job descriptions)."""
        return f"the uploaded {self.repo}" if self.kind == "upload" else self.repo


@dataclass(frozen=True)
class InstallResult:
    plugin_id: str
    version: str | None
    previous_version: str | None
    record: dict[str, Any]


def install_plugin(source: InstallSource, plugins_dir: Path, *, api_url: str,
                   token: str | None = None, progress: Progress | None = None,
                   python: str = sys.executable, pip_timeout: float = PIP_TIMEOUT,
                   session: requests.Session | None = None,
                   also_dirs: list[Path] | None = None) -> InstallResult:
    """Install or replace one plugin from ``source`` into ``plugins_dir``, all or nothing.

    ``also_dirs`` are the other folders plugins load from (the development one): a
    development link or checkout there claiming the id refuses the install too.
    """
    plugins_dir = Path(plugins_dir)
    dirs = [plugins_dir, *(Path(d) for d in also_dirs or []
                           if Path(d) != plugins_dir)]
    if source.kind not in ("registry", "repo_url", "upload"):
        raise StoreError(f"unknown install source kind {source.kind!r}", "BAD_REPO_URL")
    if source.plugin_id is not None:
        _check_id(source.plugin_id)
        refuse_local_checkout(source.plugin_id, dirs)
    plugins_dir.mkdir(parents=True, exist_ok=True)
    with contextlib.ExitStack() as stack:
        stack.callback(staging.tidy, plugins_dir)  # last: after the lock file is gone
        if source.plugin_id is not None:
            stack.enter_context(staging.plugin_lock(plugins_dir, source.plugin_id))
        work = staging.new_work_dir(plugins_dir)
        stack.callback(staging.remove_tree, work)
        staged = work / "plugin"
        info = _fetch(source, staged, api_url=api_url, token=token, progress=progress,
                      session=session)
        manifest = check_plugin(staged, source.plugin_id)
        plugin_id = manifest["id"]
        if source.plugin_id is None:
            stack.enter_context(staging.plugin_lock(plugins_dir, plugin_id))
            refuse_local_checkout(plugin_id, dirs)
        version = manifest.get("version") if isinstance(manifest.get("version"), str) else None
        record = _install_record(source, plugin_id, info, version)
        atomic_write_bytes(staged / RECORD_FILE, json.dumps(record, indent=2).encode())
        # Dependencies first, from the staged folder: the installed plugin stays where
        # it is (and keeps running) until the new one has all it needs.
        refuse_shipped_deps(staged, plugin_id)
        requirements = staged / "requirements.txt"
        if requirements.is_file() and not requirements.is_symlink():
            from web_service.store.install.requirements import install_requirements

            install_requirements(plugin_id, requirements, python=python,
                                 timeout=pip_timeout)
        target = plugins_dir / plugin_id
        previous = installed_version(target)
        _swap(plugins_dir, plugin_id, staged, target, dirs)
        logger.info("%s: installed version %s (was %s) from %s by %s", plugin_id, version,
                    previous, source.where(), info.method)
        return InstallResult(plugin_id, version, previous, record)
    raise AssertionError("unreachable")  # pragma: no cover (ExitStack swallows nothing)


def _fetch(source: InstallSource, staged: Path, *, api_url: str, token: str | None,
           progress: Progress | None, session: requests.Session | None) -> Any:
    """Put the plugin's files into ``staged``; return what ``DownloadInfo`` says."""
    from web_service.store.install.download import DownloadInfo, download_folder  # requests

    if source.kind == "upload":
        assert source.archive is not None
        files, size = extract_upload(source.archive, staged, progress)
        return DownloadInfo(None, None, "upload", files, size)
    return download_folder(source.repo, source.branch, source.plugin_path, staged,
                           api_url=api_url, token=token, progress=progress, session=session)


def refuse_shipped_deps(staged: Path, plugin_id: str) -> None:
    """Raise UNSAFE_REQUIREMENTS when the download holds the folder the store installs
    the plugin's requirements into: only pip, run by the store, fills it."""
    if os.path.lexists(deps_dir(staged)):
        raise StoreError(f"{plugin_id}: the plugin's files include {DEPS_FOLDER}, the "
                         "folder the store installs its requirements into; remove it from "
                         "the repository", "UNSAFE_REQUIREMENTS")


def _install_record(source: InstallSource, plugin_id: str, info: Any,
                    version: str | None) -> dict[str, Any]:
    """Return what the store keeps in an installed plugin's folder about its source."""
    return {
        "plugin_id": plugin_id, "source": source.kind,
        "registry_url": source.registry_url,
        "repo": source.repo if source.kind != "upload" else None,
        "upload": source.repo if source.kind == "upload" else None,
        "branch": source.branch, "plugin_path": source.plugin_path,
        "commit": info.commit, "tree_sha": info.tree_sha, "version": version,
        "last_updated": source.last_updated,
        "installed_at": datetime.now(UTC).isoformat(timespec="seconds"),
    }


def _swap(plugins_dir: Path, plugin_id: str, staged: Path, target: Path,
          dirs: list[Path]) -> None:
    """Rename the previous folder (if any) into the trash and ``staged`` to ``target``.

    Everything that can fail (download, checks, requirements) ran before, so this is two
    renames; if the second fails the previous folder is renamed back, and a crash between
    them is undone by ``staging.recover``. The previous folder is then deleted. A
    development link or checkout that appeared meanwhile still refuses it.
    """
    refuse_local_checkout(plugin_id, dirs)
    trash: Path | None = None
    if os.path.lexists(target):
        trash = staging.trash_path(plugins_dir, plugin_id)
        os.rename(target, trash)
    try:
        os.rename(staged, target)
    except OSError:
        if trash is not None:
            os.rename(trash, target)
        raise
    if trash is not None:
        staging.remove_tree(trash)


def refuse_local_checkout(plugin_id: str, dirs: list[Path]) -> None:
    """Raise LOCAL_CHECKOUT when a folder of ``dirs`` claiming ``plugin_id`` (named so,
    or by its manifest's id) is a development link or a git checkout."""
    for folder in dirs:
        claims = [Path(folder) / plugin_id]
        claims += [info.directory for info in discover(Path(folder), log=False)
                   if info.id == plugin_id and info.directory not in claims]
        for path in claims:
            _refuse_checkout(plugin_id, path, Path(folder) / plugin_id,
                             "remove it to install from the store")


def _refuse_checkout(plugin_id: str, path: Path, usual: Path, advice: str) -> None:
    if path.is_symlink():
        where = os.readlink(path) if path == usual else f"{path} -> {os.readlink(path)}"
        raise StoreError(f"{plugin_id} is a development link ({where}); {advice}",
                         "LOCAL_CHECKOUT")
    if os.path.lexists(path / ".git"):
        raise StoreError(f"{plugin_id} is a development checkout ({path} has .git); "
                         f"{advice}", "LOCAL_CHECKOUT")


def uninstall_plugin(plugin_id: str, plugins_dirs: list[Path]) -> Path:
    """Remove the plugin from the first of ``plugins_dirs`` holding it; return that path.

    A development symlink is removed as a link (what it points at is never touched);
    a real folder is moved to the trash, then deleted; a development checkout (a folder
    holding ``.git``) is refused with LOCAL_CHECKOUT: the user's work is removed by hand.
    """
    _check_id(plugin_id)
    for folder in plugins_dirs:
        target = Path(folder) / plugin_id
        if target.is_symlink():
            target.unlink()
            logger.info("%s: removed the development link %s", plugin_id, target)
            return target
        if target.is_dir():
            _refuse_checkout(plugin_id, target, target, "remove it by hand")
            try:
                with staging.plugin_lock(folder, plugin_id):
                    _refuse_checkout(plugin_id, target, target, "remove it by hand")
                    trash = staging.trash_path(folder, plugin_id, removed=True)
                    os.rename(target, trash)
                    staging.remove_tree(trash)
            finally:
                staging.tidy(folder)
            logger.info("%s: uninstalled from %s", plugin_id, folder)
            return target
    raise StoreError(f"{plugin_id} is not installed", "NOT_INSTALLED")


def read_record(folder: Path) -> dict[str, Any] | None:
    """Return a plugin folder's store record, or None when absent or unreadable."""
    path = Path(folder) / RECORD_FILE
    try:
        if path.is_symlink() or not path.is_file() or path.stat().st_size > 64 * 1024:
            return None
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def installed_version(folder: Path) -> str | None:
    """Return the version in a plugin folder's manifest, or None."""
    try:
        path = Path(folder) / "manifest.json"
        if not path.is_file() or path.stat().st_size > 1024 * 1024:
            return None
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    version = data.get("version") if isinstance(data, dict) else None
    return version if isinstance(version, str) else None


def _check_id(plugin_id: object) -> None:
    if not is_plain_segment(plugin_id):
        raise StoreError(f"plugin id {str(plugin_id)[:100]!r} is not a plain name",
                         "INVALID_PLUGIN_ID")
