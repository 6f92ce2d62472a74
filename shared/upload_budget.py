"""How much users may upload, so that one backup always holds all of it.

Plugin images (``shared.plugin_system.uploads``) and fonts (``shared.fonts.uploads``) land
under the assets folder, and every backup carries all of them; a backup past its own
limits is refused (``web_service.backup``: entries, bytes, and the restore's archive
size). So an upload that would pass these limits is refused instead, with a message
saying what to delete: per plugin (``PLUGIN_FILES``, ``PLUGIN_BYTES``) and for all
uploads together (``ALL_FILES``, ``ALL_BYTES``). The backup limits stay above what
uploads can reach (``tests/web_service/backup/test_backup_room.py`` holds them apart).
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable, Sequence
from pathlib import Path

from shared.errors import ValidationError

PLUGIN_FILES = 200
PLUGIN_BYTES = 16 * 1024 * 1024
ALL_FILES = 400
ALL_BYTES = 32 * 1024 * 1024
FONTS_FOLDER = "fonts_uploaded"  # under the assets folder (``Paths.fonts_upload_dir``)


def usage(folders: Iterable[Path]) -> tuple[int, int]:
    """Return how many uploaded files ``folders`` hold and their bytes (regular files
    directly inside, not the dot-files that index them)."""
    count = total = 0
    for folder in folders:
        try:
            entries = list(os.scandir(folder))
        except OSError:  # absent or not a folder: holds nothing
            continue
        for entry in entries:
            try:
                info = entry.stat(follow_symlinks=False)
            except OSError:
                continue
            if stat.S_ISREG(info.st_mode) and not entry.name.startswith("."):
                count += 1
                total += info.st_size
    return count, total


def upload_folders(assets_dir: Path) -> list[Path]:
    """Return every folder uploads land in: each plugin's uploads and the fonts."""
    plugins = assets_dir / "plugins"
    try:
        names = sorted(os.listdir(plugins))
    except OSError:
        names = []
    return [plugins / name / "uploads" for name in names] + [assets_dir / FONTS_FOLDER]


def check_room(assets_dir: Path, sizes: Sequence[int], plugin_folder: Path | None = None,
               what: str = "uploads") -> None:
    """Raise ValidationError (413 ``UPLOAD_LIMIT``) when adding files of ``sizes`` would
    pass a limit: of the plugin whose uploads folder is ``plugin_folder``, or of all."""
    adding, added = len(sizes), sum(sizes)
    if plugin_folder is not None:
        count, total = usage([plugin_folder])
        _within(count + adding, PLUGIN_FILES, total + added, PLUGIN_BYTES,
                f"{what} would hold", "delete some of them in its tab first")
    count, total = usage(upload_folders(assets_dir))
    _within(count + adding, ALL_FILES, total + added, ALL_BYTES,
            "all uploads (plugin images and fonts) would hold",
            "delete some uploaded images or fonts first")


def _within(count: int, max_count: int, size: int, max_size: int, subject: str,
            advice: str) -> None:
    if count > max_count:
        problem = f"{count} files, more than the {max_count} allowed"
    elif size > max_size:
        problem = f"{size / 1048576:.1f} MiB, more than the {max_size // 1048576} MiB allowed"
    else:
        return
    raise ValidationError(f"{subject} {problem} (so that a backup can always hold them); "
                          f"{advice}", error_code="UPLOAD_LIMIT", status=413,
                          details={"field": "files", "max_files": max_count,
                                   "max_bytes": max_size})
