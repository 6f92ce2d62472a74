"""Safe extraction of one folder from a repository's ZIP archive, or of a plugin ZIP the
user uploaded (``check_upload``, ``extract_upload``: the same checks).

Only members below ``<top>/<plugin_path>/`` are written, into a fresh ``dest``. The
whole extraction is refused (``UNSAFE_ARCHIVE``; ``dest`` is left for the caller to
delete, nothing is ever written outside it) when any member name is absolute, climbs
with ``..``, uses a backslash or NUL, or when a chosen member is a symlink or a device
(the Unix mode in ``external_attr``), appears twice, or is a file that another member
needs as a folder (``check_distinct_paths``, also applied to a tree listing).
``TOO_LARGE`` when the chosen members are more than ``MAX_FILES`` or, by declared size
or by bytes actually written, more than ``MAX_FILE_BYTES`` each or ``MAX_TOTAL_BYTES``
together (a zip bomb that lies about its sizes is caught while extracting).
"""

from __future__ import annotations

import os
import stat
import zipfile
from collections.abc import Callable
from pathlib import Path, PurePosixPath
from typing import Any

from web_service.store.errors import StoreError

MAX_FILES = 2000  # files in one plugin
MAX_FILE_BYTES = 20 * 1024 * 1024  # one file
MAX_TOTAL_BYTES = 50 * 1024 * 1024  # the plugin's files together
MAX_MEMBERS = 100_000  # entries in a whole repository archive
CHUNK = 64 * 1024

Progress = Callable[[dict[str, Any]], None]


def safe_relative(name: str) -> str:
    """Return ``name`` as a plain relative POSIX path; raise UNSAFE_ARCHIVE otherwise."""
    if not isinstance(name, str) or not name or "\\" in name or "\x00" in name \
            or name.startswith("/") or PurePosixPath(name).is_absolute() \
            or (len(name) > 1 and name[1] == ":"):
        raise StoreError(f"unsafe path {str(name)[:200]!r} in the download", "UNSAFE_ARCHIVE")
    parts = name.rstrip("/").split("/")
    if any(part in ("", ".", "..") for part in parts):
        raise StoreError(f"unsafe path {name[:200]!r} in the download", "UNSAFE_ARCHIVE")
    return "/".join(parts)


def check_distinct_paths(paths: list[str]) -> None:
    """Refuse (UNSAFE_ARCHIVE) a path listed twice, or a file that is another's folder."""
    seen: set[str] = set()
    for path in paths:
        if path in seen:
            raise StoreError(f"{path[:200]!r} appears twice in the download",
                             "UNSAFE_ARCHIVE")
        seen.add(path)
    for path in paths:
        parts = path.split("/")
        for depth in range(1, len(parts)):
            folder = "/".join(parts[:depth])
            if folder in seen:
                raise StoreError(f"{folder[:200]!r} is both a file and a folder in the "
                                 "download", "UNSAFE_ARCHIVE")


def open_new_file(dest: Path, relative: str) -> int:
    """Create ``dest/relative`` (parents too) without following links; return the fd."""
    path = dest / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    if not path.parent.resolve().is_relative_to(dest.resolve()):
        raise StoreError(f"unsafe path {relative!r} in the download", "UNSAFE_ARCHIVE")
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    return os.open(path, flags, 0o644)


def extract_folder(archive_path: Path, plugin_path: str, dest: Path,
                   progress: Progress | None = None) -> tuple[int, int]:
    """Extract the plugin folder of a ZIP archive into ``dest``; return (files, bytes)."""
    return _extract(archive_path, _folder_prefix(plugin_path), dest, progress)


def check_upload(archive_path: Path) -> int:
    """Check an uploaded ZIP of one plugin folder as a repository archive is checked,
    without writing anything; return how many files it would install.

    The plugin's files are either at the top of the ZIP (``manifest.json`` there) or in
    its one top folder; a ``__MACOSX/`` folder (macOS's zip adds one) is ignored.
    """
    try:
        with zipfile.ZipFile(archive_path) as archive:
            return len(_chosen_members(archive, _upload_prefix))
    except zipfile.BadZipFile as err:
        raise StoreError("the upload is not a ZIP archive (or it is damaged): zip the "
                         "plugin's folder and upload the .zip file", "NOT_A_ZIP") from err
    except (OSError, EOFError) as err:
        raise StoreError(f"the ZIP could not be read: {err}", "NOT_A_ZIP") from err


def extract_upload(archive_path: Path, dest: Path,
                   progress: Progress | None = None) -> tuple[int, int]:
    """Extract an uploaded plugin ZIP (see ``check_upload``) into ``dest`` (created)."""
    dest.mkdir(parents=True, exist_ok=False)
    return _extract(archive_path, _upload_prefix, dest, progress)


