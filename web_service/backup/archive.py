"""Write a backup ZIP: ``ledpanel-backup.json`` (the manifest) plus the files it lists.

Places inside the archive (the only ones a restore accepts):

- ``config/config.json`` always, ``config/config_secrets.json`` only when asked for;
- ``fonts/<family>.<kind>``: uploaded fonts (``Paths.fonts_upload_dir``);
- ``assets/plugins/<plugin_id>/uploads/<name>``: plugin uploads with their ``.index.json``;
- ``assets/notify_icons/<name>.png`` (or ``.gif``): the stored notification icons.

Only regular files are taken, never through a symlink, and the archive is written to a
file object (a temp file), never assembled in memory.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
import time
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

from shared.errors import LedpanelError
from shared.fonts.validate import kind_for_name
from shared.ids import is_plain_segment
from shared.notify.fields import ICONS_FOLDER, is_icon_file
from shared.paths import Paths
from shared.plugin_system.uploads import INDEX_FILE, MAX_FILE_BYTES
from shared.version import CORE_VERSION

MANIFEST_NAME = "ledpanel-backup.json"
FORMAT_NAME = "ledpanel-backup"
FORMAT_VERSION = 1
CONFIG_ENTRY = "config/config.json"
SECRETS_ENTRY = "config/config_secrets.json"
FONTS_PREFIX = "fonts/"
ASSETS_PREFIX = "assets/plugins/"
ICONS_PREFIX = f"assets/{ICONS_FOLDER}/"
#: Bounds on what one archive may hold, written or restored (zip bombs included).
MAX_ENTRIES = 1000
MAX_TOTAL_BYTES = 64 * 1024 * 1024
#: The largest single file: a config file, an uploads index (fonts and images are less).
MAX_CONFIG_BYTES = 4 * 1024 * 1024


def collect(paths: Paths, *, include_secrets: bool) -> list[tuple[str, Path]]:
    """Return ``(entry name, file)`` for everything a backup of ``paths`` holds."""
    found: list[tuple[str, Path]] = []
    if _is_regular(paths.config_file):
        found.append((CONFIG_ENTRY, paths.config_file))
    if include_secrets and _is_regular(paths.secrets_file):
        found.append((SECRETS_ENTRY, paths.secrets_file))
    for name in _regular_names(paths.fonts_upload_dir):
        if kind_for_name(name) is not None:
            found.append((FONTS_PREFIX + name, paths.fonts_upload_dir / name))
    plugins_dir = paths.assets_dir / "plugins"
    for plugin_id in _dir_names(plugins_dir):
        uploads = plugins_dir / plugin_id / "uploads"
        if not _is_dir(plugins_dir / plugin_id):
            continue
        for name in _regular_names(uploads):
            found.append((f"{ASSETS_PREFIX}{plugin_id}/uploads/{name}", uploads / name))
    icons = paths.assets_dir / ICONS_FOLDER
    found += [(ICONS_PREFIX + name, icons / name) for name in _regular_names(icons)
              if is_icon_file(name)]
    if len(found) > MAX_ENTRIES:
        raise LedpanelError(f"more than {MAX_ENTRIES} files to back up; remove some uploads",
                            error_code="BACKUP_TOO_LARGE", status=413)
    return found


def write_archive(out: IO[bytes], paths: Paths, *, include_secrets: bool,
                  now: float | None = None, note: str | None = None) -> dict[str, Any]:
    """Write a backup of ``paths`` to ``out``; return its manifest (``note``: a line for
    the reader, kept in the manifest as ``note``; a restore ignores it)."""
    files: dict[str, dict[str, Any]] = {}
    total = 0
    with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for entry, path in collect(paths, include_secrets=include_secrets):
            limit = MAX_CONFIG_BYTES if entry.startswith("config/") else MAX_FILE_BYTES * 2
            digest, size = _copy_in(archive, entry, path, limit)
            if digest is None:
                continue  # gone, or no longer a regular file: not part of this backup
            total += size
            if total > MAX_TOTAL_BYTES:
                raise LedpanelError(f"the files to back up exceed {MAX_TOTAL_BYTES} bytes",
                                    error_code="BACKUP_TOO_LARGE", status=413)
            files[entry] = {"sha256": digest, "size": size}
        manifest = {
            "format": FORMAT_NAME, "format_version": FORMAT_VERSION,
            "core_version": CORE_VERSION,
            "created_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(now)),
            "contents": {
                "config": CONFIG_ENTRY in files,
                "secrets": SECRETS_ENTRY in files,
                "fonts": sorted(e[len(FONTS_PREFIX):] for e in files
                                if e.startswith(FONTS_PREFIX)),
                "plugin_assets": sorted({e.split("/")[2] for e in files
                                         if e.startswith(ASSETS_PREFIX)}),
                "notify_icons": sorted(e[len(ICONS_PREFIX):] for e in files
                                       if e.startswith(ICONS_PREFIX)),
            },
            "files": files,
        }
        if note:
            manifest["note"] = note
        archive.writestr(MANIFEST_NAME, json.dumps(manifest, indent=2))
    return manifest


def _copy_in(archive: zipfile.ZipFile, entry: str, path: Path,
             limit: int) -> tuple[str | None, int]:
    """Copy one regular file into the archive in chunks; return (sha256, size)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | getattr(os, "O_NONBLOCK", 0))
    except OSError:
        return None, 0
    with os.fdopen(fd, "rb") as source:
        info = os.fstat(source.fileno())
        if not stat.S_ISREG(info.st_mode):
            return None, 0
        if info.st_size > limit:
            raise LedpanelError(f"{path} is larger than {limit} bytes; it cannot be backed up",
                                error_code="BACKUP_TOO_LARGE", status=413)
        digest = hashlib.sha256()
        size = 0
        member = zipfile.ZipInfo(entry, date_time=time.localtime(info.st_mtime)[:6])
        member.compress_type = zipfile.ZIP_DEFLATED
        member.external_attr = 0o600 << 16
        with archive.open(member, "w") as target:
            for chunk in _chunks(source, limit):
                digest.update(chunk)
                size += len(chunk)
                target.write(chunk)
    return digest.hexdigest(), size


def _chunks(source: IO[bytes], limit: int) -> Iterator[bytes]:
    read = 0
    while read <= limit:  # bounded: a file growing while read stops at its limit
        chunk = source.read(64 * 1024)
        if not chunk:
            return
        read += len(chunk)
        yield chunk
    raise LedpanelError("a file grew past its size limit while it was backed up",
                        error_code="BACKUP_TOO_LARGE", status=413)


def _is_regular(path: Path) -> bool:
    try:
        return stat.S_ISREG(os.lstat(path).st_mode)
    except OSError:
        return False


def _is_dir(path: Path) -> bool:
    try:
        return stat.S_ISDIR(os.lstat(path).st_mode)
    except OSError:
        return False


def _dir_names(directory: Path) -> list[str]:
    """Return the plain names in a real directory (and its uploads index), sorted."""
    if not _is_dir(directory):
        return []
    try:
        return sorted(n for n in os.listdir(directory) if is_plain_segment(n) or n == INDEX_FILE)
    except OSError:
        return []


def _regular_names(directory: Path) -> list[str]:
    """Return the names of the regular files directly in a real directory, sorted."""
    return [n for n in _dir_names(directory) if _is_regular(directory / n)]
