"""The display modes of the plugins whose modes are apps, as the web lists them: the
``starlark-apps`` plugin's, one per installed app, and the ``custom-apps`` plugin's, one
per custom app the display holds.

(A loose module, not in ``web_service.starlark``: the plugin catalog uses it, and that
package reaches the catalog through the services and the store.)

The display's plugin sets its modes from the apps folder and its config section (one
``starlark-<app_id>`` per installed, enabled app, in id order); the web reads the same
two things, never the plugin's code, so its plugin record lists the same modes and an
on-demand request for an app's mode is accepted. The custom apps are read from the
display's ``custom_apps`` bus record (``shared.notify.custom_record``: untrusted, expired
apps left out). With no app, the manifest's modes stay.
"""

from __future__ import annotations

import dataclasses
import time
from pathlib import Path
from typing import Any

from shared.bus.core import CUSTOM_APPS, Bus
from shared.notify.custom_record import listed_apps
from shared.notify.custom_requests import PLUGIN_ID as CUSTOM_PLUGIN_ID
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


def custom_modes(paths: Paths) -> list[str]:
    """The display modes of the custom apps the display holds, by name."""
    return [app["mode"] for app in listed_apps(Bus(paths.cache_dir).read(CUSTOM_APPS),
                                               time.time())]


def with_app_modes(entry: PluginEntry, paths: Paths, config: dict[str, Any]) -> PluginEntry:
    """``entry`` with the apps' modes as its ``display_modes`` when it is an apps plugin."""
    plugin_id = entry.record.get("id")
    if plugin_id == PLUGIN_ID:
        modes = app_modes(paths, config)
    elif plugin_id == CUSTOM_PLUGIN_ID:
        modes = custom_modes(paths)
    else:
        return entry
    if not modes:
        return entry
    return dataclasses.replace(entry, record={**entry.record, "display_modes": modes})


def apps_folder_stamp(paths: Paths) -> tuple[Any, ...]:
    """What changes when an app is installed or removed (its folder is renamed in or out),
    or the display's custom apps change (its record is written anew)."""
    return (_stamp(apps_root(paths)), _stamp(Bus(paths.cache_dir).path(CUSTOM_APPS)))


def _stamp(path: Path) -> tuple[int, int] | None:
    try:
        info = path.stat()
    except OSError:
        return None
    return (info.st_ino, info.st_mtime_ns)
