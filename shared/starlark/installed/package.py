"""An app package: the files of one app, checked, from a ``.star`` upload or a ZIP.

A package is a mapping of relative paths to bytes, with the name of its main ``.star``
file. Every path is checked (no absolute paths, no ``..``, no backslashes, no hidden
names, nothing but plain files); a ZIP is checked as the store checks plugin archives:
at most ``MAX_FILES`` files, ``MAX_FILE_BYTES`` each and ``MAX_TOTAL_BYTES`` in all, by
what is inflated rather than what the archive claims, no links, no encryption. Files
under one common top folder (how archives are made) lose it; ``__MACOSX/`` is dropped.

The main file: the manifest's ``fileName`` when there is a ``manifest.yaml``, else
``<id>.star``, else the only ``.star`` file that defines ``main``. A package without one
is refused with a message saying what was found.
"""

from __future__ import annotations

import io
import stat
import zipfile
from dataclasses import dataclass, field
from typing import Any

from shared.starlark.installed.app_ids import app_id_from, valid_app_id
from shared.starlark.installed.manifest_yaml import parse_manifest

MAX_FILES = 300
MAX_FILE_BYTES = 4 * 1024 * 1024
MAX_TOTAL_BYTES = 16 * 1024 * 1024
MAX_PATH = 200
MAX_DEPTH = 6
MANIFEST = "manifest.yaml"


class PackageError(ValueError):
    """A package that cannot be installed; the message says why, in one line."""


@dataclass
class Package:
    """An app's files, checked: ``files`` maps relative paths to their bytes."""

    app_id: str
    main: str
    files: dict[str, bytes]
    manifest: dict[str, Any] = field(default_factory=dict)

    @property
    def name(self) -> str:
        value = self.manifest.get("name")
        return value if isinstance(value, str) and value.strip() else self.app_id


def from_star(data: bytes, filename: str, app_id: str | None = None) -> Package:
    """A package of one ``.star`` file; its id is ``app_id`` or made from the file name."""
    if not filename.lower().endswith(".star"):
        raise PackageError(f"{filename!r} is not a .star file")
    _check_text(data, filename)
    chosen = _chosen_id(app_id, filename)
    main = f"{chosen}.star"
    if "def main(" not in data.decode("utf-8", "replace"):
        raise PackageError(f"{filename} has no main() function; a pixlet app defines one")
    return Package(chosen, main, {main: data})


