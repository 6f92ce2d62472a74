"""Lint a plugin folder with the loader's own rules: its manifest and its config schema."""

from __future__ import annotations

from pathlib import Path

from shared.config.prepare import schema_problem
from shared.errors import PluginError
from shared.plugin_system.discovery import read_plugin
from shared.plugin_system.schema import SCHEMA_FILE_NAME, read_schema_file


def lint_plugin(plugin_dir: Path) -> tuple[list[str], list[str]]:
    """Return (errors, warnings) for the manifest and ``config_schema.json`` of a plugin.

    The manifest is read as discovery reads it (missing keys, bad types, entry point);
    the schema, when present, must be a JSON object valid against its meta-schema.
    """
    info = read_plugin(Path(plugin_dir))
    errors = [f"manifest.json: {e}" for e in info.errors]
    warnings = [f"manifest.json: {w}" for w in info.warnings]
    schema_file = Path(plugin_dir) / SCHEMA_FILE_NAME
    if not schema_file.is_file():
        warnings.append(f"{SCHEMA_FILE_NAME}: none (the plugin has no settings form)")
        return errors, warnings
    try:
        schema = read_schema_file(schema_file, info.id)
    except PluginError as err:
        errors.append(err.message)
        return errors, warnings
    problem = schema_problem(schema)
    if problem:
        errors.append(f"{SCHEMA_FILE_NAME}: {problem}")
    return errors, warnings
