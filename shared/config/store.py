"""The config store: config/config.json plus config/config_secrets.json.

Every write takes the cross-process lock, backs up config.json and replaces the files
atomically, so a crash at any point leaves a config that parses.

Reads of config.json are parsed once per change of the file: ``main_snapshot()`` stats
the file on every call and re-parses it when its identity (inode, mtime, size)
differs from the cached copy's, so nothing stale is ever returned. A file modified in
the last ``RACY_WINDOW_NS`` could be rewritten in place within one timestamp tick
without any of the three changing, so its parsed copy is not reused until it is older.
"""

from __future__ import annotations

import contextlib
import copy
import os
import threading
import time
from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from shared.config.backups import (
    BACKUP_PREFIX,
    drop_set_aside,
    keep_bad_copy,
    make_backup,
    put_back,
    set_aside,
)
from shared.config.lock import config_lock
from shared.config.merge import same_json
from shared.config.migrate import migrate
from shared.config.secrets import keep_secrets_secret, merge_secrets
from shared.config.sizes import size_errors
from shared.config.template import load_template
from shared.errors import ConfigError, ConfigFileInvalid, LedpanelError, ValidationError
from shared.files.file_key import file_key, settled
from shared.files.jsonfile import (
    atomic_write_bytes,
    atomic_write_json,
    decode_utf8,
    dumps,
    read_file_bytes,
    read_json_file,
)
from shared.paths import Paths

JsonObject = dict[str, Any]
UpdateFn = Callable[[JsonObject, JsonObject], "tuple[JsonObject, JsonObject] | None"]

SECRETS_MODE = 0o600
DEFAULT_MODE = 0o644
# Coarser than any file system's timestamp granularity we run on (FAT's is 2 s).
RACY_WINDOW_NS = 2_000_000_000

FileKey = tuple[int, int, int]


@dataclass(frozen=True, eq=False)
class MainSnapshot:
    """config.json as parsed once: ``key`` is the file's (inode, mtime_ns, size), None
    for the template (no file yet). ``data`` is shared by every caller that gets this
    snapshot: read it, never change it (``ConfigStore.load_main`` gives a copy)."""

    key: FileKey | None
    data: JsonObject


