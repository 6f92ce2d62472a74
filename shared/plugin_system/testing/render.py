"""``render_plugin``: load a plugin from its folder as the device does and render frames.

The plugin is discovered and loaded by the device's own ``PluginManager`` (the real
loader, and its config preparation: the overlay is the plugin's config section, made
``enabled``, then prepared against the plugin's schema exactly as on the device), with a
``BoundsCheckingDisplayManager`` of the requested size as its display manager. Then
``update()`` runs once and ``display()`` once per frame, as the render loop calls it
(``display_mode`` when the plugin takes one; ``force_clear`` on the first frame only).
``frame_seconds`` times each ``display()`` call (``update()`` is not a frame).
Each frame is what the plugin presented with ``update_display()`` (black when it
presented nothing). Plugin code runs in the calling process; the loader's temporary
files live in a temporary directory removed afterwards.

``RenderResult.error_class`` is the class name of what display() raised (``PluginError``
when loading failed); ``error`` is the one-line reason, for callers that may show it.
update() failing is not fatal, as in the existing system's harness (no network in a
check): ``update_error_class`` names it, an ``update_error`` warning says it, and
display() still runs. ``problems`` holds the update, bounds, empty-claimed and
scale-up findings.
"""

from __future__ import annotations

import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from PIL import Image

from shared.paths import Paths
from shared.plugin_api.boundary import CONTAINED, plugin_call
from shared.plugin_api.common.adaptive_layout import DEFAULT_DESIGN_SIZE
from shared.plugin_system.discovery import PluginInfo, read_plugin
from shared.plugin_system.loader import effective_modes
from shared.plugin_system.manager import PluginManager
from shared.plugin_system.testing.bounds import BoundsCheckingDisplayManager
from shared.plugin_system.testing.findings import WARNING, Finding
from shared.plugin_system.testing.metrics import check_empty_claimed, check_scale_up
from shared.plugin_system.testing.sizes import Size
from shared.plugin_system.testing.spec import HarnessSpecError, load_spec
from shared.plugin_system.testing.surface import call_display


@dataclass
class RenderResult:
    """The frames one render produced, what the checks found, and a failure if any."""

    images: list[Image.Image]
    problems: list[Finding]
    error_class: str | None = None
    error: str | None = None
    mode: str | None = None
    modes: list[str] = field(default_factory=list)
    frame_seconds: list[float] = field(default_factory=list)
    update_error_class: str | None = None
    update_error: str | None = None
    update_exception: BaseException | None = None
    display_returned: Any = None
    overflow: tuple[int, int, int, int] | None = None


def plugin_modes(instance: Any, manifest: dict[str, Any], plugin_id: str) -> list[str]:
    """Return the modes: the instance's ``modes``, else manifest ``display_modes``, else the id."""
    return effective_modes(instance, manifest) or [plugin_id]


list_modes = plugin_modes  # the existing system's name


def design_size(manifest: dict[str, Any]) -> Size:
    """Return the manifest's ``display.design_size`` (default 128x32)."""
    display = manifest.get("display")
    declared = display.get("design_size") if isinstance(display, dict) else None
    if isinstance(declared, dict):
        width, height = declared.get("width"), declared.get("height")
        if isinstance(width, int) and isinstance(height, int) and width > 0 and height > 0:
            return (width, height)
    return DEFAULT_DESIGN_SIZE


