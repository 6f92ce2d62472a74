"""How the render loop talks to the loaded plugins: the manager surface and guarded calls."""

from __future__ import annotations

import inspect
import logging
import weakref
from collections.abc import Callable, Collection
from typing import Any, Protocol

from display_service.plugins.errors import PluginErrors
from display_service.control.rotation import Entry, build_entries
from shared.plugin_api.boundary import CONTAINED, plugin_call

logger = logging.getLogger(__name__)

Busy = Callable[[str], bool]


class PluginHost(Protocol):
    """The part of ``PluginManager`` the display daemon uses."""

    instances: dict[str, Any]
    load_errors: dict[str, str]
    load_warnings: dict[str, list[str]]  # loaded plugins: what they warned about loading
    deferred: set[str]  # plugins whose hooks wait for their update() to return
    blocked: dict[str, str]  # plugins not to load (safe mode), with the reason
    loading: list[str]  # enabled plugins queued at start, not tried yet

    def load_next(self, count: int = 1) -> list[str]: ...

    def load_now(self, plugin_id: str) -> list[str]: ...

    def modes(self, plugin_id: str) -> list[str]: ...

    def apply_config(self, config: dict[str, Any], busy: Busy | None = None) -> list[str]: ...

    def apply_deferred(self, busy: Busy | None = None) -> list[str]: ...

    def unload_all(self, busy: Busy | None = None) -> None: ...

    def apply_change(self, plugin_id: str, change: str,
                     busy: Busy | None = None) -> tuple[str, str]: ...


# Weak keys: a plugin reloaded from a new module gets a new class, and the old class
# (with its module) must be free to go.
_DISPLAY_TAKES_MODE: weakref.WeakKeyDictionary[type, bool] = weakref.WeakKeyDictionary()


def call_display(plugin: Any, mode: str, force_clear: bool) -> Any:
    """Call ``plugin.display``, passing ``display_mode`` when the plugin accepts it."""
    cls = type(plugin)
    takes_mode = _DISPLAY_TAKES_MODE.get(cls)
    if takes_mode is None:
        try:
            params = list(inspect.signature(plugin.display).parameters.values())
        except (TypeError, ValueError):
            params = []
        takes_mode = any(
            p.name == "display_mode" or p.kind is inspect.Parameter.VAR_KEYWORD for p in params
        )
        _DISPLAY_TAKES_MODE[cls] = takes_mode
    if takes_mode:
        return plugin.display(display_mode=mode, force_clear=force_clear)
    return plugin.display(force_clear=force_clear)


def rotation(host: PluginHost, config: dict[str, Any], errors: PluginErrors,
             exclude: Collection[str] = ()) -> list[Entry]:
    """Return the rotation for the loaded plugins; a failing hook is recorded, not fatal.

    A plugin whose ``supports_dynamic_duration()`` is True gets dynamic entries capped at
    its ``get_dynamic_duration_cap()`` (``rotation.DEFAULT_DYNAMIC_CAP`` when None).
    Plugins in ``exclude`` (loaded, but on their way out) get no entry.
    """

    def modes(plugin_id: str) -> list[str]:
        try:
            with plugin_call(plugin_id, "modes"):
                return list(host.modes(plugin_id)) or [plugin_id]
        except CONTAINED as err:  # isolation boundary: one plugin's modes
            errors.record(plugin_id, "modes", err)
            return [plugin_id]

    def own_duration(plugin_id: str) -> Any:
        try:
            with plugin_call(plugin_id, "get_display_duration"):
                return host.instances[plugin_id].get_display_duration()
        except CONTAINED as err:  # isolation boundary: one plugin's duration hook
            errors.record(plugin_id, "get_display_duration", err)
            return None

    def dynamic_cap(plugin_id: str) -> Any:
        plugin = host.instances[plugin_id]
        hook = getattr(plugin, "supports_dynamic_duration", None)
        try:
            with plugin_call(plugin_id, "supports_dynamic_duration"):
                if not callable(hook) or hook() is not True:
                    return None
                cap = getattr(plugin, "get_dynamic_duration_cap", None)
                return (cap() if callable(cap) else None) or 0.0  # 0: the default cap
        except CONTAINED as err:  # isolation boundary: one plugin's duration hooks
            errors.record(plugin_id, "supports_dynamic_duration", err)
            return None

    shown = [p for p in host.instances if p not in exclude]
    return build_entries(shown, modes, own_duration, config.get("display_durations"), dynamic_cap,
                         order=config.get("rotation_order"))


def leaving(host: PluginHost, plugin_id: str) -> bool:
    """Return True when the current config unloads a plugin (disabled, or gone from disk).

    Asked for a plugin whose hooks are held back while its update() runs: it is still
    loaded, but no longer belongs in the rotation. Uses the plugin manager's
    ``get_manifest``, ``prepared_config`` and ``is_enabled``; a host without them (or
    one that fails to answer) says False, so the plugin stays until it is unloaded.
    """
    get_manifest = getattr(host, "get_manifest", None)
    prepared_config = getattr(host, "prepared_config", None)
    is_enabled = getattr(host, "is_enabled", None)
    if not (callable(get_manifest) and callable(prepared_config) and callable(is_enabled)):
        return False
    try:
        if get_manifest(plugin_id) is None:
            return True
        return is_enabled(plugin_id, prepared_config(plugin_id)) is False
    except CONTAINED:  # isolation boundary: the manager's view of one plugin
        logger.debug("%s: could not tell whether it is being unloaded", plugin_id, exc_info=True)
        return False


def update_interval(host: PluginHost, plugin_id: str) -> float | None:
    """Return the manifest's ``update_interval`` for a plugin, if it gives a valid one."""
    getter = getattr(host, "get_manifest", None)
    manifest = getter(plugin_id) if callable(getter) else None
    value = manifest.get("update_interval") if isinstance(manifest, dict) else None
    if isinstance(value, int | float) and not isinstance(value, bool) and value >= 1:
        return float(value)
    return None
