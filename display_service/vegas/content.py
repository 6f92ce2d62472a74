"""Collect the ticker's segments from the loaded plugins.

Which plugins join, in which order: enabled plugins whose section does not set
``vegas_include: false``, minus ``vegas_scroll.excluded_plugins`` (and, when
``include_new_plugins`` is false and ``plugin_order`` is not empty, minus plugins not
listed there), sorted by ``vegas_order`` (default 0), then by position in
``vegas_scroll.plugin_order`` (unlisted last), then by plugin id.

How a plugin joins (its mode), first answer wins: the section's ``vegas_mode``; the
plugin's ``get_vegas_display_mode()`` (a string or an enum with ``.value``;
``fixed_segment`` means ``fixed``); its ``get_vegas_content_type()`` (``multi`` ->
``scroll``, ``static`` -> ``fixed``); ``vegas_scroll.default_vegas_mode``. A content
type of ``none`` leaves the plugin out this cycle; a hook returning None has no opinion.

What it shows:

- ``scroll``: the images of ``get_vegas_content()`` (one image or a list), each at its
  own width; when the hook is missing or returns nothing, the ``display()`` capture.
- ``fixed``: the same images, or a capture at the segment size, each centred on a
  segment ``panels x panel_width`` wide (``panel_width`` is the display width unless
  the caller says otherwise); ``panels`` is the section's ``vegas_panel_count``,
  else ``get_vegas_segment_width()``, else ``vegas_scroll.default_panel_count``.
- ``static``: the ``display()`` output captured once at the panel size; the ticker
  holds it still for ``static_hold_duration`` seconds.

Images are made RGB and panel-high (centred vertically, not scaled). A plugin that
raises is reported through ``on_error(plugin_id, "vegas", error)`` and skipped for
this cycle; the others still join. ``skip(plugin_id)`` leaves plugins out before any of
their hooks is called (the loop passes its "update() overrun" check). Each plugin's
content is timed: one that takes longer than ``budget`` seconds (its segments are still
used) is passed to ``on_slow(plugin_id, seconds)``, or reported through ``on_error`` as
a ``SlowContentError`` when there is no ``on_slow``. The capture runs on the render
thread, so the budget cannot cut a call short: it only tells the caller whom to leave out
next time (``VegasMode`` does, for ``SLOW_SKIP_CYCLES`` cycles).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Mapping
from typing import Any

from PIL import Image

from display_service.plugins.errors import one_line
from display_service.vegas.capture import CaptureSurface, SurfaceFactory, capture_display
from display_service.vegas.settings import MODES, Color, VegasSettings, read_settings
from display_service.vegas.strip import Segment
from shared.plugin_api.boundary import CONTAINED, plugin_call

logger = logging.getLogger(__name__)

ErrorSink = Callable[[str, str, BaseException], None]
SlowSink = Callable[[str, float], None]

MAX_SEGMENT_WIDTH = 4096  # wider content is cut: one image never holds more
MAX_ITEMS = 64  # images taken from one plugin per cycle
_CONTENT_TYPE_MODES = {"multi": "scroll", "static": "fixed"}


class SlowContentError(Exception):
    """A plugin's Vegas content took longer than the capture budget."""

    def __init__(self, seconds: float, budget: float, consequence: str = "") -> None:
        message = f"vegas content took {seconds:.2f} s (budget {budget:g} s)"
        super().__init__(f"{message}: {consequence}" if consequence else message)
        self.seconds = seconds
        self.budget = budget


