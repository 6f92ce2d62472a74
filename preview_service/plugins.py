"""Which plugins the preview can show: id checks, folder lookup, manifest problems.

A plugin id must match ``PLUGIN_ID`` (1-64 letters, digits, ``_`` or ``-``) and name a
plugin discovered in the plugins directory (the loader's discovery and manifest rules);
a plugin whose manifest breaks those rules is a ``BadManifest``. The schema is read
here (the page draws the config editor from it); plugin code is never imported here.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from shared.errors import LedpanelError
from shared.plugin_system.discovery import PluginInfo, discover
from shared.plugin_system.schema import SCHEMA_FILE_NAME, read_schema_file

PLUGIN_ID = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")


class UnknownPlugin(Exception):
    """The id is malformed or names no plugin folder."""


class BadManifest(Exception):
    """The plugin's manifest breaks the loading rules."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("; ".join(problems))
        self.problems = problems


def find_plugin(plugins_dir: Path, plugin_id: Any) -> PluginInfo:
    """Return the plugin's discovery record; raise UnknownPlugin or BadManifest."""
    if not isinstance(plugin_id, str) or not PLUGIN_ID.fullmatch(plugin_id):
        raise UnknownPlugin("plugin_id must match " + PLUGIN_ID.pattern)
    for info in discover(plugins_dir, log=False):
        if info.id == plugin_id or info.directory.name == plugin_id:
            if info.errors:
                raise BadManifest(info.errors)
            return info
    raise UnknownPlugin(f"no plugin {plugin_id!r}")


def list_plugins(plugins_dir: Path) -> list[dict[str, Any]]:
    """Return every discovered plugin: id, name, manifest modes and whether it loads."""
    return [{"id": info.id, "name": info.manifest.get("name") or info.id,
             "display_modes": list(info.manifest.get("display_modes") or []),
             "ok": info.ok}
            for info in discover(plugins_dir, log=False)]


def plugin_schema(info: PluginInfo) -> dict[str, Any] | None:
    """Return the plugin's own config schema, or None (none, or unreadable)."""
    path = info.directory / SCHEMA_FILE_NAME
    if not path.is_file():
        return None
    try:
        return read_schema_file(path, info.id)
    except LedpanelError:
        return None
