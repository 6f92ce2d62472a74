"""Plan and apply a checked backup; keep what a restore replaced.

A restore changes things in this order, once ``check.check_archive`` passed and the
config plan held against the stored config: (1) a pre-restore archive of everything it
may replace is kept in ``<config>/backups/pre-restore-<stamp>.zip`` (the newest
``KEEP_PRE_RESTORE``); (2) fonts and plugin uploads are written, each atomically, with
the replaced bytes remembered; (3) the config (and the secrets, when the backup holds
them) is saved in one store transaction, last. If (3) fails, (2) is undone from memory,
so a refused or failed restore leaves every file as it was. Files present now but not
in the backup are kept.
"""

from __future__ import annotations

import contextlib
import copy
import os
import re
import stat
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from shared.config.merge import same_json
from shared.config.raw_save import plan_raw_save, split_raw_secrets
from shared.config.save_rules import SchemaFor, changed_sections
from shared.errors import LedpanelError, ValidationError
from shared.files.jsonfile import atomic_write_bytes
from shared.files.regular_file import read_regular
from shared.fonts.catalog import normalize
from shared.notify.fields import ICONS_FOLDER
from shared.paths import Paths
from web_service.backup.archive import (
    ASSETS_PREFIX,
    CONFIG_ENTRY,
    FONTS_PREFIX,
    ICONS_PREFIX,
    write_archive,
)
from web_service.backup.check import CheckedBackup

KEEP_PRE_RESTORE = 5
PRE_RESTORE_PREFIX = "pre-restore-"
_PRE_RESTORE_NAME = re.compile(r"pre-restore-\d{8}_\d{6}_\d{6}\.zip\Z")
_READ_LIMIT = 8 * 1024 * 1024

JsonObject = dict[str, Any]
Plan = Callable[[JsonObject, JsonObject], "tuple[JsonObject, JsonObject, list[str]]"]


def config_plan(checked: CheckedBackup, *, schema_for: SchemaFor,
                plugin_ids: Collection[str]) -> Plan:
    """Return the save plan putting the backup's config (and secrets, if it has them) in
    place, under the same rules as the raw config editor's save."""

    def plan(main: JsonObject, secrets: JsonObject) -> tuple[JsonObject, JsonObject, list[str]]:
        base_secrets = copy.deepcopy(checked.secrets) if checked.secrets is not None else secrets
        new_main, _ = plan_raw_save(main, checked.main, schema_for=schema_for,
                                    plugin_ids=plugin_ids, stored_secrets=base_secrets)
        new_main, new_secrets = split_raw_secrets(new_main, base_secrets, schema_for,
                                                  plugin_ids)
        return new_main, new_secrets, changed_sections(main, new_main, secrets, new_secrets)

    return plan


@dataclass
class FileChanges:
    """What writing a backup's files would do: entry names added, replaced, unchanged."""

    added: list[str] = field(default_factory=list)
    replaced: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)

    def as_dict(self) -> dict[str, list[str]]:
        return {"added": self.added, "replaced": self.replaced, "unchanged": self.unchanged}


def target_of(paths: Paths, entry: str) -> Path:
    """Return where a checked font, plugin-upload or notification-icon entry is written."""
    if entry.startswith(FONTS_PREFIX):
        return paths.fonts_upload_dir / entry[len(FONTS_PREFIX):]
    if entry.startswith(ICONS_PREFIX):
        return paths.assets_dir / ICONS_FOLDER / entry[len(ICONS_PREFIX):]
    return paths.assets_dir / "plugins" / entry[len(ASSETS_PREFIX):]


def kind_of(entry: str) -> str:
    """The part of a restore's answer an entry is listed in."""
    if entry.startswith(FONTS_PREFIX):
        return "fonts"
    return "notify_icons" if entry.startswith(ICONS_PREFIX) else "plugin_assets"


def file_changes(paths: Paths, checked: CheckedBackup) -> dict[str, FileChanges]:
    """Return the changes to fonts, plugin uploads and notification icons, refusing a
    font whose family is already taken by an upload under another file name."""
    result = {"fonts": FileChanges(), "plugin_assets": FileChanges(),
              "notify_icons": FileChanges()}
    existing = _existing_fonts(paths)
    for entry in sorted(checked.files):
        kind = kind_of(entry)
        target = target_of(paths, entry)
        if kind == "fonts":
            other = existing.get(normalize(target.stem))
            if other is not None and other != target.name:
                raise ValidationError(f"{entry}: the uploaded font {other} has the same family; "
                                      "delete it first", error_code="FONT_FAMILY_TAKEN",
                                      status=409, details={"entry": entry})
        current = _current_bytes(target)
        if current is None:
            result[kind].added.append(entry)
        elif current == checked.read(entry):
            result[kind].unchanged.append(entry)
        else:
            result[kind].replaced.append(entry)
    return result


