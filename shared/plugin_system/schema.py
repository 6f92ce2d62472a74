"""Find and read a plugin's configuration schema (``config_schema.json``).

The schema file has a fixed name in the plugin directory; the manifest's
``config_schema`` field is not consulted. Lookup searches the development-symlink
directory ``plugins/`` first, then the configured plugins directory, then the plugin's
own discovered directory, so a plugin being developed shadows an installed copy of the
same id. A schema file that cannot be read, is not JSON or not an object raises
``PluginSchemaError`` (422) naming the plugin and the file: the plugin's fault.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from shared.errors import PluginSchemaError
from shared.files.jsontext import syntax_place
from shared.ids import require_plain_segment
from shared.paths import Paths

SCHEMA_FILE_NAME = "config_schema.json"


def schema_search_dirs(paths: Paths, plugins_dir: Path) -> list[Path]:
    """Return the directories searched for plugin schemas, in order."""
    dirs = [paths.dev_plugins_dir, Path(plugins_dir)]
    return [d for i, d in enumerate(dirs) if d not in dirs[:i]]


def find_schema_file(plugin_id: str, search_dirs: list[Path]) -> Path | None:
    """Return the first ``<dir>/<plugin_id>/config_schema.json`` that exists, or None."""
    require_plain_segment(plugin_id)
    for directory in search_dirs:
        candidate = Path(directory) / plugin_id / SCHEMA_FILE_NAME
        if candidate.is_file():
            return candidate
    return None


def locate_schema(
    plugin_id: str, paths: Paths, plugins_dir: Path, plugin_dir: Path | None = None
) -> Path | None:
    """Return the plugin's schema file, or None when it has none (one search).

    ``plugin_dir`` is the plugin's discovered directory, searched last, for a plugin
    whose directory name differs from its id.
    """
    search = schema_search_dirs(paths, plugins_dir)
    path = find_schema_file(plugin_id, search)
    if path is None and plugin_dir is not None:
        candidate = Path(plugin_dir) / SCHEMA_FILE_NAME
        if candidate not in (Path(d) / plugin_id / SCHEMA_FILE_NAME for d in search):
            path = candidate if candidate.is_file() else None
    return path


def read_schema_file(path: Path, plugin_id: str) -> dict[str, Any]:
    """Read one schema file; raise PluginSchemaError with a readable message when it is bad."""
    details = {"plugin_id": plugin_id, "file": str(path)}
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except json.JSONDecodeError as err:
        place = syntax_place(err)
        raise PluginSchemaError(
            f"{plugin_id}: {path} is not valid JSON: {place.msg} "
            f"(line {place.lineno}, column {place.colno})", details=details
        ) from err
    except (OSError, UnicodeDecodeError, ValueError) as err:
        raise PluginSchemaError(f"{plugin_id}: {path} cannot be read: {err}",
                                details=details) from err
    if not isinstance(data, dict):
        raise PluginSchemaError(f"{plugin_id}: {path} must hold a JSON object", details=details)
    return data


def load_schema(
    plugin_id: str, paths: Paths, plugins_dir: Path, plugin_dir: Path | None = None
) -> dict[str, Any] | None:
    """Return a plugin's config schema, or None when it has none.

    ``plugin_dir`` is the plugin's discovered directory, searched last, for a plugin
    whose directory name differs from its id.
    """
    path = locate_schema(plugin_id, paths, plugins_dir, plugin_dir)
    return None if path is None else read_schema_file(path, plugin_id)


def schema_lookup(paths: Paths, plugins_dir: Path) -> tuple[set[str], Any]:
    """Return the installed plugin ids and a ``schema_for(plugin_id)`` for config checks.

    A plugin is installed when it has a folder in the plugins directory or in
    ``plugins/``; ``schema_for`` raises ValidationError ``UNKNOWN_PLUGIN`` for any other
    id (the config rules leave such sections unchecked) and ``PluginSchemaError`` for a
    broken schema file.
    """
    from shared.errors import ValidationError

    installed: set[str] = set()
    for directory in schema_search_dirs(paths, plugins_dir):
        try:
            installed |= {child.name for child in Path(directory).iterdir()
                          if child.is_dir() and not child.name.startswith(".")}
        except OSError:
            continue

    def schema_for(plugin_id: str) -> dict[str, Any] | None:
        if plugin_id not in installed:
            raise ValidationError(f"plugin {plugin_id!r} is not installed",
                                  error_code="UNKNOWN_PLUGIN")
        return load_schema(plugin_id, paths, plugins_dir)

    return installed, schema_for
