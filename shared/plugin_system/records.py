"""Installed-plugin records for the web (GET /plugins/installed), read without plugin code.

Only manifests, schemas and the config are read; no plugin module is imported. The
manifest ``icon`` is deliberately left out of the records (the listing omits it): it is
kept beside the record (``PluginEntry.icon``, ``plugin_icon``) for the pages that draw it. A
schema file that is broken (unreadable, not JSON, not an object, not a valid JSON
Schema) is reported in the record's ``errors``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from shared.config.prepare import invalid_schema, prepare_plugin_config, schema_problem
from shared.errors import PluginError
from shared.ids import is_plain_segment
from shared.paths import Paths
from shared.plugin_system.discovery import PluginInfo, discover, plugins_dir_for
from shared.plugin_system.manifest import resolve_enabled
from shared.plugin_system.schema import locate_schema, read_schema_file


@dataclass
class PluginEntry:
    """One discovered plugin: its record, its schema (None: it has none) and, when the
    schema file is broken, the error a save or a read of the plugin's config raises."""

    record: dict[str, Any]
    schema: dict[str, Any] | None
    schema_error: PluginError | None = None
    icon: str = ""


def installed_records(paths: Paths, config: dict[str, Any]) -> list[dict[str, Any]]:
    """Return one record per discovered plugin, sorted by id, broken ones included."""
    return [entry.record for entry in installed_entries(paths, config)]


def installed_entries(
    paths: Paths, config: dict[str, Any], plugins_dir: Path | None = None
) -> list[PluginEntry]:
    """Return every discovered plugin's record and schema, sorted by id.

    ``config`` is only read. ``plugins_dir`` defaults to the one ``config`` names.
    """
    plugins_dir = plugins_dir_for(paths, config) if plugins_dir is None else plugins_dir
    return [entry_from_files(files, config) for files in installed_files(paths, plugins_dir)]


def installed_files(paths: Paths, plugins_dir: Path) -> list[PluginFiles]:
    """Return what every discovered plugin's files say, sorted by id (no config read)."""
    return [plugin_files(info, paths, plugins_dir) for info in discover(plugins_dir, log=False)]


def plugin_record(
    info: PluginInfo, paths: Paths, config: dict[str, Any], plugins_dir: Path
) -> dict[str, Any]:
    """Return the record of one discovered plugin."""
    return plugin_entry(info, paths, config, plugins_dir).record


def plugin_entry(
    info: PluginInfo, paths: Paths, config: dict[str, Any], plugins_dir: Path
) -> PluginEntry:
    """Return the record and schema of one discovered plugin (its schema found once)."""
    return entry_from_files(plugin_files(info, paths, plugins_dir), config)


@dataclass(frozen=True)
class PluginFiles:
    """What one discovered plugin's manifest and schema file say: the part of its record
    that no config changes (a config save recomputes records from these, reading nothing)."""

    info: PluginInfo
    schema: dict[str, Any] | None
    schema_error: PluginError | None
    has_schema: bool
    errors: tuple[str, ...]


def plugin_files(info: PluginInfo, paths: Paths, plugins_dir: Path) -> PluginFiles:
    """Read and check one discovered plugin's schema file."""
    errors = list(info.errors)
    schema: dict[str, Any] | None = None
    schema_error: PluginError | None = None
    path = None
    if is_plain_segment(info.id):
        path = locate_schema(info.id, paths, plugins_dir, info.directory)
        try:
            schema = None if path is None else read_schema_file(path, info.id)
        except PluginError as err:
            schema_error = err
        if schema is not None and (problem := schema_problem(schema)) is not None:
            # Still used to prepare the record (defaults such as "enabled"), as the
            # display does; saves and reads through the catalog are refused.
            schema_error = invalid_schema(info.id, problem, str(path))
        if schema_error is not None:
            errors.append(schema_error.message)
    return PluginFiles(info, schema, schema_error, path is not None, tuple(errors))


def entry_from_files(files: PluginFiles, config: dict[str, Any]) -> PluginEntry:
    """Return a plugin's record and schema under ``config`` (only read)."""
    info, manifest, schema = files.info, files.info.manifest, files.schema
    section = config.get(info.id)
    prepared = prepare_plugin_config(section if isinstance(section, dict) else {}, schema)
    record = {
        "id": info.id,
        "name": _text(manifest.get("name")) or info.id,
        "version": _text(manifest.get("version")),
        "author": _text(manifest.get("author")),
        "description": _text(manifest.get("description")),
        "category": _text(manifest.get("category")),
        "tags": _strings(manifest.get("tags")),
        "enabled": resolve_enabled(prepared, manifest),
        "display_modes": _strings(manifest.get("display_modes")) or [info.id],
        "entry_point": info.entry_point,
        "class_name": info.class_name or "",
        "path": str(info.directory),
        "has_config_schema": files.has_schema,
        "errors": list(files.errors),
        "warnings": list(info.warnings),
    }
    return PluginEntry(record, schema, files.schema_error, plugin_icon(manifest))


# The spec's default when a manifest names no icon: a puzzle piece (Font Awesome Free).
DEFAULT_ICON = "fas fa-puzzle-piece"
# Icon-font class names ("fas fa-clock", "fa-solid fa-sun"): a few plain words. Anything
# else a manifest puts there is not drawn into a class attribute.
_ICON_CLASSES = re.compile(r"[A-Za-z][A-Za-z0-9_-]{0,40}(?: [A-Za-z][A-Za-z0-9_-]{0,40}){0,5}")


def plugin_icon(manifest: dict[str, Any]) -> str:
    """Return the icon-font class names a plugin is drawn with (the default when its
    manifest names none, or names something that is not class names)."""
    icon = manifest.get("icon")
    if isinstance(icon, str) and _ICON_CLASSES.fullmatch(" ".join(icon.split())):
        return " ".join(icon.split())
    return DEFAULT_ICON


def _text(value: Any) -> str:
    return value if isinstance(value, str) else ""


def _strings(value: Any) -> list[str]:
    return [v for v in value if isinstance(v, str)] if isinstance(value, list) else []
