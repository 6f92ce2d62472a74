"""PluginManager: discover, load, reconfigure and unload the enabled plugins.

Enabled rule: a plugin is enabled when its prepared config section says
``"enabled": true`` (an explicit value, or the default of an ``enabled`` property in
its config schema). When neither gives a value, the manifest decides: a plugin whose
manifest has ``"enabled_by_default": true`` (the bundled web-ui-info plugin) is
enabled, every other plugin is disabled until the user enables it. The web's
installed-plugins listing uses the same rule (``manifest.resolve_enabled``).

Each plugin is loaded inside its own guard: a broken one is logged as
``"<plugin_id>: <reason>"`` and recorded in ``load_errors``; it never stops the rest.
What a loaded plugin warned about while it loaded (``load_warnings``) is kept, per loaded
plugin, until it is unloaded or loaded again.

Hooks never overlap a plugin's own ``update()``: the caller of ``apply_config`` and
``unload_all`` may pass ``busy(plugin_id)``, true while that plugin's update is in
flight. A busy plugin is left alone (no ``on_config_change``, ``on_disable`` or
``cleanup``) and listed in ``deferred``; ``apply_deferred`` later applies the config
current at that time, so a plugin held back through several reloads gets only the
newest prepared config, and none when it equals the one it already has.
"""

from __future__ import annotations

import copy
import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any

from shared.bus.web_address import published_web_address
from shared.config.prepare import prepare_plugin_config
from shared.config.rotation_order import effective_order
from shared.errors import PluginError
from shared.history import PluginEvent
from shared.ids import require_plain_segment
from shared.paths import Paths
from shared.plugin_api.boundary import CONTAINED, plugin_call
from shared.plugin_api.cache.manager import CacheManager
from shared.plugin_api.config_manager import ConfigView
from shared.plugin_api.duration import display_duration_problem
from shared.plugin_system.changes import LOADED, NOT_LOADED, RELOADED, UNLOADED, WAITING
from shared.plugin_system.discovery import PluginInfo, discover, plugins_dir_for
from shared.plugin_system.load_warnings import caught
from shared.plugin_system.loader import (
    effective_modes,
    forget_bytecode,
    load_plugin_class,
    purge_plugin_modules,
)
from shared.plugin_system.manifest import resolve_enabled
from shared.plugin_system.schema import load_schema

logger = logging.getLogger(__name__)

Busy = Callable[[str], bool]