def _extract(archive_path: Path, prefix_of: Callable[[list[str]], str], dest: Path,
             progress: Progress | None) -> tuple[int, int]:
    try:
        with zipfile.ZipFile(archive_path) as archive:
            members = _chosen_members(archive, prefix_of)
            return _write_members(archive, members, dest, progress)
    except zipfile.BadZipFile as err:
        raise StoreError(f"the archive is damaged: {err}", "UNSAFE_ARCHIVE") from err
    except (OSError, EOFError) as err:
        raise StoreError(f"the archive could not be extracted: {err}",
                         "DOWNLOAD_FAILED") from err


def _folder_prefix(plugin_path: str) -> Callable[[list[str]], str]:
    """A repository archive: one top folder (``<repo>-<branch>/``), then the plugin path."""

    def prefix_of(names: list[str]) -> str:
        tops = {name.split("/", 1)[0] for name in names}
        if len(tops) != 1:
            raise StoreError("the archive does not have exactly one top folder",
                             "UNSAFE_ARCHIVE")
        top = tops.pop()
        return f"{top}/{plugin_path}/" if plugin_path else f"{top}/"

    return prefix_of


_MACOS_EXTRA = "__MACOSX"


def _upload_prefix(names: list[str]) -> str:
    """An uploaded plugin: ``manifest.json`` at the top, or in the ZIP's one top folder."""
    if "manifest.json" in names:
        return ""
    tops = {name.split("/", 1)[0] for name in names} - {_MACOS_EXTRA}
    if len(tops) == 1:
        top = tops.pop()
        if f"{top}/manifest.json" in names:
            return f"{top}/"
    raise StoreError("the ZIP has no manifest.json at its top or in its one top folder: "
                     "zip the plugin's folder (the one holding manifest.json)", "BAD_PLUGIN")


def _chosen_members(archive: zipfile.ZipFile, prefix_of: Callable[[list[str]], str]
                    ) -> list[tuple[zipfile.ZipInfo, str]]:
    infos = archive.infolist()
    if len(infos) > MAX_MEMBERS:
        raise StoreError(f"the archive has {len(infos)} entries, more than {MAX_MEMBERS}",
                         "TOO_LARGE")
    names = [safe_relative(info.filename) for info in infos]
    prefix = prefix_of(names)
    chosen: list[tuple[zipfile.ZipInfo, str]] = []
    declared = 0
    for info, name in zip(infos, names, strict=True):
        if info.is_dir() or not name.startswith(prefix) or \
                name.split("/", 1)[0] == _MACOS_EXTRA:
            continue
        relative = name[len(prefix):]
        kind = (info.external_attr >> 16) & 0o170000
        if stat.S_ISLNK(kind):
            raise StoreError(f"{relative}: symbolic links are not accepted", "UNSAFE_ARCHIVE")
        if kind and not stat.S_ISREG(kind):
            raise StoreError(f"{relative}: only regular files are accepted", "UNSAFE_ARCHIVE")
        if info.file_size > MAX_FILE_BYTES:
            raise StoreError(f"{relative}: {info.file_size} bytes, more than the "
                             f"{MAX_FILE_BYTES} allowed per file", "TOO_LARGE")
        declared += info.file_size
        chosen.append((info, relative))
    if not chosen:
        where = f"folder {prefix.split('/', 1)[1].rstrip('/')!r}" if "/" in prefix.rstrip("/") \
            else "repository"
        raise StoreError(f"the archive has no files in the {where}", "BAD_PLUGIN")
    check_distinct_paths([relative for _info, relative in chosen])
    if len(chosen) > MAX_FILES:
        raise StoreError(f"{len(chosen)} files, more than the {MAX_FILES} allowed",
                         "TOO_LARGE")
    if declared > MAX_TOTAL_BYTES:
        raise StoreError(f"{declared} bytes, more than the {MAX_TOTAL_BYTES} allowed",
                         "TOO_LARGE")
    return chosen


def _write_members(archive: zipfile.ZipFile, members: list[tuple[zipfile.ZipInfo, str]],
                   dest: Path, progress: Progress | None) -> tuple[int, int]:
    total = 0
    for done, (info, relative) in enumerate(members, start=1):
        written = 0
        fd = open_new_file(dest, relative)
        with os.fdopen(fd, "wb") as out, archive.open(info) as source:
            while chunk := source.read(CHUNK):  # ends at the member's end or a limit
                written += len(chunk)
                total += len(chunk)
                if written > MAX_FILE_BYTES or written > info.file_size:
                    raise StoreError(f"{relative}: more bytes than declared or allowed "
                                     "(a zip bomb?)", "TOO_LARGE")
                if total > MAX_TOTAL_BYTES:
                    raise StoreError(f"more than the {MAX_TOTAL_BYTES} bytes allowed",
                                     "TOO_LARGE")
                out.write(chunk)
        if progress is not None:
            progress({"step": "extracting", "bytes": total, "files_done": done,
                      "files_total": len(members)})
    return len(members), total
