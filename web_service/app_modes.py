"""The ``starlark-apps`` plugin's display modes as the web lists them: one per app.

(A loose module, not in ``web_service.starlark``: the plugin catalog uses it, and that
package reaches the catalog through the services and the store.)

The display's plugin sets its modes from the apps folder and its config section (one
``starlark-<app_id>`` per installed, enabled app, in id order); the web reads the same
two things, never the plugin's code, so its plugin record lists the same modes and an
on-demand request for an app's mode is accepted. With no app, the manifest's modes stay.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

from shared.paths import Paths
from shared.plugin_system.records import PluginEntry
from shared.starlark.installed.app_ids import mode_of
from shared.starlark.installed.folder import PLUGIN_ID, AppsFolder, apps_root


def app_modes(paths: Paths, config: dict[str, Any]) -> list[str]:
    """The display modes of the installed, enabled apps, in app id order."""
    section = config.get(PLUGIN_ID)
    apps = section.get("apps") if isinstance(section, dict) else None
    entries = apps if isinstance(apps, dict) else {}
    return [mode_of(app_id) for app_id in AppsFolder(apps_root(paths)).ids()
            if not (isinstance(entries.get(app_id), dict)
                    and entries[app_id].get("enabled") is False)]


def with_app_modes(entry: PluginEntry, paths: Paths, config: dict[str, Any]) -> PluginEntry:
    """``entry`` with the apps' modes as its ``display_modes`` when it is the apps plugin."""
    if entry.record.get("id") != PLUGIN_ID:
        return entry
    modes = app_modes(paths, config)
    if not modes:
        return entry
    return dataclasses.replace(entry, record={**entry.record, "display_modes": modes})


def apps_folder_stamp(paths: Paths) -> tuple[int, int] | None:
    """What changes when an app is installed or removed (its folder is renamed in or out)."""
    root: Path = apps_root(paths)
    try:
        info = root.stat()
    except OSError:
        return None
    return (info.st_ino, info.st_mtime_ns)
