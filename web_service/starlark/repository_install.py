"""Installing an app from the apps repository: its folder downloaded, checked, installed.

The folder ``<folder>/<app_id>/`` is downloaded with the store's download code (one tree
listing, raw files checked against their sizes and blob ids, the branch archive when the
API cannot be used) into a fresh folder under the repository cache, read back, checked
as any package is (``package.from_folder_files``) and installed (source ``repository``).
"""

from __future__ import annotations

import os
import shutil
import uuid
from pathlib import Path

from shared.errors import NotFoundError, ValidationError
from shared.files.regular_file import read_regular
from shared.starlark.installed.folder import InstalledApp
from shared.starlark.installed.package import (
    MAX_FILE_BYTES,
    MAX_FILES,
    PackageError,
    from_folder_files,
)
from web_service.starlark import apps
from web_service.starlark.repository_index import repository_dir
from web_service.starlark.repository_source import Place, RepositoryError
from web_service.store.errors import StoreError
from web_service.store.install.download import download_folder

_UNREACHABLE = ("DOWNLOAD_FAILED", "HOST_REFUSED", "RATE_LIMITED")


def install_from_repository(svc: apps.WebServices, place: Place, app_id: str, *,
                            replace: bool) -> InstalledApp:
    """Download, check and install one app of the repository; return it."""
    downloads = repository_dir(svc.settings.paths.cache_dir) / "downloads"
    dest = downloads / uuid.uuid4().hex
    try:
        _download(place, app_id, dest)
        files = _read_files(dest)
        try:
            package = from_folder_files(files, app_id)
        except PackageError as err:
            raise ValidationError(f"{app_id}: {err}", error_code="INVALID_APP",
                                  details={"app_id": app_id}) from None
        app, _ = apps.install(svc, package, source="repository", replace=replace)
        return app
    finally:
        shutil.rmtree(dest, ignore_errors=True)


def _download(place: Place, app_id: str, dest: Path) -> None:
    try:
        download_folder(place.ref.url, place.branch, place.app_path(app_id), dest,
                        api_url=place.api, token=place.token)
    except StoreError as err:
        if err.error_code == "BAD_PLUGIN":  # the folder has no files: no such app
            raise NotFoundError(f"the apps repository has no app {app_id!r}",
                                error_code="APP_NOT_FOUND",
                                details={"app_id": app_id}) from None
        if err.error_code in _UNREACHABLE:
            raise RepositoryError(f"{app_id} could not be downloaded: {err.message}",
                                  error_code=err.error_code, details=err.details) from None
        raise ValidationError(f"{app_id}: {err.message}", error_code="INVALID_APP",
                              details={"app_id": app_id, "store_code": err.error_code}
                              ) from None


def _read_files(dest: Path) -> dict[str, bytes]:
    """The downloaded files by relative path (regular files only, bounded)."""
    files: dict[str, bytes] = {}
    for folder, _dirs, names in os.walk(dest):
        for name in names:
            path = Path(folder) / name
            if len(files) >= MAX_FILES:
                raise ValidationError(f"the app has more than {MAX_FILES} files",
                                      error_code="INVALID_APP")
            relative = path.relative_to(dest).as_posix()
            try:
                files[relative] = read_regular(path, MAX_FILE_BYTES, follow_symlinks=False)
            except (OSError, ValueError) as err:
                raise ValidationError(f"{relative}: {err}", error_code="INVALID_APP") from None
    return files