class PluginManager:
    """Owns the plugin instances of one process (the display daemon)."""

    def __init__(
        self,
        paths: Paths,
        config: dict[str, Any],
        display_manager: Any = None,
        cache_manager: Any = None,
        font_manager: Any = None,
    ) -> None:
        self.paths = paths
        self.config: dict[str, Any] = config
        self.display_manager = display_manager
        self.cache_manager = cache_manager or CacheManager(paths.cache_dir)
        # Plugins reach the fonts as plugin_manager.font_manager (BasePlugin's
        # _get_font_manager()): the display manager's when none is given.
        self.font_manager = (font_manager if font_manager is not None
                             else getattr(display_manager, "font_manager", None))
        self.config_manager = ConfigView(self)
        # ... and the config as cache_manager.config_manager, as in the existing API.
        if getattr(self.cache_manager, "config_manager", None) is None:
            self.cache_manager.config_manager = self.config_manager
        self.instances: dict[str, Any] = {}
        self.load_errors: dict[str, str] = {}
        # Loaded plugins -> the warnings they logged while loading (shared.plugin_system.
        # load_warnings): a missing optional package, a repaired config.
        self.load_warnings: dict[str, list[str]] = {}
        self._infos: dict[str, PluginInfo] = {}
        self._dirs: dict[str, Path] = {}
        self._discovered = False
        self._prepared: dict[str, dict[str, Any]] = {}
        self._failed_with: dict[str, tuple[Any, ...]] = {}
        self._logged: set[str] = set()
        self.deferred: set[str] = set()
        # Plugins not to load, with the reason (the display's safe mode).
        self.blocked: dict[str, str] = {}
        # Enabled plugins queued at start, not tried yet (``queue_enabled``), next first.
        self.loading: list[str] = []
        # Told (plugin_id, what, detail) when a plugin is loaded, unloaded or fails to
        # load: the display's operation history (``shared.history.LIFECYCLE``).
        self.on_event: PluginEvent | None = None

    def web_address(self) -> dict[str, Any] | None:
        """Return where the web interface listens now (``host``, ``port``), as the web
        daemon published it; None while no web daemon runs on this bus."""
        return published_web_address(self.paths.cache_dir)

    @property
    def plugins_dir(self) -> Path:
        """The directory plugins are discovered in."""
        return plugins_dir_for(self.paths, self.config)

    def discover(self) -> list[PluginInfo]:
        """Scan the plugins directory afresh; log problems not logged before."""
        infos = discover(self.plugins_dir, log=False)
        self._discovered = True
        self._infos = {info.id: info for info in infos if info.ok}
        self._dirs = {}
        for info in infos:
            if info.ok or info.id not in self._dirs:
                self._dirs[info.id] = info.directory
        for info in infos:
            lines = [f"{info.id}: skipped: {'; '.join(info.errors)}"] if info.errors else []
            for line in lines + [f"{info.id}: {w}" for w in info.warnings]:
                if line not in self._logged:
                    self._logged.add(line)
                    logger.warning("%s", line)
        return infos

    def get_plugin_directory(self, plugin_id: str) -> Path | None:
        """Return the plugin's directory in the plugins dir; refuse ids not one plain segment."""
        require_plain_segment(plugin_id)
        if plugin_id not in self._dirs:
            self.discover()
        return self._dirs.get(plugin_id)

    def get_manifest(self, plugin_id: str) -> dict[str, Any] | None:
        """Return a discovered plugin's manifest (defaults filled), or None."""
        if not self._discovered:
            self.discover()
        info = self._infos.get(plugin_id)
        return info.manifest if info else None

    def schema_for(self, plugin_id: str) -> dict[str, Any] | None:
        """Return the plugin's config schema (``plugins/`` searched first), or None."""
        if not self._discovered:
            self.discover()
        info = self._infos.get(plugin_id)
        directory = info.directory if info else None
        return load_schema(plugin_id, self.paths, self.plugins_dir, directory)

    def prepared_config(
        self, plugin_id: str, config: dict[str, Any] | None = None
    ) -> dict[str, Any]:
        """Return the plugin's prepared config section from ``config`` (default: current)."""
        source = self.config if config is None else config
        section = source.get(plugin_id)
        return prepare_plugin_config(section if isinstance(section, dict) else {},
                                     self.schema_for(plugin_id))

    def is_enabled(self, plugin_id: str, prepared: dict[str, Any]) -> bool:
        """Return whether a plugin is enabled, given its prepared section."""
        return resolve_enabled(prepared, self.get_manifest(plugin_id) or {})

    def load_enabled(self) -> dict[str, Any]:
        """Discover and load every enabled plugin not loaded yet; return the instances."""
        self._failed_with.clear()  # an explicit load retries plugins that failed before
        self._load_missing(self.discover())
        return self.instances

    def queue_enabled(self, first: str | None = None) -> None:
        """Discover the plugins and queue the ones to load, for ``load_next``.

        Queued: every discovered plugin not switched off by an explicit ``"enabled":
        false`` (the schema's default is only read when it is tried), ``first`` first
        (the restored on-demand's plugin), then in the rotation's order, so that the
        first one that loads is the rotation's first entry. Broken folders and plugins
        in safe mode are recorded in ``load_errors`` at once, not queued.
        """
        self._failed_with.clear()
        infos = self.discover()
        self._load_missing([info for info in infos if not info.ok])
        ids = [info.id for info in infos if info.ok and info.id not in self.instances
               and self._raw(info.id).get("enabled") is not False]
        for plugin_id in [p for p in ids if p in self.blocked]:
            self._try_load(self._infos[plugin_id])  # records "in safe mode: ..."
        order = effective_order([p for p in ids if p not in self.blocked],
                                self.config.get("rotation_order"))
        self.loading = ([first] if first in order else []) + [p for p in order if p != first]

    def load_next(self, count: int = 1) -> list[str]:
        """Try the next ``count`` queued plugins; return the ids loaded."""
        loaded = []
        while self.loading and count > 0:
            info = self._infos.get(self.loading.pop(0))
            if info is None or info.id in self.instances:
                continue  # gone from disk, or loaded by a reload meanwhile
            count -= 1
            if self._try_load(info):
                loaded.append(info.id)
        return loaded

    def load_first(self) -> list[str]:
        """Try queued plugins until one loads (the first the panel shows); return its id."""
        while self.loading:
            if loaded := self.load_next(1):
                return loaded
        return []

    def load_now(self, plugin_id: str) -> list[str]:
        """Load a queued plugin out of turn (an on-demand asks for it); return [it] if it loaded."""
        if plugin_id not in self.loading:
            return []
        self.loading.remove(plugin_id)
        self.loading.insert(0, plugin_id)
        return self.load_next(1)

    def modes(self, plugin_id: str) -> list[str]:
        """Return the display modes of a plugin (its own ``modes`` outrank the manifest)."""
        return effective_modes(self.instances.get(plugin_id), self.get_manifest(plugin_id) or {})

    def apply_config(self, config: dict[str, Any], busy: Busy | None = None) -> list[str]:
        """Apply a newly saved config; return the ids of plugins changed, loaded or unloaded.

        A loaded plugin for which ``busy`` says True is not touched now but added to
        ``deferred``, for ``apply_deferred``.
        """
        self.config = config
        infos = self.discover()
        changed = [p for p in list(self.instances) if self._reconfigure(p, busy)]
        self.loading = []  # the reload tries every enabled plugin, queued ones too
        changed += self._load_missing(infos)
        return sorted(set(changed))

    def apply_change(self, plugin_id: str, change: str,
                     busy: Busy | None = None) -> tuple[str, str]:
        """Follow a plugin folder installed, updated or uninstalled; return (result, detail).

        The folder on disk decides, whatever ``change`` says: a loaded plugin is unloaded
        (``on_disable`` and ``cleanup`` guarded) and its modules forgotten; then, when its
        folder is there and it is enabled (the start-up rules), it is loaded from the
        files as they are now. A loaded plugin for which ``busy`` says True is left alone,
        listed in ``deferred``, and the result is ``waiting``: ask again once it returns.
        Results are those of ``shared.plugin_system.changes``.
        """
        require_plain_segment(plugin_id)
        infos = [info for info in self.discover() if info.id == plugin_id]
        if plugin_id in self.loading:
            self.loading.remove(plugin_id)  # tried now, from its files as they are
        was_loaded = plugin_id in self.instances
        if was_loaded:
            if busy is not None and busy(plugin_id):
                self.deferred.add(plugin_id)
                return WAITING, "its update() is running; applied when it returns"
            self.unload(plugin_id, why=change)
        purge_plugin_modules(plugin_id)
        self._failed_with.pop(plugin_id, None)  # new files: worth a new attempt
        self.load_errors.pop(plugin_id, None)
        if not infos:
            return UNLOADED, "its folder is gone"
        if infos[0].ok:
            forget_bytecode(infos[0].directory)
        self._load_missing(infos)
        if plugin_id in self.instances:
            version = (self.get_manifest(plugin_id) or {}).get("version", "?")
            return RELOADED if was_loaded else LOADED, f"version {version}"
        return NOT_LOADED, self.load_errors.get(plugin_id) or "disabled in its config"

    def apply_deferred(self, busy: Busy | None = None) -> list[str]:
        """Apply the current config to deferred plugins no longer busy; return those changed."""
        return [p for p in sorted(self.deferred) if self._reconfigure(p, busy)]

    def _reconfigure(self, plugin_id: str, busy: Busy | None) -> bool:
        """Bring one loaded plugin in line with ``self.config``; return True if it changed."""
        if busy is not None and busy(plugin_id):
            self.deferred.add(plugin_id)
            return False
        self.deferred.discard(plugin_id)
        if plugin_id not in self.instances:
            return False
        try:
            prepared = self.prepared_config(plugin_id)
        except PluginError as err:
            # Its schema cannot be read: the raw section still says whether it is on.
            if plugin_id in self._infos and self.is_enabled(plugin_id, self._raw(plugin_id)):
                logger.warning("%s: config not applied: %s", plugin_id, err.message)
                return False
            logger.warning("%s: unloaded (switched off; %s)", plugin_id, err.message)
            self.unload(plugin_id)
            return True
        if plugin_id not in self._infos or not self.is_enabled(plugin_id, prepared):
            self.unload(plugin_id, why="switched off" if plugin_id in self._infos
                        else "no longer installed")
            return True
        if prepared != self._prepared.get(plugin_id):
            self._prepared[plugin_id] = prepared
            self._guard(plugin_id, "on_config_change", copy.deepcopy(prepared))
            return True
        return False

    def _raw(self, plugin_id: str) -> dict[str, Any]:
        section = self.config.get(plugin_id)
        return section if isinstance(section, dict) else {}

    def unload(self, plugin_id: str, *, hooks: bool = True, why: str = "switched off") -> None:
        """Disable, clean up and drop one loaded plugin (without hooks: just drop it)."""
        if plugin_id not in self.instances:
            return
        if hooks:
            self._guard(plugin_id, "on_disable")
            self._guard(plugin_id, "cleanup")
        self.instances.pop(plugin_id, None)
        self._prepared.pop(plugin_id, None)
        self.load_warnings.pop(plugin_id, None)
        self.deferred.discard(plugin_id)
        self._event(plugin_id, "unloaded", why if hooks else f"{why}; hooks skipped")

    def unload_all(self, busy: Busy | None = None) -> None:
        """Unload every loaded plugin; a busy one is dropped without its hooks."""
        for plugin_id in list(self.instances):
            skip = busy is not None and busy(plugin_id)
            if skip:
                logger.warning("%s: update() still running; on_disable/cleanup skipped", plugin_id)
            self.unload(plugin_id, hooks=not skip, why="display stopping")

    def _load_missing(self, infos: list[PluginInfo]) -> list[str]:
        """Load the enabled plugins that are not loaded; return the ids loaded."""
        loaded = []
        for info in infos:
            if info.id in self.instances:
                continue
            if info.ok:
                if self._try_load(info):
                    loaded.append(info.id)
            elif info.id not in self._infos:
                if resolve_enabled(self.config.get(info.id), info.manifest):
                    reason = "; ".join(info.errors)
                    if self.load_errors.get(info.id) != reason:
                        self._event(info.id, "load_failed", reason)
                    self.load_errors[info.id] = reason
                else:
                    self.load_errors.pop(info.id, None)
        return loaded

    def _try_load(self, info: PluginInfo) -> bool:
        """Load one plugin if it is enabled; log and record a failure; return True if loaded."""
        attempt: tuple[Any, ...] = (info.manifest,)
        try:
            if self._raw(info.id).get("enabled") is False:
                self.load_errors.pop(info.id, None)  # off: its files' problems wait
                return False
            prepared = self.prepared_config(info.id)
            attempt = (info.manifest, prepared)
            if not self.is_enabled(info.id, prepared):
                self.load_errors.pop(info.id, None)
                return False
            if info.id in self.blocked:
                self.load_errors[info.id] = f"in safe mode: {self.blocked[info.id]}"
                return False
            if self._failed_with.get(info.id) == attempt:
                return False  # unchanged since the last failed attempt: do not retry
            with plugin_call(info.id, "load"), caught() as noted:
                instance = self._instantiate(info, prepared)
        except CONTAINED as err:  # one plugin's failure must not stop the others
            reason = err.message if isinstance(err, PluginError) else f"{type(err).__name__}: {err}"
            cause = err.__cause__ if isinstance(err, PluginError) and err.__cause__ else err
            logger.error("%s: %s", info.id, reason, exc_info=cause)
            self.load_errors[info.id] = reason
            self._failed_with[info.id] = attempt
            self._event(info.id, "load_failed", reason)
            return False
        self.instances[info.id] = instance
        self._prepared[info.id] = prepared
        if noted:
            self.load_warnings[info.id] = list(noted)
        else:
            self.load_warnings.pop(info.id, None)
        self.load_errors.pop(info.id, None)
        self._failed_with.pop(info.id, None)
        logger.info("%s: loaded", info.id)
        self._event(info.id, "loaded", f"version {info.manifest.get('version', '?')}")
        return True

    def _event(self, plugin_id: str, what: str, detail: str) -> None:
        if self.on_event is not None:
            self.on_event(plugin_id, what, detail)

    def _instantiate(self, info: PluginInfo, prepared: dict[str, Any]) -> Any:
        cls = load_plugin_class(info)
        instance = cls(info.id, copy.deepcopy(prepared), self.display_manager,
                       self.cache_manager, self)
        validate = getattr(instance, "validate_config", None)
        if callable(validate) and validate() is False:
            self._call(instance, "cleanup")
            config = getattr(instance, "config", None)
            problem = display_duration_problem(config) if isinstance(config, dict) else None
            raise PluginError(f"{info.id}: validate_config() refused the config"
                              + (f" ({problem})" if problem else ""))
        self._call(instance, "on_enable")
        return instance

    @staticmethod
    def _call(instance: Any, hook: str, *args: Any) -> Any:
        method = getattr(instance, hook, None)
        return method(*args) if callable(method) else None

    def _guard(self, plugin_id: str, hook: str, *args: Any) -> None:
        try:
            with plugin_call(plugin_id, hook):
                self._call(self.instances[plugin_id], hook, *args)
        except CONTAINED:  # a plugin hook failing must not stop the caller
            logger.exception("%s: %s() failed", plugin_id, hook)