def collect_segments(
    plugins: Mapping[str, Any],
    config: dict[str, Any],
    width: int,
    height: int,
    *,
    surface_factory: SurfaceFactory | None = None,
    fonts: Any = None,
    on_error: ErrorSink | None = None,
    panel_width: int | None = None,
    skip: Callable[[str], bool] | None = None,
    budget: float | None = None,
    on_slow: SlowSink | None = None,
    clock: Callable[[], float] = time.monotonic,
) -> list[Segment]:
    """Return the content segments of one ticker cycle, separators not included.

    Args:
        plugins: loaded plugin instances by id.
        config: the whole config (plugin sections and ``vegas_scroll``).
        width, height: the panel size.
        surface_factory: builds the capture surface for ``display()``; by default a
            ``CaptureSurface`` borrowing its fonts from ``fonts``.
        on_error: receives each plugin failure; by default it is logged.
        panel_width: the width a fixed segment takes per ``vegas_panel_count``; the
            whole display width by default (pass ``display.hardware.cols`` to count
            physical panels of a chain instead).
        skip: returns True for a plugin to leave out of this cycle.
        budget: seconds one plugin's content may take; None: not timed.
        on_slow: receives ``(plugin_id, seconds)`` for a plugin over ``budget``.
        clock: the clock the content is timed on.
    """
    settings = read_settings(config)
    factory = surface_factory or (lambda w, h: CaptureSurface(w, h, fonts))
    report = on_error or log_error
    segments: list[Segment] = []
    for plugin_id in ordered_plugin_ids(plugins, config, settings):
        if skip is not None and skip(plugin_id):
            continue
        plugin = plugins[plugin_id]
        started = clock()
        try:
            with plugin_call(plugin_id, "vegas"):
                segments += plugin_segments(plugin, plugin_id, _section(config, plugin_id, plugin),
                                            settings, width, height, factory, panel_width)
        except CONTAINED as err:  # isolation boundary: one plugin's Vegas content
            report(plugin_id, "vegas", err)
        seconds = clock() - started
        if budget is not None and seconds > budget:
            if on_slow is not None:
                on_slow(plugin_id, seconds)
            else:
                report(plugin_id, "vegas", SlowContentError(seconds, budget))
    return segments


def ordered_plugin_ids(plugins: Mapping[str, Any], config: dict[str, Any],
                       settings: VegasSettings) -> list[str]:
    """Return the ids of the plugins that join the ticker, in ticker order."""
    listed = {plugin_id: i for i, plugin_id in enumerate(settings.plugin_order)}
    keys: dict[str, tuple[int, int, str]] = {}
    for plugin_id, plugin in plugins.items():
        section = _section(config, plugin_id, plugin)
        if section.get("enabled") is False or getattr(plugin, "enabled", True) is False:
            continue
        if section.get("vegas_include") is False or plugin_id in settings.excluded_plugins:
            continue
        if listed and plugin_id not in listed and not settings.include_new_plugins:
            continue
        order = section.get("vegas_order")
        order = order if isinstance(order, int) and not isinstance(order, bool) else 0
        keys[plugin_id] = (order, listed.get(plugin_id, len(listed)), plugin_id)
    return sorted(keys, key=keys.__getitem__)


def plugin_segments(plugin: Any, plugin_id: str, section: dict[str, Any],
                    settings: VegasSettings, width: int, height: int,
                    factory: SurfaceFactory, panel_width: int | None = None) -> list[Segment]:
    """Return one plugin's segments for this cycle (empty when it has nothing)."""
    mode = resolve_mode(plugin, section, settings)
    background = settings.background_color
    if mode is None:
        return []
    if mode == "static":
        captured = capture_display(plugin, width, height, factory)
        image = None if captured is None else fit_box(captured, width, height, background)
        return [] if image is None else [Segment(image, plugin_id, "static")]
    panels = panel_count(plugin, section, settings)
    box = (panel_width or width) * panels if mode == "fixed" else width
    images = vegas_images(plugin)
    if not images:
        captured = capture_display(plugin, box, height, factory)
        images = [] if captured is None else [captured]
    if mode == "fixed":
        fitted = [fit_box(image, box, height, background) for image in images]
    else:
        fitted = [fit_height(image, height, background) for image in images]
    return [Segment(image, plugin_id, mode) for image in fitted if image is not None]


