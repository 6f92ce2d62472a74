"""Render one plugin at several sizes, inside the worker process.

The plugin is loaded the way the display daemon loads it: a real ``PluginManager``
(discovery, manifest rules, the loader, ``prepare_plugin_config`` on the config
section) follows the plugin's folder with ``apply_change``, which also forgets modules
and bytecode from the previous render, so an edited file is what runs. The overlay is
the plugin's config section; ``enabled`` is forced on. Each size gets a fresh instance
on its own ``PreviewSurface``; ``update()`` runs once, then ``display()`` once per frame
(``force_clear`` on the first). A failure in update() or display() is reported by its
exception class name only; a load failure only as ``load_failed``.
"""

from __future__ import annotations

import base64
import inspect
import io
import logging
import tempfile
from pathlib import Path
from typing import Any

from preview_service.surface import PreviewSurface
from shared.paths import Paths
from shared.plugin_system.manager import PluginManager

logger = logging.getLogger(__name__)
_SCRATCH = tempfile.mkdtemp(prefix="ledpanel-preview-")


def _manager(plugins_dir: Path, plugin_id: str, overlay: dict[str, Any],
             surface: PreviewSurface) -> PluginManager:
    scratch = Path(_SCRATCH)
    paths = Paths(root=scratch, config_dir=scratch, cache_dir=scratch,
                  plugins_dir_override=plugins_dir)
    config = {plugin_id: {**overlay, "enabled": True}}
    return PluginManager(paths, config, display_manager=surface)


def _png(image: Any) -> str:
    buffer = io.BytesIO()
    image.convert("RGB").save(buffer, format="PNG")
    return base64.b64encode(buffer.getvalue()).decode("ascii")


def _display(plugin: Any, mode: str, force_clear: bool) -> None:
    params: list[inspect.Parameter] = []
    try:
        params = list(inspect.signature(plugin.display).parameters.values())
    except (TypeError, ValueError):
        pass
    if any(p.name == "display_mode" or p.kind is p.VAR_KEYWORD for p in params):
        plugin.display(display_mode=mode, force_clear=force_clear)
    else:
        plugin.display(force_clear=force_clear)


def _frames(plugin: Any, surface: PreviewSurface, mode: str, frames: int) -> str | None:
    """Run update() then display() ``frames`` times; return the failing class, or None."""
    stage = getattr(plugin, "update", None)
    try:
        if callable(stage):
            stage()
        for index in range(frames):
            before = len(surface.frames)
            _display(plugin, mode, force_clear=index == 0)
            if len(surface.frames) == before:
                surface.update_display()  # a plugin that drew without pushing
    except Exception as err:  # the plugin's failure is the result, not ours
        logger.warning("plugin failed: %s", type(err).__name__, exc_info=True)
        return type(err).__name__
    return None


def render_size(plugins_dir: Path, plugin_id: str, size: tuple[int, int],
                overlay: dict[str, Any], mode: str | None, frames: int) -> dict[str, Any]:
    """Return ``{"size", "frames" (base64 PNGs), "error_class", "modes", "problems"}``."""
    surface = PreviewSurface(*size)
    manager = _manager(plugins_dir, plugin_id, overlay, surface)
    manager.apply_change(plugin_id, "preview")
    result: dict[str, Any] = {"size": list(size), "frames": [], "error_class": None,
                              "modes": [], "problems": []}
    plugin = manager.instances.get(plugin_id)
    if plugin is None:
        result["error_class"] = "load_failed"
        return result
    result["modes"] = manager.modes(plugin_id)
    modes: list[str] = result["modes"]
    chosen = mode if mode is not None and mode in modes else (modes or [plugin_id])[0]
    result["error_class"] = _frames(plugin, surface, chosen, max(1, frames))
    result["frames"] = [_png(frame) for frame in surface.frames] or [_png(surface.image)]
    result["mode"] = chosen
    return result
