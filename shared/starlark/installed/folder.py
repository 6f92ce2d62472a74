"""The installed apps' folder: ``<assets>/plugins/starlark-apps/apps/<app_id>/``.

Each app's folder holds its files as packaged (its main ``.star``, helper ``.star``
files, images, ``manifest.yaml``) and ``INFO_FILE``: what we know of it (main file,
name, summary, where it came from, when it was installed). An install is written to a
staging folder beside the others and renamed into place, so an app is either all there
or not at all, and a replaced app's old folder is renamed away before the new one takes
its name. Leftover staging and old folders (an install cut by a power loss) are removed
by the next install. Everything read back is untrusted: bounded, plain files only, and
an app whose info is missing or garbage is listed from its folder name with
``problem`` saying so.
"""

from __future__ import annotations

import json
import logging
import os
import shutil
import time
import uuid
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from shared.files.jsonfile import atomic_write_json, fsync_dir
from shared.files.regular_file import read_regular
from shared.paths import Paths
from shared.starlark.installed.app_ids import valid_app_id
from shared.starlark.installed.package import Package

logger = logging.getLogger(__name__)

PLUGIN_ID = "starlark-apps"
INFO_FILE = ".ledpanel-app.json"
MAX_INFO_BYTES = 64 * 1024
MAX_APPS = 200
_STAGING = ".staging-"
_OLD = ".old-"


@dataclass(frozen=True)
class InstalledApp:
    """One installed app as its folder says."""

    id: str
    name: str
    main: str
    summary: str = ""
    category: str = ""
    author: str = ""
    source: str = "upload"
    installed_at: float = 0.0
    supports2x: bool = False
    problem: str | None = None

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def apps_root(paths: Paths) -> Path:
    """Where installed apps live."""
    return paths.assets_dir / "plugins" / PLUGIN_ID / "apps"


class AppsFolder:
    """List, read, install and remove the apps under ``root``."""

    def __init__(self, root: Path) -> None:
        self.root = root

    def ids(self) -> list[str]:
        """The installed apps' ids, sorted."""
        try:
            names = sorted(os.listdir(self.root))
        except OSError:
            return []
        return [n for n in names if valid_app_id(n) and (self.root / n).is_dir()
                and not (self.root / n).is_symlink()][:MAX_APPS]

    def apps(self) -> list[InstalledApp]:
        """Every installed app."""
        return [self._read(app_id) for app_id in self.ids()]

    def get(self, app_id: str) -> InstalledApp | None:
        """One app, or None when it is not installed (or the id is not an app id)."""
        return self._read(app_id) if app_id in self.ids() else None

    def folder(self, app_id: str) -> Path:
        if not valid_app_id(app_id):
            raise ValueError(f"{app_id!r} is not an app id")
        return self.root / app_id

    def main_path(self, app: InstalledApp) -> Path:
        return self.folder(app.id) / app.main

    def install(self, package: Package, source: str = "upload") -> InstalledApp:
        """Put a package in place (replacing an app of the same id) and return it."""
        if package.app_id not in self.ids() and len(self.ids()) >= MAX_APPS:
            raise OSError(f"{MAX_APPS} apps are installed already; remove one first")
        self.root.mkdir(parents=True, exist_ok=True)
        self._clean_leftovers()
        staging = self.root / f"{_STAGING}{uuid.uuid4().hex[:12]}"
        try:
            _write_files(staging, package.files)
            info = _info(package, source)
            atomic_write_json(staging / INFO_FILE, info.as_dict())
            self._swap_in(staging, package.app_id)
        except BaseException:
            shutil.rmtree(staging, ignore_errors=True)
            raise
        logger.info("installed app %s (%s, %d files)", package.app_id, source,
                    len(package.files))
        return info

    def remove(self, app_id: str) -> bool:
        """Remove an app; False when it was not installed."""
        if app_id not in self.ids():
            return False
        old = self.root / f"{_OLD}{uuid.uuid4().hex[:12]}"
        os.rename(self.folder(app_id), old)
        shutil.rmtree(old, ignore_errors=True)
        logger.info("removed app %s", app_id)
        return True

    def _swap_in(self, staging: Path, app_id: str) -> None:
        target = self.folder(app_id)
        old = None
        if target.exists() or target.is_symlink():
            old = self.root / f"{_OLD}{uuid.uuid4().hex[:12]}"
            os.rename(target, old)
        os.rename(staging, target)
        fsync_dir(self.root)
        if old is not None:
            shutil.rmtree(old, ignore_errors=True)

    def _clean_leftovers(self, older_than: float = 600.0) -> None:
        now = time.time()
        for entry in self.root.iterdir():
            if entry.name.startswith((_STAGING, _OLD)):
                try:
                    if now - entry.lstat().st_mtime > older_than or entry.name.startswith(_OLD):
                        shutil.rmtree(entry, ignore_errors=True)
                except OSError:
                    continue

    def _read(self, app_id: str) -> InstalledApp:
        folder = self.folder(app_id)
        try:
            info = json.loads(read_regular(folder / INFO_FILE, MAX_INFO_BYTES,
                                           follow_symlinks=False))
        except (OSError, ValueError) as err:
            return _from_folder(folder, app_id, f"its {INFO_FILE} cannot be read ({err})")
        if not isinstance(info, dict) or not isinstance(info.get("main"), str):
            return _from_folder(folder, app_id, f"its {INFO_FILE} is not an app's info")
        return _checked_info(folder, app_id, info)


def _checked_info(folder: Path, app_id: str, info: dict[str, Any]) -> InstalledApp:
    def text(key: str, limit: int = 500) -> str:
        value = info.get(key)
        return value[:limit] if isinstance(value, str) else ""

    main = text("main", 200)
    problem = None
    if "/" in main or not main.endswith(".star") or not (folder / main).is_file():
        problem, main = f"its main file {main!r} is missing", main if main else f"{app_id}.star"
    when = info.get("installed_at")
    return InstalledApp(
        id=app_id, name=text("name", 100) or app_id, main=main, summary=text("summary"),
        category=text("category", 60), author=text("author", 100),
        source=text("source", 60) or "upload",
        installed_at=float(when) if isinstance(when, int | float) else 0.0,
        supports2x=info.get("supports2x") is True, problem=problem)


def _from_folder(folder: Path, app_id: str, problem: str) -> InstalledApp:
    main = f"{app_id}.star"
    if (folder / main).is_file():
        return InstalledApp(id=app_id, name=app_id, main=main)
    return InstalledApp(id=app_id, name=app_id, main=main, problem=problem)


def _info(package: Package, source: str) -> InstalledApp:
    manifest = package.manifest

    def text(key: str, limit: int = 500) -> str:
        value = manifest.get(key)
        return value.strip()[:limit] if isinstance(value, str) else ""

    return InstalledApp(
        id=package.app_id, name=package.name[:100], main=package.main,
        summary=text("summary"), category=text("category", 60), author=text("author", 100),
        source=source[:60], installed_at=round(time.time(), 3),
        supports2x=manifest.get("supports2x") is True)


def _write_files(staging: Path, files: dict[str, bytes]) -> None:
    staging.mkdir(mode=0o775)
    for relative, body in files.items():
        path = staging / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(path, "xb") as handle:
            handle.write(body)
            handle.flush()
            os.fsync(handle.fileno())
