"""What the web knows of plugins: manifests and schemas read from disk, never plugin code.

Records are recomputed only when a file they derive from changes (plugin folders,
manifests, schemas, the config file), found by a handful of ``stat`` calls, so listing
plugins stays fast without ever serving a stale answer.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path
from typing import Any

from shared.config.store import ConfigStore
from shared.errors import NotFoundError, ValidationError
from shared.paths import Paths
from shared.plugin_system.ids import is_plain_segment
from shared.plugin_system.records import installed_records
from shared.plugin_system.schema import load_schema

_WATCHED_FILES = ("manifest.json", "config_schema.json")


class PluginCatalog:
    """Installed plugin records and schemas for the web daemon."""

    def __init__(self, paths: Paths, store: ConfigStore) -> None:
        self.paths = paths
        self.store = store
        self._lock = threading.Lock()
        self._config: dict[str, Any] | None = None
        self._config_stat: tuple[int, ...] | None = None
        self._plugins_dir = paths.plugins_dir()
        self._fingerprint: tuple[Any, ...] | None = None
        self._records: list[dict[str, Any]] = []
        self._schemas: dict[str, dict[str, Any] | None] = {}

    def plugins_dir(self, config: dict[str, Any] | None = None) -> Path:
        """Return the configured plugin discovery directory."""
        config = self.store.load_main() if config is None else config
        configured = (config.get("plugin_system") or {}).get("plugins_directory")
        return self.paths.plugins_dir(configured)

    def installed(self) -> list[dict[str, Any]]:
        """Return the installed plugin records (no ``icon``)."""
        self._refresh()
        return self._records

    def record(self, plugin_id: str, *, missing_status: int = 400) -> dict[str, Any]:
        """Return one installed plugin's record.

        An unknown id is bad input (400) when it came in a request body, and a missing
        resource (404) when it names what a GET asks for.
        """
        check_plugin_id(plugin_id)
        for record in self.installed():
            if record["id"] == plugin_id:
                return record
        error = NotFoundError if missing_status == 404 else ValidationError
        raise error(f"plugin {plugin_id!r} is not installed", error_code="UNKNOWN_PLUGIN")

    def schema_for(self, plugin_id: str) -> dict[str, Any] | None:
        """Return an installed plugin's config schema, or None when it has none."""
        record = self.record(plugin_id)
        with self._lock:
            if plugin_id not in self._schemas:
                self._schemas[plugin_id] = load_schema(
                    plugin_id, self.paths, self.plugins_dir(), Path(record["path"]))
            return self._schemas[plugin_id]

    def _refresh(self) -> None:
        config_stat = _stat(self.paths.config_file)
        with self._lock:
            if config_stat != self._config_stat or self._config is None:
                self._config = self.store.load_main()
                self._plugins_dir = self.plugins_dir(self._config)
                self._config_stat = config_stat
                self._fingerprint = None
            fingerprint = _tree_stats(self._plugins_dir) + _tree_stats(self.paths.dev_plugins_dir)
            if fingerprint != self._fingerprint:
                self._records = installed_records(self.paths, self._config)
                self._schemas = {}
                self._fingerprint = fingerprint


def _stat(path: Path) -> tuple[int, ...] | None:
    # Atomic replacement gives every saved file a new inode, so saves inside one
    # timestamp tick are still told apart.
    try:
        info = os.stat(path)
    except OSError:
        return None
    return (info.st_ino, info.st_mtime_ns, info.st_size)


def _tree_stats(directory: Path) -> tuple[Any, ...]:
    try:
        names = sorted(os.listdir(directory))
    except OSError:
        return (None,)
    stats: list[Any] = [_stat(directory)]
    for name in names:
        stats.append(name)
        stats.extend(_stat(directory / name / file) for file in _WATCHED_FILES)
    return tuple(stats)


def check_plugin_id(plugin_id: object) -> str:
    """Return ``plugin_id`` if it is one plain path segment, else raise ValidationError."""
    if not isinstance(plugin_id, str) or not plugin_id:
        raise ValidationError("plugin_id is required", error_code="MISSING_PLUGIN_ID")
    if not is_plain_segment(plugin_id):
        raise ValidationError(f"plugin_id {plugin_id!r} is not a plain name",
                              error_code="INVALID_PLUGIN_ID")
    return plugin_id
