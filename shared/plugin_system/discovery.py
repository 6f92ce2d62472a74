"""Find plugins in one directory and read their manifests, without importing plugin code.

Every sub-directory holding a ``manifest.json`` is a plugin; hidden directories are
skipped and symlinked directories are followed (``plugins/`` is full of them). The
plugin id is the manifest's ``id``; the directory name is only a fallback when the
manifest has no usable id, and a different directory name is a warning, not an
error, so a checkout named ``ledpanel-weather`` still loads as ``weather``. When two
directories declare the same id, the one whose directory name equals the id (else
the first by directory name) keeps it and the others are reported as duplicates.

Discovery never raises for one broken plugin: its ``PluginInfo`` carries the errors
and it is logged as ``"<plugin_id>: skipped: <reason>"``.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from shared.errors import ManifestError
from shared.ids import is_plain_segment
from shared.paths import Paths
from shared.plugin_system.manifest import (
    DEFAULT_ENTRY_POINT,
    MANIFEST_FILE,
    check_manifest,
    load_manifest,
    with_defaults,
)

logger = logging.getLogger(__name__)


@dataclass
class PluginInfo:
    """One discovered plugin: its id, directory, manifest (defaults filled) and problems."""

    id: str
    directory: Path
    manifest: dict[str, Any]
    errors: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """Return True when nothing stops the plugin from loading."""
        return not self.errors

    @property
    def entry_point(self) -> str:
        """Return the entry point file, relative to the plugin directory."""
        value = self.manifest.get("entry_point")
        return value if isinstance(value, str) and value else DEFAULT_ENTRY_POINT

    @property
    def class_name(self) -> str | None:
        """Return the declared plugin class name, if it is a string."""
        value = self.manifest.get("class_name")
        return value if isinstance(value, str) else None


def plugins_dir_for(paths: Paths, config: dict[str, Any]) -> Path:
    """Return the plugins directory named by ``plugin_system.plugins_directory``."""
    section = config.get("plugin_system")
    configured = section.get("plugins_directory") if isinstance(section, dict) else None
    return paths.plugins_dir(configured if isinstance(configured, str) else None)


def discover(plugins_dir: Path, *, log: bool = True) -> list[PluginInfo]:
    """Return the plugins in ``plugins_dir`` sorted by id; broken ones carry their errors."""
    plugins_dir = Path(plugins_dir)
    if not plugins_dir.is_dir():
        logger.debug("plugin directory %s does not exist", plugins_dir)
        return []
    found = [
        read_plugin(child)
        for child in sorted(plugins_dir.iterdir(), key=lambda p: p.name)
        if _is_plugin_dir(child)
    ]
    _mark_duplicates(found)
    found.sort(key=lambda info: (info.id, info.directory.name))
    if log:
        log_problems(found)
    return found


def read_plugin(directory: Path) -> PluginInfo:
    """Read one plugin directory into a PluginInfo without raising."""
    try:
        raw = load_manifest(directory)
    except ManifestError as err:
        return PluginInfo(directory.name, directory, {}, errors=[err.message])
    errors, warnings = check_manifest(raw)
    declared = raw.get("id")
    plugin_id = declared if isinstance(declared, str) else directory.name
    if not is_plain_segment(plugin_id):
        plugin_id = directory.name
    if plugin_id != directory.name:
        warnings.append(f"id {plugin_id!r} differs from its directory name {directory.name!r}")
    info = PluginInfo(plugin_id, directory, with_defaults(raw), errors, warnings)
    if not any(message.startswith("entry_point") for message in errors):
        if not (directory / info.entry_point).is_file():
            errors.append(f"entry_point: {info.entry_point} not found in {directory}")
    return info


def log_problems(infos: list[PluginInfo]) -> None:
    """Log each plugin's errors (as skipped) and warnings, one line per plugin and problem."""
    for info in infos:
        if info.errors:
            logger.warning("%s: skipped: %s", info.id, "; ".join(info.errors))
        for warning in info.warnings:
            logger.warning("%s: %s", info.id, warning)


def _is_plugin_dir(path: Path) -> bool:
    if path.name.startswith("."):
        return False
    try:
        return path.is_dir() and (path / MANIFEST_FILE).is_file()
    except OSError:
        return False


def _mark_duplicates(infos: list[PluginInfo]) -> None:
    by_id: dict[str, list[PluginInfo]] = {}
    for info in infos:
        by_id.setdefault(info.id, []).append(info)
    for plugin_id, group in by_id.items():
        if len(group) < 2:
            continue
        keeper = next((i for i in group if i.directory.name == plugin_id), group[0])
        for info in group:
            if info is not keeper:
                info.errors.append(f"duplicate id {plugin_id!r}: also in {keeper.directory}")