def config_changes(plan: Plan, main: JsonObject, secrets: JsonObject) -> dict[str, Any]:
    """Return what the config part of a restore would change (refused: raises the rule's
    own error, its message and details naming the backup's config file)."""
    try:
        new_main, new_secrets, sections = plan(copy.deepcopy(main), copy.deepcopy(secrets))
    except LedpanelError as err:
        if err.status >= 500:
            raise
        details = err.details if isinstance(err.details, dict) else {}
        kind = ValidationError if isinstance(err, ValidationError) else LedpanelError
        raise kind(f"{CONFIG_ENTRY} in the backup: {err.message}", error_code=err.error_code,
                   status=err.status, details={"field": "backup_file", **details,
                                               "entry": CONFIG_ENTRY}) from err
    return {"changed_sections": sorted(sections),
            "config_changes": not same_json(new_main, main),
            "secrets_changes": not same_json(new_secrets, secrets)}


def write_files(paths: Paths, checked: CheckedBackup,
                changes: dict[str, FileChanges]) -> list[tuple[Path, bytes | None]]:
    """Write the added and replaced files atomically; return the undo list."""
    undo: list[tuple[Path, bytes | None]] = []
    try:
        for entry in [e for c in changes.values() for e in (*c.added, *c.replaced)]:
            target = target_of(paths, entry)
            _real_dirs(paths.assets_dir, target.parent)
            before = _current_bytes(target)
            undo.append((target, before))
            atomic_write_bytes(target, checked.read(entry), 0o644)
    except Exception:
        undo_files(undo)
        raise
    return undo


def undo_files(undo: list[tuple[Path, bytes | None]]) -> None:
    """Put back what ``write_files`` replaced, newest first."""
    for target, before in reversed(undo):
        with contextlib.suppress(OSError, LedpanelError):
            if before is None:
                target.unlink(missing_ok=True)
            else:
                atomic_write_bytes(target, before, 0o644)


def keep_pre_restore(paths: Paths, *, now: datetime | None = None) -> Path:
    """Write an archive of the current config, secrets, fonts and uploads into the
    backups folder (mode 0600: it holds the secrets), keeping the newest
    ``KEEP_PRE_RESTORE``; return it."""
    paths.backups_dir.mkdir(parents=True, exist_ok=True)
    name = f"{PRE_RESTORE_PREFIX}{(now or datetime.now()).strftime('%Y%m%d_%H%M%S_%f')}.zip"
    target = paths.backups_dir / name
    temp = paths.backups_dir / f".{name}.tmp"
    try:
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
        with os.fdopen(fd, "wb") as out:
            write_archive(out, paths, include_secrets=True)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temp, target)
    except OSError as err:
        raise LedpanelError(f"cannot keep a pre-restore backup in {paths.backups_dir}: "
                            f"{err.strerror or err}; nothing was restored",
                            error_code="WRITE_FAILED") from err
    finally:
        with contextlib.suppress(OSError):
            temp.unlink()
    for old in list_pre_restore(paths)[:-KEEP_PRE_RESTORE]:
        with contextlib.suppress(OSError):
            old.unlink()
    return target


def list_pre_restore(paths: Paths) -> list[Path]:
    """Return the kept pre-restore archives, oldest first."""
    try:
        names = os.listdir(paths.backups_dir)
    except OSError:
        return []
    return [paths.backups_dir / n for n in sorted(names) if _PRE_RESTORE_NAME.match(n)
            and _is_regular(paths.backups_dir / n)]


def pre_restore_file(paths: Paths, name: str) -> Path:
    """Return a kept pre-restore archive by name, or raise ``BACKUP_NOT_FOUND``."""
    if not isinstance(name, str) or not _PRE_RESTORE_NAME.match(name):
        raise ValidationError(f"{str(name)[:80]!r} is not a pre-restore backup name",
                              error_code="INVALID_PATH", details={"field": "name"})
    path = paths.backups_dir / name
    if not _is_regular(path):
        raise LedpanelError(f"no pre-restore backup {name}", error_code="BACKUP_NOT_FOUND",
                            status=404, details={"field": "name"})
    return path


def _existing_fonts(paths: Paths) -> dict[str, str]:
    directory = paths.fonts_upload_dir
    try:
        names = os.listdir(directory) if stat.S_ISDIR(os.lstat(directory).st_mode) else []
    except OSError:
        names = []
    return {normalize(n.rsplit(".", 1)[0]): n for n in names
            if not n.startswith(".") and "." in n and _is_regular(directory / n)}


def _current_bytes(path: Path) -> bytes | None:
    """Return a target's bytes, None when absent; anything but a regular file refuses."""
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return None
    except OSError as err:
        raise _not_plain(path) from err
    if not stat.S_ISREG(mode):
        raise _not_plain(path)
    return read_regular(path, _READ_LIMIT, follow_symlinks=False)


def _real_dirs(root: Path, directory: Path) -> None:
    """Create ``directory`` under ``root``, refusing any part that is not a real folder."""
    directory.mkdir(parents=True, exist_ok=True)
    current = directory
    while current != root and root in current.parents:
        if not stat.S_ISDIR(os.lstat(current).st_mode):
            raise _not_plain(current)
        current = current.parent


def _not_plain(path: Path) -> LedpanelError:
    return LedpanelError(f"{path} is not a plain file or folder (a symlink?); nothing is "
                         "written through it", error_code="WRITE_FAILED")


def _is_regular(path: Path) -> bool:
    try:
        return stat.S_ISREG(os.lstat(path).st_mode)
    except OSError:
        return False