def resolve_mode(plugin: Any, section: dict[str, Any], settings: VegasSettings) -> str | None:
    """Return ``scroll``, ``fixed`` or ``static``; None when the plugin sits this one out."""
    content_type = _call(plugin, "get_vegas_content_type")
    if isinstance(content_type, str) and content_type.lower() == "none":
        return None
    candidates = (
        section.get("vegas_mode"),
        _mode_name(_call(plugin, "get_vegas_display_mode")),
        _CONTENT_TYPE_MODES.get(content_type.lower()) if isinstance(content_type, str) else None,
    )
    for candidate in candidates:
        if candidate in MODES:
            return str(candidate)
    return settings.default_vegas_mode


def panel_count(plugin: Any, section: dict[str, Any], settings: VegasSettings) -> int:
    """Return the panel widths a fixed segment of this plugin takes."""
    for value in (section.get("vegas_panel_count"), _call(plugin, "get_vegas_segment_width")):
        if isinstance(value, int) and not isinstance(value, bool) and value >= 1:
            return value
    return settings.default_panel_count


def vegas_images(plugin: Any) -> list[Image.Image]:
    """Return the images of ``get_vegas_content()`` (empty when none)."""
    content = _call(plugin, "get_vegas_content")
    if isinstance(content, Image.Image):
        return [content]
    if isinstance(content, list | tuple):
        return [item for item in content if isinstance(item, Image.Image)][:MAX_ITEMS]
    return []


def fit_height(image: Image.Image, height: int, background: Color) -> Image.Image | None:
    """Return ``image`` as RGB, ``height`` high and at most MAX_SEGMENT_WIDTH wide."""
    if image.width < 1 or image.height < 1:
        return None
    image = _rgb(image, background)
    width = min(image.width, MAX_SEGMENT_WIDTH)
    if image.height == height and width == image.width:
        return image
    canvas = Image.new("RGB", (width, height), background)
    canvas.paste(image, (0, (height - image.height) // 2))
    return canvas


def fit_box(image: Image.Image, width: int, height: int, background: Color) -> Image.Image | None:
    """Return ``image`` as RGB centred on a ``width`` x ``height`` canvas (cut if larger)."""
    if image.width < 1 or image.height < 1:
        return None
    image = _rgb(image, background)
    if image.size == (width, height):
        return image
    canvas = Image.new("RGB", (width, height), background)
    canvas.paste(image, ((width - image.width) // 2, (height - image.height) // 2))
    return canvas


def _rgb(image: Image.Image, background: Color) -> Image.Image:
    if image.mode == "RGB":
        return image
    if image.mode in ("RGBA", "LA", "PA") or "transparency" in image.info:
        rgba = image.convert("RGBA")
        canvas = Image.new("RGB", rgba.size, background)
        canvas.paste(rgba, (0, 0), rgba)
        return canvas
    return image.convert("RGB")


def _call(plugin: Any, name: str) -> Any:
    hook = getattr(plugin, name, None)
    return hook() if callable(hook) else None


def _mode_name(value: Any) -> str | None:
    value = getattr(value, "value", value)
    if not isinstance(value, str):
        return None
    value = value.lower()
    return "fixed" if value == "fixed_segment" else value


def _section(config: dict[str, Any], plugin_id: str, plugin: Any) -> dict[str, Any]:
    section = config.get(plugin_id) if isinstance(config, dict) else None
    if not isinstance(section, dict):
        section = getattr(plugin, "config", None)
    return section if isinstance(section, dict) else {}


def log_error(plugin_id: str, where: str, error: BaseException) -> None:
    """Log a plugin failure (the ``on_error`` used when the caller gives none)."""
    if isinstance(error, SlowContentError):
        logger.warning("%s: %s", plugin_id, one_line(error))
        return
    logger.warning("%s: %s content failed, left out this cycle: %s",
                   plugin_id, where, one_line(error))
    logger.debug("%s: %s traceback", plugin_id, where, exc_info=error)