def from_zip(data: bytes, filename: str = "app.zip", app_id: str | None = None) -> Package:
    """A package of a ZIP's files (module docstring); its id: ``app_id``, the manifest's
    ``id``, or made from the main file's name."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        files = _read_members(archive)
    except (zipfile.BadZipFile, zipfile.LargeZipFile, EOFError, ValueError) as err:
        if isinstance(err, PackageError):
            raise
        raise PackageError(f"{filename} is not a readable ZIP archive") from err
    files = _without_top_folder(files)
    manifest = parse_manifest(files[MANIFEST]) if MANIFEST in files else {}
    main = _main_file(files, manifest, app_id)
    wanted = app_id or _manifest_id(manifest) or app_id_from(main)
    chosen = _chosen_id(wanted, main)
    return Package(chosen, main, files, manifest)


def from_folder_files(files: dict[str, bytes], app_id: str | None = None) -> Package:
    """A package of files read from somewhere else (the apps repository): checked alike."""
    for path, body in files.items():
        _check_path(path)
        if len(body) > MAX_FILE_BYTES:
            raise PackageError(f"{path} is larger than {MAX_FILE_BYTES // (1024 * 1024)} MB")
    if len(files) > MAX_FILES or sum(len(b) for b in files.values()) > MAX_TOTAL_BYTES:
        raise PackageError(f"the app has more than {MAX_FILES} files or "
                           f"{MAX_TOTAL_BYTES // (1024 * 1024)} MB")
    manifest = parse_manifest(files[MANIFEST]) if MANIFEST in files else {}
    main = _main_file(files, manifest, app_id)
    chosen = _chosen_id(app_id or _manifest_id(manifest) or app_id_from(main), main)
    return Package(chosen, main, dict(files), manifest)


def _chosen_id(app_id: str | None, filename: str) -> str:
    chosen = app_id if app_id is not None else app_id_from(filename)
    if not valid_app_id(chosen):
        raise PackageError(f"{chosen or filename!r} cannot be an app id: use 1 to 64 "
                           "lower-case letters, digits, _ and -, starting with a letter or digit")
    return chosen


def _manifest_id(manifest: dict[str, Any]) -> str | None:
    value = manifest.get("id")
    return value if valid_app_id(value) else None


def _read_members(archive: zipfile.ZipFile) -> dict[str, bytes]:
    members = [m for m in archive.infolist() if not m.is_dir()
               and not m.filename.startswith("__MACOSX/")]
    if len(members) > MAX_FILES:
        raise PackageError(f"the archive holds more than {MAX_FILES} files")
    files: dict[str, bytes] = {}
    total = 0
    for member in members:
        _check_member(member)
        body = _inflate(archive, member)
        total += len(body)
        if total > MAX_TOTAL_BYTES:
            raise PackageError(f"the archive inflates to more than "
                               f"{MAX_TOTAL_BYTES // (1024 * 1024)} MB")
        files[member.filename] = body
    if not files:
        raise PackageError("the archive is empty")
    return files


def _check_member(member: zipfile.ZipInfo) -> None:
    _check_path(member.filename)
    if member.flag_bits & 0x1:
        raise PackageError(f"{member.filename} is encrypted")
    kind = stat.S_IFMT(member.external_attr >> 16)
    if kind and kind != stat.S_IFREG:
        raise PackageError(f"{member.filename} is not a plain file (a link or a device)")


def _inflate(archive: zipfile.ZipFile, member: zipfile.ZipInfo) -> bytes:
    with archive.open(member) as stream:
        body = stream.read(MAX_FILE_BYTES + 1)
    if len(body) > MAX_FILE_BYTES:
        raise PackageError(f"{member.filename} is larger than "
                           f"{MAX_FILE_BYTES // (1024 * 1024)} MB")
    return body


def _check_path(path: str) -> None:
    parts = path.split("/")
    if (not path or len(path) > MAX_PATH or path.startswith("/") or "\\" in path
            or "\x00" in path or len(parts) > MAX_DEPTH
            or any(p in ("", ".", "..") or p.startswith(".") for p in parts)):
        raise PackageError(f"{path[:MAX_PATH]!r} is not an acceptable file name in an app")


def _check_text(data: bytes, filename: str) -> None:
    if len(data) > MAX_FILE_BYTES:
        raise PackageError(f"{filename} is larger than {MAX_FILE_BYTES // (1024 * 1024)} MB")
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as err:
        raise PackageError(f"{filename} is not UTF-8 text") from err


def _without_top_folder(files: dict[str, bytes]) -> dict[str, bytes]:
    tops = {path.split("/", 1)[0] for path in files}
    if len(tops) == 1 and all("/" in path for path in files):
        return {path.split("/", 1)[1]: body for path, body in files.items()}
    return files


def _main_file(files: dict[str, bytes], manifest: dict[str, Any], app_id: str | None) -> str:
    stars = sorted(p for p in files if p.endswith(".star") and "/" not in p)
    named = [manifest.get("fileName"), *(f"{name}.star" for name in (
        app_id, manifest.get("id"), manifest.get("packageName")) if isinstance(name, str))]
    candidates = [name for name in named if isinstance(name, str) and name in stars]
    candidates += [p for p in stars if "def main(" in files[p].decode("utf-8", "replace")]
    if not candidates:
        found = ", ".join(stars) or "no .star file at the top"
        raise PackageError(f"no app found: no .star file defines main() ({found})")
    main = candidates[0]
    _check_text(files[main], main)
    return main
