"""Automatic backups of config.json, taken before every save.

Names are ``config.json.backup.<YYYYMMDD_HHMMSS_ffffff>`` in local time, so sorting by
name is sorting by age; a name is never reused, even for two saves in one microsecond.
Call these while holding the config lock (the store does).

A config.json that cannot be used and is replaced from the raw editor is kept as
``config.json.bad.<stamp>`` in the same folder (``keep_bad_copy``): never taken for a
backup to run on, and only the newest ``KEEP_BAD_COPIES`` are kept.
"""

from __future__ import annotations

import contextlib
import os
import re
import stat
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from shared.errors import ConfigError, LedpanelError
from shared.files.jsonfile import atomic_write_bytes
from shared.paths import Paths

KEEP_BACKUPS = 5
KEEP_BAD_COPIES = 3
BACKUP_PREFIX = "config.json.backup."
BAD_PREFIX = "config.json.bad."
_STAMP_FORMAT = "%Y%m%d_%H%M%S_%f"
_NAME_RE = re.compile(re.escape(BACKUP_PREFIX) + r"\d{8}_\d{6}_\d{6}\Z")


def list_backups(paths: Paths) -> list[Path]:
    """Return the backup files, oldest first."""
    try:
        names = [entry.name for entry in os.scandir(paths.backups_dir) if entry.is_file()]
    except FileNotFoundError:
        return []
    return [paths.backups_dir / name for name in sorted(names) if _NAME_RE.match(name)]


def make_backup(
    paths: Paths, *, now: datetime | None = None, keep: int | None = KEEP_BACKUPS
) -> Path | None:
    """Copy config.json into the backups folder, keeping the newest ``keep`` in all.

    Older backups are pruned before the new one is written, so a writer killed between
    the two steps can never leave more than ``keep`` behind. ``keep=None`` prunes
    nothing (the store sets the oldest aside first: ``set_aside``).
    """
    try:
        data = paths.config_file.read_bytes()
    except FileNotFoundError:
        return None
    except OSError as err:
        raise ConfigError(f"cannot back up {paths.config_file}: {err.strerror or err}") from err
    stamp = now or datetime.now()
    existing = list_backups(paths)
    if existing:
        # Names must keep sorting by age even if the clock stepped back.
        newest = datetime.strptime(existing[-1].name[len(BACKUP_PREFIX) :], _STAMP_FORMAT)
        stamp = max(stamp, newest + timedelta(microseconds=1))
    name = BACKUP_PREFIX + stamp.strftime(_STAMP_FORMAT)
    target = paths.backups_dir / name
    if keep is not None:
        prune_backups(paths, keep - 1)
    atomic_write_bytes(target, data, mode=_mode_of(paths.config_file))
    return target


def newest_usable_backup(paths: Paths) -> tuple[dict[str, Any], Path] | None:
    """Return the newest backup that reads as a config object, and its path; None if none.

    What a daemon runs on while config.json cannot be used.
    """
    from shared.files.jsonfile import read_json_file

    for backup in reversed(list_backups(paths)):
        try:
            data = read_json_file(backup, "config backup")
        except LedpanelError:
            continue
        if isinstance(data, dict):
            return data, backup
    return None


def keep_bad_copy(paths: Paths, *, now: datetime | None = None) -> Path | None:
    """Keep an unusable config.json as ``backups/config.json.bad.<stamp>``; return it.

    The file is hard-linked (no copy in memory, however large; the atomic replace that
    follows leaves the link holding the old bytes). None when there is no regular file
    to keep. Older bad copies beyond ``KEEP_BAD_COPIES`` are deleted.
    """
    try:
        if not stat.S_ISREG(os.lstat(paths.config_file).st_mode):
            return None  # missing, a FIFO, a directory: nothing worth keeping
        paths.backups_dir.mkdir(parents=True, exist_ok=True)
        stamp = (now or datetime.now()).strftime(_STAMP_FORMAT)
        target = paths.backups_dir / f"{BAD_PREFIX}{stamp}"
        os.link(paths.config_file, target)
    except OSError as err:
        raise ConfigError(f"cannot keep a copy of {paths.config_file} before replacing it: "
                          f"{err.strerror or err}") from err
    olds = sorted(p for p in paths.backups_dir.iterdir() if p.name.startswith(BAD_PREFIX))
    for old in olds[:-KEEP_BAD_COPIES]:
        with contextlib.suppress(OSError):
            old.unlink()
    return target


def set_aside(paths: Paths, keep: int = KEEP_BACKUPS - 1) -> list[tuple[Path, Path]]:
    """Hide all but the newest ``keep`` backups under temp names; return (hidden, name).

    A save prunes this way so that it can put them back if it fails (``put_back``) and
    drop them once it succeeded (``drop_set_aside``): a failed save never pushes a
    backup out. A writer killed in between leaves temp files the next start removes
    (``ConfigStore.ensure``), so there are never more than ``KEEP_BACKUPS`` backups.
    """
    backups = list_backups(paths)
    moved: list[tuple[Path, Path]] = []
    for path in backups[: max(len(backups) - keep, 0)]:
        hidden = path.with_name(f".{path.name}.tmp")
        with contextlib.suppress(FileNotFoundError):
            os.replace(path, hidden)
            moved.append((hidden, path))
    return moved


def put_back(moved: list[tuple[Path, Path]]) -> None:
    """Restore backups ``set_aside`` hid (the save failed)."""
    for hidden, name in moved:
        with contextlib.suppress(OSError):
            os.replace(hidden, name)


def drop_set_aside(moved: list[tuple[Path, Path]]) -> None:
    """Delete backups ``set_aside`` hid (the save succeeded)."""
    for hidden, _name in moved:
        with contextlib.suppress(OSError):
            hidden.unlink()


def prune_backups(paths: Paths, keep: int = KEEP_BACKUPS) -> list[Path]:
    """Delete all but the newest ``keep`` backups; return the deleted paths."""
    backups = list_backups(paths)
    doomed = backups[: max(len(backups) - keep, 0)]
    for path in doomed:
        with contextlib.suppress(FileNotFoundError):
            path.unlink()
    return doomed


def _mode_of(path: Path) -> int:
    try:
        return path.stat().st_mode & 0o777
    except OSError:
        return 0o644