class ConfigStore:
    """Read and write the main config and the secrets file of one instance."""

    def __init__(self, paths: Paths, *, lock_timeout: float = 10.0) -> None:
        self.paths = paths
        self.lock_timeout = lock_timeout
        self._cache_lock = threading.Lock()
        self._main_cache: MainSnapshot | None = None
        # (main, its text) while a save writes it: serialised once for the size check
        # and the write (set and read under the config lock).
        self._serialised: tuple[JsonObject, str] | None = None
        # The identity of the secrets file as last read whole and found usable.
        self._secrets_checked: tuple[int, ...] | None = None

    def lock(self) -> AbstractContextManager[None]:
        """Return the config lock as a context manager (reentrant within a thread)."""
        return config_lock(self.paths, self.lock_timeout)

    def template(self) -> JsonObject:
        """Return a fresh copy of the config template."""
        return load_template(self.paths.template_file)

    def ensure(self) -> list[str]:
        """Create config.json from the template or add missing keys; return added paths."""
        with self.lock():
            self._remove_stale_temp_files()
            template = self.template()
            stored = self._read(self.paths.config_file)
            if stored is None:
                self._write_main(template)
                return sorted(template)
            migrated, added = migrate(stored, template)
            if added:
                self.save(migrated)
            return added

    def load(self) -> JsonObject:
        """Return the main config with the secrets deep-merged in (a new object)."""
        return merge_secrets(self.main_snapshot().data, self.load_secrets())

    def load_main(self) -> JsonObject:
        """Return config.json as stored (the template if the file does not exist yet).

        The caller owns the result and may change it; read-only callers use
        ``main_snapshot()``, which copies nothing.
        """
        return copy.deepcopy(self.main_snapshot().data)

    def main_snapshot(self) -> MainSnapshot:
        """Return config.json parsed, re-read only when the file changed (see the module).

        The snapshot's ``data`` is shared: read it, never change it. The same snapshot
        object is returned for as long as the file is unchanged, so callers may key
        their own derived caches on it.
        """
        path = self.paths.config_file
        try:
            info = os.stat(path)
        except OSError:
            info = None  # missing: the template; unreadable: _read raises
        key = (info.st_ino, info.st_mtime_ns, info.st_size) if info is not None else None
        if key is not None:
            with self._cache_lock:
                cached = self._main_cache
            if cached is not None and cached.key == key:
                return cached
        stored = self._read(path)
        if stored is None:
            return MainSnapshot(None, self.template())
        snapshot = MainSnapshot(key, stored)
        settled = info is not None and time.time_ns() - info.st_mtime_ns >= RACY_WINDOW_NS
        with self._cache_lock:
            self._main_cache = snapshot if settled else None
        return snapshot

    def load_secrets(self) -> JsonObject:
        """Return config_secrets.json, or an empty dict when there is none."""
        stored = self._read(self.paths.secrets_file)
        return {} if stored is None else stored

    def check_secrets(self) -> None:
        """Raise ConfigError when config_secrets.json cannot be read as ``load_secrets`` would.

        The file is read again only when its identity changed (``shared.files.file_key``):
        one ``stat`` for a file already found usable, so a status can ask on every request.
        """
        try:
            info = os.stat(self.paths.secrets_file)
        except FileNotFoundError:
            return  # no secrets file: load_secrets gives {}
        except OSError:
            info = None  # unreadable: load_secrets raises
        if info is not None and file_key(info) == self._secrets_checked:
            return
        self.load_secrets()
        if info is not None and settled(info):
            self._secrets_checked = file_key(info)

    def read_text(self) -> str:
        """Return config.json exactly as stored, for the raw editor.

        The text is returned even when it is not valid JSON (the editor is where it gets
        fixed). A missing file gives the template's text, the config a daemon would
        create; a file that is not UTF-8 raises ConfigError naming the byte's position.
        """
        path = self.paths.config_file
        try:
            data = read_file_bytes(path, "config file")
        except ConfigError as err:
            if err.error_code == "FILE_NOT_FOUND":
                return dumps(self.template())
            raise
        return decode_utf8(data, path, "config file",
                           "the editor cannot show it: fix it by hand or copy back a "
                           f"backup from {self.paths.backups_dir}")

    def save(self, main: JsonObject, secrets: JsonObject | None = None, *,
             backup: bool = True) -> JsonObject:
        """Back up config.json, then write the main config (and the secrets, if given).

        Returns the main config as written (a value stored in the secrets file stays
        there, see ``keep_secrets_secret``); the caller owns it. ``backup=False`` skips
        the backup (the file being replaced was kept another way).
        """
        return self._save(main, secrets, backup=backup)

    def _save(self, main: JsonObject, secrets: JsonObject | None, *, backup: bool,
              text: str | None = None) -> JsonObject:
        """``save``; ``text`` is ``dumps(main)`` when the caller has it (serialised once)."""
        _require_object(main, "config")
        if secrets is not None:
            _require_object(secrets, "secrets")
        with self.lock():
            current = self.load_secrets() if secrets is None else secrets
            given = main
            main, moved = keep_secrets_secret(main, current)
            if main is not given:  # a secret moved out: the text to write changed
                text = None
            secrets_before: bytes | None = None
            write_secrets = secrets is not None or moved != current
            if write_secrets:
                secrets_before = self._bytes_or_none(self.paths.secrets_file)
            aside: list[Any] = []
            try:  # whatever fails in here, both files end as they were
                if write_secrets:
                    atomic_write_json(self.paths.secrets_file, moved, SECRETS_MODE)
                aside = set_aside(self.paths) if backup else []
                taken = make_backup(self.paths, keep=None) if backup else None
                # Under the lock: _write_main writes this text for this very object.
                self._serialised = (main, text) if text is not None else None
                try:
                    self._write_main(main)
                except Exception:
                    if taken is not None:  # the save failed: it rotates no backup out
                        with contextlib.suppress(OSError):
                            taken.unlink()
                    raise
            except Exception:
                put_back(aside)
                if write_secrets:  # one transaction: the secrets go back as they were
                    self._put_secrets_back(secrets_before)
                raise
            finally:
                self._serialised = None
            drop_set_aside(aside)
            return main

    def _bytes_or_none(self, path: Path) -> bytes | None:
        try:
            return read_file_bytes(path, "secrets file")
        except ConfigError as err:
            if err.error_code == "FILE_NOT_FOUND":
                return None
            raise

    def _put_secrets_back(self, before: bytes | None) -> None:
        """Restore the secrets file's bytes after a failed save (None: it did not exist)."""
        try:
            if before is None:
                self.paths.secrets_file.unlink(missing_ok=True)
            else:
                atomic_write_bytes(self.paths.secrets_file, before, SECRETS_MODE)
        except (OSError, LedpanelError) as err:
            raise ConfigError(f"the save failed and the secrets file could not be put back "
                              f"as it was: {err}") from err

    def update(self, fn: UpdateFn, *, replace_unreadable: bool = False, pure: bool = False
               ) -> tuple[JsonObject, JsonObject]:
        """Read, change with ``fn(main, secrets)`` and save, all under the lock.

        Only what changed is written: a change that leaves both files as they are
        writes nothing and takes no backup (so empty saves never push real backups
        out), and a change to the secrets alone rewrites only the secrets file.
        Returns the new ``(main, secrets)`` either way, main as written to config.json;
        the caller owns both.

        A config.json that cannot be used raises ConfigFileInvalid, unless
        ``replace_unreadable`` (the raw editor, the one way to repair it without a
        shell): then ``fn`` gets an empty main config and the bad file is kept as
        ``backups/config.json.bad.<stamp>`` before it is replaced.

        ``pure``: ``fn`` changes neither argument (it returns new objects, sharing what
        it leaves as it was), so it is given the shared snapshot instead of a copy and
        a save costs what it changes, not the size of the config.
        """
        with self.lock():
            unusable = False
            try:
                snapshot = self.main_snapshot()
            except ConfigFileInvalid:
                if not replace_unreadable:
                    raise
                snapshot, unusable = MainSnapshot(None, {}), True
            main = snapshot.data if pure else copy.deepcopy(snapshot.data)
            secrets = self.load_secrets()
            secrets_before = secrets if pure else copy.deepcopy(secrets)
            result = fn(main, secrets)
            if result is not None:
                main, secrets = result
            _require_object(main, "config")
            _require_object(secrets, "secrets")
            main_changed = not same_json(main, snapshot.data)
            secrets_changed = not same_json(secrets, secrets_before)
            write_main = main_changed or snapshot.key is None  # no file yet: create it
            text = dumps(main) if write_main else None  # the one serialisation of a save
            # The rules refuse oversized changes already; this keeps every writer honest.
            if main_changed:
                for error in size_errors(main, snapshot.data, text=text):
                    raise error
            if secrets_changed:
                for error in size_errors(secrets, secrets_before,
                                         file_name=self.paths.secrets_file.name):
                    raise error
            if write_main:
                if unusable:  # kept aside, not rotated in with the good backups
                    keep_bad_copy(self.paths)
                main = self._save(main, secrets if secrets_changed else None,
                                  backup=not unusable, text=text)
            elif secrets_changed:
                atomic_write_json(self.paths.secrets_file, secrets, SECRETS_MODE)
            return main, secrets

    def _remove_stale_temp_files(self) -> None:
        # Every writer of these files holds the lock, so a temp file seen now was left
        # by a writer that was killed mid-save.
        patterns = [
            (self.paths.config_dir, f".{self.paths.config_file.name}.*.tmp"),
            (self.paths.config_dir, f".{self.paths.secrets_file.name}.*.tmp"),
            (self.paths.backups_dir, f".{BACKUP_PREFIX}*.tmp"),
        ]
        for directory, pattern in patterns:
            for leftover in directory.glob(pattern):
                with contextlib.suppress(OSError):
                    leftover.unlink()

    def _write_main(self, main: JsonObject) -> None:
        try:
            mode = self.paths.config_file.stat().st_mode & 0o777
        except OSError:
            mode = DEFAULT_MODE
        serialised = self._serialised
        text = serialised[1] if serialised is not None and serialised[0] is main else None
        atomic_write_json(self.paths.config_file, main, mode, text=text)

    def _read(self, path: Path) -> JsonObject | None:
        """Return a config file's object, or None when the file does not exist."""
        what = "secrets file" if path == self.paths.secrets_file else "config file"
        try:
            data = read_json_file(path, what)
        except ConfigError as err:
            if err.error_code == "FILE_NOT_FOUND":
                return None
            raise
        if not isinstance(data, dict):
            raise ConfigFileInvalid(
                f"{path.name} must hold a JSON object, not {type(data).__name__} ({path})",
                error_code="CONFIG_INVALID_JSON",
                details={"file": str(path)},
            )
        return data


def _require_object(value: Any, what: str) -> None:
    if not isinstance(value, dict):
        raise ValidationError(
            f"the {what} must be a JSON object, not {_json_type(value)}",
            error_code="INVALID_CONFIG",
        )


def _json_type(value: Any) -> str:
    names = {list: "an array", str: "a string", bool: "a boolean", type(None): "null"}
    for kind, name in names.items():
        if isinstance(value, kind):
            return name
    return "a number" if isinstance(value, int | float) else type(value).__name__
