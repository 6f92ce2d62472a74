"""Panels of one sync group for tests and bench/panel_sync.py: instance folders whose
config makes each a leader or a follower on a test broker, with small plugins that
draw their mode's name. Starting them is ``tests.daemons.start_display``'s job."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path
from typing import Any

from shared.bus.core import Bus
from tests.daemons import Instance

PLUGIN_CODE = textwrap.dedent(
    """
    from shared.plugin_api.base_plugin import BasePlugin


    class Plugin(BasePlugin):
        def update(self):
            pass

        def display(self, force_clear=False, display_mode=None):
            self.display_manager.clear()
            self.display_manager.draw_text(display_mode or "?", x=0, y=0)
            self.display_manager.update_display()
            return True
    """
)


# Red on the left half of the canvas, green on the right: a wall's parts told apart.
HALVES_CODE = textwrap.dedent(
    """
    from shared.plugin_api.base_plugin import BasePlugin


    class Plugin(BasePlugin):
        def update(self):
            pass

        def display(self, force_clear=False, display_mode=None):
            dm = self.display_manager
            half = dm.width // 2
            dm.draw.rectangle((0, 0, half - 1, dm.height - 1), fill=(255, 0, 0))
            dm.draw.rectangle((half, 0, dm.width - 1, dm.height - 1), fill=(0, 255, 0))
            dm.update_display()
            return True
    """
)


# A new colour over the whole canvas at every call, called at the fast content's rate:
# every part of a wall changes with every frame.
FLICKER_CODE = textwrap.dedent(
    """
    from shared.plugin_api.base_plugin import BasePlugin


    class Plugin(BasePlugin):
        enable_scrolling = True
        calls = 0

        def update(self):
            pass

        def display(self, force_clear=False, display_mode=None):
            self.calls += 1
            dm = self.display_manager
            dm.draw.rectangle((0, 0, dm.width - 1, dm.height - 1),
                              fill=(self.calls % 256, (self.calls // 256) % 256, 1))
            dm.update_display()
            return True
    """
)


def add_plugin(plugins_dir: Path, plugin_id: str, modes: list[str],
               code: str = PLUGIN_CODE) -> None:
    """Write a plugin with ``modes``, drawing its mode's name unless ``code`` says else."""
    directory = plugins_dir / plugin_id
    directory.mkdir(parents=True)
    manifest = {"id": plugin_id, "name": plugin_id, "version": "1.0.0", "author": "tests",
                "entry_point": "manager.py", "class_name": "Plugin",
                "compatible_versions": [">=3.0.0"], "update_interval": 3600,
                "display_modes": modes}
    (directory / "manifest.json").write_text(json.dumps(manifest))
    (directory / "manager.py").write_text(code)


def panel(base: Path, name: str, sync: dict[str, Any], broker: Any,
          plugins: dict[str, list[str]], durations: dict[str, float] | None = None,
          order: list[str] | None = None, codes: dict[str, str] | None = None) -> Instance:
    """Return an instance folder for panel ``name`` (its mqtt base topic's last level)."""
    instance = Instance(base / name)
    for plugin_id, modes in plugins.items():
        add_plugin(instance.plugins_dir, plugin_id, modes, (codes or {}).get(plugin_id,
                                                                          PLUGIN_CODE))
    config: dict[str, Any] = {plugin_id: {"enabled": True} for plugin_id in plugins}
    config.update({
        "sync": {"follower_position": "none", **sync},
        "mqtt": {"enabled": True, "host": broker.host, "port": broker.port,
                 "base_topic": f"ledpanel/{name}"},
        "display_durations": durations or {},
        "rotation_order": order or [],
    })
    instance.write_config(config)
    return instance


def sync_of(state: dict[str, Any] | None) -> dict[str, Any]:
    """Return the ``sync`` block of a ``display_state`` record ({} when absent)."""
    block = (state or {}).get("sync")
    return block if isinstance(block, dict) else {}


def state_of(instance: Instance) -> dict[str, Any]:
    """Return the instance's ``display_state`` now ({} when absent)."""
    return Bus(instance.cache_dir).read("display_state") or {}