def render_plugin(plugin_dir: Path | str, size: Size, config_overlay: dict[str, Any] | None = None,
                  mode: str | None = None, frames: int = 1, *,
                  run_update: bool = True,
                  prepare: Callable[[Any], None] | None = None) -> RenderResult:
    """Load the plugin in ``plugin_dir`` at ``size`` and render ``frames`` frames of ``mode``
    (``prepare(instance)`` runs once it is loaded, before update(): seeding its cache)."""
    directory = Path(plugin_dir).resolve()
    info = read_plugin(directory)
    if not info.ok:
        return RenderResult([], [], "ManifestError", "; ".join(info.errors))
    display = BoundsCheckingDisplayManager(int(size[0]), int(size[1]))
    with tempfile.TemporaryDirectory(prefix="ledpanel-harness-") as tmp:
        manager = device_manager(info, config_overlay or {}, display, Path(tmp))
        manager.apply_change(info.id, "installed")
        instance = manager.instances.get(info.id)
        if instance is None:
            reason = manager.load_errors.get(info.id) or "not loaded"
            return RenderResult([], [], "PluginError", reason)
        try:
            if prepare is not None:
                prepare(instance)
            return _render_frames(info, instance, display, mode, max(1, int(frames)), run_update)
        finally:
            manager.unload(info.id, why="harness done")


def device_manager(info: PluginInfo, overlay: dict[str, Any], display: Any,
                   scratch: Path) -> PluginManager:
    """Return the device's PluginManager seeing only this plugin, its config section
    being ``overlay`` switched on, with throwaway config, cache and asset folders."""
    for name in ("config", "cache", "assets", "run", "plugins"):
        (scratch / name).mkdir()
    # The plugins folder holds the plugin alone (a link), so no sibling is read.
    (scratch / "plugins" / info.directory.name).symlink_to(info.directory)
    paths = Paths(root=scratch, config_dir=scratch / "config", cache_dir=scratch / "cache",
                  plugins_dir_override=scratch / "plugins",
                  assets_dir_override=scratch / "assets", runtime_dir_override=scratch / "run")
    config = {info.id: {**overlay, "enabled": True}}
    return PluginManager(paths, config, display_manager=display)


def _render_frames(info: PluginInfo, instance: Any, display: BoundsCheckingDisplayManager,
                   mode: str | None, frames: int, run_update: bool) -> RenderResult:
    modes = plugin_modes(instance, info.manifest, info.id)
    chosen = mode or modes[0]
    result = RenderResult([], [], mode=chosen, modes=modes)
    display.bind_render_thread()
    if run_update:
        _update(info, instance, result)
    claimed = False
    for index in range(frames):
        started = time.perf_counter()
        try:
            with plugin_call(info.id, "display"):
                answer = call_display(instance, chosen, index == 0)
            display.process_deferred_updates()
            display.flush_pending()
        except CONTAINED as err:  # the plugin's failure is the result, not ours
            result.error_class = type(err).__name__
            result.error = f"{type(err).__name__}: {err}"
            break
        result.frame_seconds.append(time.perf_counter() - started)
        frame = display.last_frame() or Image.new("RGB", (display.width, display.height))
        result.images.append(frame)
        claimed = claimed or answer is not False
        result.display_returned = answer
    result.overflow = display.check_overflow()
    result.problems.extend(display.problems)
    if result.images:
        result.problems.extend(_frame_checks(info, result.images[-1], claimed))
    return result


def _update(info: PluginInfo, instance: Any, result: RenderResult) -> None:
    """Run update() once; its failure is a warning (no network here) and display() still runs."""
    try:
        with plugin_call(info.id, "update"):
            instance.update()
    except CONTAINED as err:
        # The finding names only the class (the preview server shows findings to
        # clients); the text is kept for local callers in ``update_error``.
        result.update_error_class = type(err).__name__
        result.update_error = f"{type(err).__name__}: {err}"
        result.update_exception = err
        result.problems.append(Finding(
            "update_error", WARNING, f"update() raised {type(err).__name__}",
            {"error_class": type(err).__name__}))


def _frame_checks(info: PluginInfo, image: Image.Image, claimed: bool) -> list[Finding]:
    try:
        strict = load_spec(info.directory).strict_fill
    except HarnessSpecError:
        strict = False
    found = check_empty_claimed(image, claimed)
    found += check_scale_up(image, design_size(info.manifest), strict=strict)
    return found
