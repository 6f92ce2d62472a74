"""The config store: config/config.json plus config/config_secrets.json.

Every write takes the cross-process lock, backs up config.json and replaces the files
atomically, so a crash at any point leaves a config that parses.
"""

from __future__ import annotations

import contextlib
import copy
from collections.abc import Callable
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any

from shared.config.backups import BACKUP_PREFIX, make_backup
from shared.config.lock import config_lock
from shared.config.migrate import migrate
from shared.config.secrets import keep_secrets_secret, merge_secrets
from shared.config.template import load_template
from shared.errors import ConfigError, ValidationError
from shared.jsonfile import atomic_write_json, dumps, read_json_file
from shared.paths import Paths

JsonObject = dict[str, Any]
UpdateFn = Callable[[JsonObject, JsonObject], "tuple[JsonObject, JsonObject] | None"]

SECRETS_MODE = 0o600
DEFAULT_MODE = 0o644


class ConfigStore:
    """Read and write the main config and the secrets file of one instance."""

    def __init__(self, paths: Paths, *, lock_timeout: float = 10.0) -> None:
        self.paths = paths
        self.lock_timeout = lock_timeout

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
        """Return the main config with the secrets deep-merged in."""
        return merge_secrets(self.load_main(), self.load_secrets())

    def load_main(self) -> JsonObject:
        """Return config.json as stored (the template if the file does not exist yet)."""
        stored = self._read(self.paths.config_file)
        return self.template() if stored is None else stored

    def load_secrets(self) -> JsonObject:
        """Return config_secrets.json, or an empty dict when there is none."""
        stored = self._read(self.paths.secrets_file)
        return {} if stored is None else stored

    def read_text(self) -> str:
        """Return config.json exactly as stored, for the raw editor.

        The text is returned even when it is not valid JSON (the editor is where it gets
        fixed). A missing file gives the template's text, the config a daemon would
        create; a file that is not UTF-8 raises ConfigError naming the byte's position.
        """
        path = self.paths.config_file
        try:
            data = path.read_bytes()
        except FileNotFoundError:
            return dumps(self.template())
        except OSError as err:
            raise ConfigError(f"cannot read {path}: {err.strerror or err}") from err
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError as err:
            line = data.count(b"\n", 0, err.start) + 1
            column = err.start - (data.rfind(b"\n", 0, err.start) + 1) + 1
            raise ConfigError(
                f"{path.name} is not UTF-8 text (byte 0x{data[err.start]:02x} at line {line}, "
                f"column {column}), so the editor cannot show it; fix it by hand or copy "
                f"back a backup from {self.paths.backups_dir}",
                error_code="CONFIG_INVALID_JSON",
                details={"file": str(path), "line": line, "column": column},
            ) from err

    def save(self, main: JsonObject, secrets: JsonObject | None = None) -> None:
        """Back up config.json, then write the main config (and the secrets, if given)."""
        _require_object(main, "config")
        if secrets is not None:
            _require_object(secrets, "secrets")
        with self.lock():
            current = self.load_secrets() if secrets is None else secrets
            main, moved = keep_secrets_secret(main, current)
            if secrets is not None or moved != current:
                atomic_write_json(self.paths.secrets_file, moved, SECRETS_MODE)
            make_backup(self.paths)
            self._write_main(main)

    def update(self, fn: UpdateFn) -> tuple[JsonObject, JsonObject]:
        """Read, change with ``fn(main, secrets)`` and save, all under the lock.

        Only what changed is written: a change that leaves both files as they are
        writes nothing and takes no backup (so empty saves never push real backups
        out), and a change to the secrets alone rewrites only the secrets file.
        Returns the new ``(main, secrets)`` either way.
        """
        with self.lock():
            main, secrets = self.load_main(), self.load_secrets()
            main_before, secrets_before = copy.deepcopy(main), copy.deepcopy(secrets)
            result = fn(main, secrets)
            if result is not None:
                main, secrets = result
            _require_object(main, "config")
            _require_object(secrets, "secrets")
            main_changed = not _same_json(main, main_before)
            secrets_changed = not _same_json(secrets, secrets_before)
            if main_changed or not self.paths.config_file.exists():
                self.save(main, secrets if secrets_changed else None)
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
        atomic_write_json(self.paths.config_file, main, mode)

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
            raise ConfigError(
                f"{path.name} must hold a JSON object, not {type(data).__name__} ({path})",
                error_code="CONFIG_INVALID_JSON",
                details={"file": str(path)},
            )
        return data


def _same_json(a: Any, b: Any) -> bool:
    """Return whether two JSON values are equal, types included (``1``, ``1.0`` and
    ``True`` differ, unlike with ``==``); key order does not matter."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(_same_json(a[key], b[key]) for key in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(_same_json(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)


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
