"""What the web knows of plugins: manifests and schemas read from disk, never plugin code.

Manifests and schemas are read again only when the plugin folders change (a folder, a
manifest or a schema file: a ``stat`` each); records, which also derive from the config
file, are recomputed from what was read when the config changes, without reading a
plugin file. Listing plugins stays fast without ever serving a stale answer, and a
config save costs the records, not a walk of every plugin. A record and its schema come
from the same refresh.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Collection, Iterator, Mapping
from pathlib import Path
from typing import Any

from shared.config.merge import same_json
from shared.config.store import ConfigStore, MainSnapshot
from shared.errors import ConfigFileInvalid, NotFoundError, PluginSchemaError, ValidationError
from shared.ids import require_plain_segment
from shared.paths import Paths
from shared.plugin_system.discovery import plugins_dir_for
from shared.plugin_system.records import (
    PluginEntry,
    PluginFiles,
    entry_from_files,
    installed_files,
)
from web_service.app_modes import apps_folder_stamp, with_app_modes

_WATCHED_FILES = ("manifest.json", "config_schema.json")


class PluginCatalog:
    """Installed plugin records and schemas for the web daemon."""

    def __init__(self, paths: Paths, store: ConfigStore) -> None:
        self.paths = paths
        self.store = store
        self._lock = threading.Lock()
        self._snapshot: MainSnapshot | None = None
        self._plugins_dir = paths.plugins_dir()
        self._fingerprint: tuple[Any, ...] | None = None
        self._files: list[PluginFiles] = []
        # The snapshot the records below were computed for (None: compute them again).
        self._records_for: MainSnapshot | None = None
        # id of a PluginFiles in _files -> (the config section, the entry made from both).
        self._made: dict[int, tuple[Any, PluginEntry]] = {}
        self._records: list[dict[str, Any]] = []
        self._entries: dict[str, PluginEntry] = {}

    def installed(self, runtime_errors: Mapping[str, dict[str, Any]] | None = None
                  ) -> list[dict[str, Any]]:
        """Return the installed plugin records (no ``icon``); read them, never change them.

        With ``runtime_errors`` (the running display's failures per plugin id), each
        record is a copy carrying ``runtime_errors``: its plugin's record, or None.
        """
        records = self._refresh()[0]
        if runtime_errors is None:
            return records
        return [{**record, "runtime_errors": runtime_errors.get(record["id"])}
                for record in records]

    def icons(self) -> dict[str, str]:
        """Return each installed plugin's icon-font class names, by id (the default icon
        for a plugin whose manifest names none)."""
        return {plugin_id: entry.icon for plugin_id, entry in self._refresh()[1].items()}

    def plugin_ids(self) -> frozenset[str]:
        """Return the ids of the installed plugins."""
        return frozenset(self._refresh()[1])

    def lazy_plugin_ids(self) -> Collection[str]:
        """Return the installed plugin ids, looked up only if a caller asks about one.

        A save of core settings never needs them; reading them would re-read every
        manifest after each save (the config changed, so the records are recomputed).
        """
        return _LazyIds(self.plugin_ids)

    def record(self, plugin_id: str, *, missing_status: int = 400) -> dict[str, Any]:
        """Return one installed plugin's record.

        An unknown id is bad input (400) when it came in a request body, and a missing
        resource (404) when it names what a GET asks for.
        """
        return self._entry(plugin_id, missing_status).record

    def schema_for(self, plugin_id: str, *, missing_status: int = 400) -> dict[str, Any] | None:
        """Return an installed plugin's config schema, or None when it has none.

        A broken schema file raises PluginSchemaError (422) naming the plugin and file.
        """
        entry = self._entry(plugin_id, missing_status)
        if entry.schema_error is not None:
            err = entry.schema_error
            raise PluginSchemaError(err.message, details=err.details)
        return entry.schema

    def schema_reader(self) -> Callable[[str], dict[str, Any] | None]:
        """Return ``schema_for`` for one save: each plugin's schema is looked up once.

        A save plan asks for the same schemas several times (the section, then the whole-
        file rules); one refresh per plugin gives the plan one consistent view for less.
        """
        found: dict[str, dict[str, Any] | None] = {}

        def schema_for(plugin_id: str) -> dict[str, Any] | None:
            if plugin_id not in found:
                found[plugin_id] = self.schema_for(plugin_id)  # errors are raised each time
            return found[plugin_id]

        return schema_for

    def _entry(self, plugin_id: str, missing_status: int) -> PluginEntry:
        require_plain_segment(plugin_id)
        entry = self._refresh()[1].get(plugin_id)
        if entry is None:
            error = NotFoundError if missing_status == 404 else ValidationError
            raise error(f"plugin {plugin_id!r} is not installed", error_code="UNKNOWN_PLUGIN")
        return entry

    def _refresh(self) -> tuple[list[dict[str, Any]], dict[str, PluginEntry]]:
        try:
            snapshot = self.store.main_snapshot()
        except ConfigFileInvalid:
            # config.json cannot be used (the raw editor may be replacing it): the
            # plugins are where the last good read, or the template, said.
            snapshot = self._snapshot or MainSnapshot(None, self.store.template())
        with self._lock:
            if snapshot is not self._snapshot:
                old = self._snapshot
                if old is None or snapshot.key != old.key or snapshot.data != old.data:
                    self._plugins_dir = plugins_dir_for(self.paths, snapshot.data)
                    self._records_for = None
                self._snapshot = snapshot
            fingerprint = (str(self._plugins_dir), *_tree_stats(self._plugins_dir),
                           *_tree_stats(self.paths.dev_plugins_dir),
                           apps_folder_stamp(self.paths))
            if fingerprint != self._fingerprint:
                self._files = installed_files(self.paths, self._plugins_dir)
                self._fingerprint = fingerprint
                self._records_for, self._made = None, {}
            if self._records_for is None:
                self._set_records(snapshot)
            return self._records, self._entries

    def _set_records(self, snapshot: MainSnapshot) -> None:
        """Make the records for ``snapshot``; a plugin whose section is as it was keeps its
        record (a record derives from its files and its own section only)."""
        made: dict[int, tuple[Any, PluginEntry]] = {}
        entries = []
        for files in self._files:
            section = snapshot.data.get(files.info.id)
            last = self._made.get(id(files))
            if last is not None and same_json(last[0], section):
                entry = last[1]
            else:
                entry = with_app_modes(entry_from_files(files, snapshot.data), self.paths,
                                       snapshot.data)
            made[id(files)] = (section, entry)
            entries.append(entry)
        self._made = made
        self._records = [entry.record for entry in entries]
        self._entries = {}
        for entry in entries:  # a duplicate id: the first, as discovery sorts them
            self._entries.setdefault(entry.record["id"], entry)
        self._records_for = snapshot


def _stat(path: str) -> tuple[int, ...] | None:
    # Atomic replacement gives every saved file a new inode, so saves inside one
    # timestamp tick are still told apart.
    try:
        info = os.stat(path)
    except OSError:
        return None
    return (info.st_ino, info.st_mtime_ns, info.st_size)


def _tree_stats(directory: Path) -> tuple[Any, ...]:
    """Return what changes when a plugin folder is added or removed, or its manifest or
    schema file changes."""
    top = str(directory)
    try:
        names = sorted(os.listdir(top))
    except OSError:
        return (None,)
    stats: list[Any] = [_stat(top)]
    append = stats.append  # a stat per file and plugin, on every refresh: kept lean
    for name in names:
        append(name)
        for file in _WATCHED_FILES:
            append(_stat(f"{top}/{name}/{file}"))
    return tuple(stats)


class _LazyIds(Collection[str]):
    """A collection whose members are computed on first use."""

    def __init__(self, compute: Callable[[], frozenset[str]]) -> None:
        self._compute = compute
        self._ids: frozenset[str] | None = None

    def _get(self) -> frozenset[str]:
        if self._ids is None:
            self._ids = self._compute()
        return self._ids

    def __contains__(self, item: object) -> bool:
        return item in self._get()

    def __iter__(self) -> Iterator[str]:
        return iter(self._get())

    def __len__(self) -> int:
        return len(self._get())
