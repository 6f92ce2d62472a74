"""The existing system's helpers for loading a plugin's files in its tests
(``src.plugin_system.testing.loading``).

``load_manifest``, ``load_schema`` (None without one), ``load_config_defaults`` (the
schema's defaults, nested ones included, as the device fills them in),
``merge_config`` (a deep merge: a nested override keeps its siblings),
``build_config(plugin_dir, overrides=None)`` (``enabled: True`` under the overrides,
prepared as the device prepares it: ``shared.config.prepare``),
``load_harness_spec`` (test/harness.json as a dict, ``{}`` without one; a ``mock_data``
file named there is read into ``mock_data_contents``), ``build_full_config(plugin_dir,
spec=None, cli_config=None)`` (harness.json's config, then the caller's) and
``find_plugin_dir(plugin_id, search_dirs)``. JSON files are read as UTF-8.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from shared.config.prepare import prepare_plugin_config
from shared.plugin_system.testing.spec import SPEC_FILE, inside


def _json(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


def load_manifest(plugin_dir: Path | str) -> dict[str, Any]:
    """Return the plugin's manifest.json; FileNotFoundError without one."""
    path = Path(plugin_dir) / "manifest.json"
    if not path.is_file():
        raise FileNotFoundError(f"No manifest.json in {plugin_dir}")
    manifest: dict[str, Any] = _json(path)
    return manifest


def load_schema(plugin_dir: Path | str) -> dict[str, Any] | None:
    """Return the plugin's config_schema.json, or None when it has none."""
    path = Path(plugin_dir) / "config_schema.json"
    return _json(path) if path.is_file() else None


def merge_config(base: dict[str, Any], override: dict[str, Any] | None) -> dict[str, Any]:
    """Return ``override`` deep-merged onto ``base`` (nested objects merge, the rest replace)."""
    merged = dict(base)
    for key, value in (override or {}).items():
        if isinstance(value, dict) and isinstance(merged.get(key), dict):
            merged[key] = merge_config(merged[key], value)
        else:
            merged[key] = value
    return merged


def load_config_defaults(plugin_dir: Path | str) -> dict[str, Any]:
    """Return the defaults the plugin's schema gives (empty without a schema)."""
    schema = load_schema(plugin_dir)
    return prepare_plugin_config({}, schema) if schema else {}


def build_config(plugin_dir: Path | str,
                 overrides: dict[str, Any] | None = None) -> dict[str, Any]:
    """Return the config the device would give the plugin: enabled, ``overrides``, defaults."""
    requested = merge_config({"enabled": True}, overrides)
    return prepare_plugin_config(requested, load_schema(plugin_dir))


def load_harness_spec(plugin_dir: Path | str) -> dict[str, Any]:
    """Return test/harness.json (``{}`` without one), its mock_data file read in."""
    path = Path(plugin_dir) / SPEC_FILE
    if not path.is_file():
        return {}
    spec: dict[str, Any] = _json(path)
    relative = spec.get("mock_data")
    if relative:
        mock = Path(plugin_dir) / str(relative)
        if not inside(str(relative)) or not mock.is_file():
            raise FileNotFoundError(
                f"harness.json references mock_data '{relative}' but {mock} does not exist")
        spec["mock_data_contents"] = _json(mock)
    return spec


def build_full_config(plugin_dir: Path | str, spec: dict[str, Any] | None = None,
                      cli_config: dict[str, Any] | None = None) -> dict[str, Any]:
    """Return ``build_config`` over harness.json's ``config`` and then ``cli_config``."""
    overrides = merge_config((spec or {}).get("config") or {}, cli_config)
    return build_config(plugin_dir, overrides)


def find_plugin_dir(plugin_id: str, search_dirs: Sequence[Path | str]) -> Path | None:
    """Return the folder in ``search_dirs`` holding the plugin ``plugin_id``, or None."""
    for base in map(Path, search_dirs):
        if not base.is_dir():
            continue
        for child in sorted(base.iterdir()):
            manifest = child / "manifest.json"
            if not manifest.is_file():
                continue
            if child.name == plugin_id or _manifest_id(manifest) == plugin_id:
                return child
    return None


def _manifest_id(path: Path) -> Any:
    try:
        return _json(path).get("id")
    except (OSError, ValueError, AttributeError):
        return None
