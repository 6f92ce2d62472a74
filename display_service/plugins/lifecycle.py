"""Plugin lifecycle hooks, kept from overlapping the same plugin's ``update()``.

A config reload runs on the render thread and may call a plugin's ``on_config_change``,
or ``on_disable`` and ``cleanup`` when the plugin was disabled or removed. A plugin whose
``update()`` is starting or running on its thread is not touched then: the plugin
manager lists it in ``deferred`` and it keeps its old config (and, unless the change
disables it, its rotation slot: see below).
The scheduler wakes the render loop whenever an update returns, and at the loop's next
iteration ``settle()`` applies the config current at that moment. Latest wins: after
several reloads during one update only the newest prepared config is delivered, once,
and none when it equals the config the plugin already has. No new update of a plugin
starts while it has a hook held back. The render thread never waits on an update.
A plugin whose update never returns keeps its old config until a restart (while
overrun it is skipped in the rotation anyway).

A held-back plugin that the new config disables (or whose folder is gone) leaves the
rotation at once: ``leaving`` lists it and the render loop builds the rotation without
it (no slot, no on-demand, no live content). It stays loaded, and its ``on_disable`` and
``cleanup`` still wait for its update to return, so a disabled plugin whose update
hangs is off the panel now and cleaned up when (if ever) the update returns.

``display()`` may still run while ``update()`` does (the plugin's own business).

At shutdown, running updates get ``SHUTDOWN_GRACE`` seconds to return; a plugin whose
update is still running then is dropped without ``on_disable`` and ``cleanup``. The
plugins' background fetch service (``shared.plugin_api.background.data``), if one was started, is
stopped after them, its running fetches given ``SHUTDOWN_GRACE`` seconds too.
"""

from __future__ import annotations

import logging
import sys
from typing import Any

from display_service.plugins.host import PluginHost, leaving
from display_service.plugins.updates import UpdateScheduler
from shared.plugin_system.changes import FAILED

logger = logging.getLogger(__name__)

SHUTDOWN_GRACE = 2.0


class PluginHooks:
    """Call the plugin manager's hooks only for plugins whose update is not in flight."""

    def __init__(self, plugins: PluginHost, updates: UpdateScheduler) -> None:
        self.plugins = plugins
        self.updates = updates
        self.leaving: set[str] = set()

    @property
    def held(self) -> set[str]:
        """Ids of plugins with a hook held back until their update returns."""
        return self.plugins.deferred

    def apply_config(self, config: dict[str, Any], seq: Any = None) -> list[str]:
        """Apply a reload to every plugin not busy; return the ids changed."""
        try:
            return self.plugins.apply_config(config, busy=self.updates.busy)
        except Exception:  # isolation boundary: the plugin manager's reload
            logger.exception("config reload (seq %s): applying to plugins failed", seq)
            return []
        finally:
            self._find_leaving()

    def apply_change(self, plugin_id: str, change: str) -> tuple[str, str]:
        """Follow one plugin folder change (``plugins_changed``); return (result, detail).

        A plugin whose update() is in flight waits (``deferred``, so no new update starts);
        one uninstalled meanwhile leaves the rotation at once, like a disabled one.
        """
        try:
            result, detail = self.plugins.apply_change(plugin_id, change,
                                                       busy=self.updates.busy)
            return str(result), str(detail)
        except Exception as err:  # isolation boundary: the plugin manager's reload
            logger.exception("%s: applying %s failed", plugin_id, change)
            return FAILED, f"{type(err).__name__}: {err}"
        finally:
            self._find_leaving()

    def settle(self) -> list[str]:
        """Deliver held-back hooks to plugins whose update has returned; return those changed."""
        if not self.plugins.deferred:
            self.leaving.clear()
            return []
        try:
            changed = self.plugins.apply_deferred(busy=self.updates.busy)
        except Exception:  # isolation boundary: the plugin manager's reload
            logger.exception("applying held-back config changes failed")
            return []
        finally:  # only a reload changes who is leaving; here some may have left
            self.leaving &= self.plugins.deferred & set(self.plugins.instances)
        if changed:
            logger.info("held-back config change applied after update(): %s", ", ".join(changed))
        return changed

    def _find_leaving(self) -> None:
        held = self.plugins.deferred & set(self.plugins.instances)
        found = {p for p in held if leaving(self.plugins, p)}
        for plugin_id in sorted(found - self.leaving):
            logger.info("%s: disabled; out of the rotation now, cleaned up when its update() "
                        "returns", plugin_id)
        self.leaving = found

    def shutdown(self) -> None:
        """Stop updates, give running ones a moment, unload the plugins, stop their fetches."""
        self.updates.shutdown(SHUTDOWN_GRACE)
        try:
            self.plugins.unload_all(busy=self.updates.busy)
        except Exception:  # isolation boundary: plugin cleanup at exit
            logger.exception("unloading plugins failed")
        # Looked up, not imported: when no plugin started the service there is nothing
        # to stop, and importing it (and requests) at exit would only cost time.
        background = sys.modules.get("shared.plugin_api.background.data")
        if background is not None:
            background.shutdown_background_service(timeout=SHUTDOWN_GRACE)
