"""Installed-plugin records for the web (GET /plugins/installed), read without plugin code.

Only manifests, schemas and the config are read; no plugin module is imported. The
manifest ``icon`` is deliberately left out of the records (the listing omits it).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from shared.config.prepare import prepare_plugin_config
from shared.paths import Paths
from shared.plugin_system.discovery import PluginInfo, discover, plugins_dir_for
from shared.plugin_system.errors import PluginError
from shared.plugin_system.ids import is_plain_segment
from shared.plugin_system.manifest import resolve_enabled
from shared.plugin_system.schema import find_schema_file, load_schema, schema_search_dirs


def installed_records(paths: Paths, config: dict[str, Any]) -> list[dict[str, Any]]:
    """Return one record per discovered plugin, sorted by id, broken ones included."""
    plugins_dir = plugins_dir_for(paths, config)
    infos = discover(plugins_dir, log=False)
    return [plugin_record(info, paths, config, plugins_dir) for info in infos]


def plugin_record(
    info: PluginInfo, paths: Paths, config: dict[str, Any], plugins_dir: Path
) -> dict[str, Any]:
    """Return the record of one discovered plugin."""
    manifest = info.manifest
    errors = list(info.errors)
    schema: dict[str, Any] | None = None
    has_schema = False
    if is_plain_segment(info.id):
        has_schema = find_schema_file(info.id, schema_search_dirs(paths, plugins_dir)) is not None
        has_schema = has_schema or (info.directory / "config_schema.json").is_file()
        try:
            schema = load_schema(info.id, paths, plugins_dir, info.directory)
        except PluginError as err:
            errors.append(err.message)
    section = config.get(info.id)
    prepared = prepare_plugin_config(section if isinstance(section, dict) else {}, schema)
    return {
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
        "has_config_schema": has_schema,
        "errors": errors,
        "warnings": list(info.warnings),
    }


def _text(value: Any) -> str:
    return value if isinstance(value, str) else ""


def _strings(value: Any) -> list[str]:
    return [v for v in value if isinstance(v, str)] if isinstance(value, list) else []
