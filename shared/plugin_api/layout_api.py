"""The adaptive layout as a plugin sees it: ``self.layout``, ``draw_fit`` and ``draw_image``.

``LayoutMixin`` is one of ``BasePlugin``'s bases. ``self.layout`` is a
``LayoutContext`` (``common.adaptive_layout``) for the panel the plugin draws on,
built on first use from ``display_manager.width`` / ``height`` and the manifest's
``display.design_size`` (128x32 when the manifest has none), and built again when
the panel size, the design size or the font manager's ``cache_generation`` changes
(a Vegas card narrower than the panel, fonts reloaded); the last few contexts are
kept, so going back to a size finds its fit caches warm. ``draw_fit`` and
``draw_image`` fit text or an image into a box and draw it on the plugin's display
manager; neither calls ``update_display()``: the plugin does, once per frame. A plugin
may assign ``self.layout`` (community plugins written before the property existed
build their own ``LayoutContext``): that object is then what ``self.layout`` returns,
and what ``draw_fit`` and ``draw_image`` fit with.

The layout modules (and Pillow's drawing) are imported on first use, so a plugin that
never lays anything out adaptively does not pay for them at start.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Hashable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from PIL import Image

    from shared.plugin_api.common.adaptive_layout import LayoutContext
    from shared.plugin_api.common.font_ladders import FitResult, FontLadder
    from shared.plugin_api.common.image_fit import ImageFitResult

# Same value as ``adaptive_layout.DEFAULT_DESIGN_SIZE`` (a test holds them equal);
# repeated here so reading the manifest does not import the layout modules.
_DEFAULT_DESIGN_SIZE = (128, 32)
_OWN = "_ledpanel_own_layout"  # where a layout the plugin assigned itself is kept
# Contexts kept per plugin, the most recently used: Vegas mode draws a plugin on a
# capture surface of the segment's size between frames on the panel, and each size
# keeps its fit caches.
LAYOUTS_KEPT = 4


def design_size_of(manifest: Any) -> tuple[int, int]:
    """Return the manifest's ``display.design_size`` as (width, height), else 128x32.

    A missing, partial or non-integer declaration (the loader reports those) falls
    back to the default rather than failing the plugin's drawing.
    """
    display = manifest.get("display") if isinstance(manifest, dict) else None
    declared = display.get("design_size") if isinstance(display, dict) else None
    if not isinstance(declared, dict):
        return _DEFAULT_DESIGN_SIZE
    width, height = declared.get("width"), declared.get("height")
    for value in (width, height):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            return _DEFAULT_DESIGN_SIZE
    return (int(width), int(height))  # type: ignore[arg-type]


def panel_size(display_manager: Any) -> tuple[int, int]:
    """Return the drawing surface's (width, height): its own, else its matrix's, else 128x32."""
    for source in (display_manager, getattr(display_manager, "matrix", None)):
        width, height = getattr(source, "width", None), getattr(source, "height", None)
        if isinstance(width, int) and isinstance(height, int) and width > 0 and height > 0:
            return (width, height)
    return _DEFAULT_DESIGN_SIZE


class LayoutMixin:
    """``layout``, ``draw_fit`` and ``draw_image`` for ``BasePlugin``."""

    plugin_id: str
    display_manager: Any
    plugin_manager: Any

    if TYPE_CHECKING:  # BasePlugin defines it; plugins may override it

        def _get_font_manager(self) -> Any: ...

    @property
    def layout(self) -> LayoutContext:
        """Return the ``LayoutContext`` of the current panel size (built lazily, then reused).

        ``self.layout.bounds`` is the whole panel as a ``Region``; ``scale`` compares
        the panel with the manifest's ``display.design_size``.
        """
        from shared.plugin_api.common.adaptive_layout import LayoutContext

        if _OWN in self.__dict__:
            own: LayoutContext = self.__dict__[_OWN]
            return own
        width, height = panel_size(self.display_manager)
        design = self._design_size()
        fonts = self._get_font_manager()
        key = (width, height, design, id(fonts), getattr(fonts, "cache_generation", 0))
        held: OrderedDict[tuple[Any, ...], LayoutContext] = self.__dict__.setdefault(
            "_ledpanel_layouts", OrderedDict())
        # pop and put back (never move_to_end): safe when the update and render threads
        # both ask at once.
        context = held.pop(key, None)
        if context is None:
            context = LayoutContext(width, height, fonts, design_size=design)
        held[key] = context
        while len(held) > LAYOUTS_KEPT:
            held.popitem(last=False)
        return context

    @layout.setter
    def layout(self, value: Any) -> None:
        """Keep a layout the plugin made itself (plugins that predate this property assign
        ``self.layout = LayoutContext(...)``); ``self.layout`` then returns it."""
        self.__dict__[_OWN] = value

    @layout.deleter
    def layout(self) -> None:
        """Forget a layout the plugin assigned: ``self.layout`` is built again."""
        self.__dict__.pop(_OWN, None)

    def draw_fit(
        self,
        text: str,
        box: Any,
        color: tuple[int, int, int] = (255, 255, 255),
        ladder: FontLadder | None = None,
        align: str = "center",
        valign: str = "center",
    ) -> FitResult:
        """Draw ``text`` in the largest ladder font that fits ``box``, aligned by its ink.

        ``box`` is a ``Region`` or a (w, h) pair at the top-left corner; ``ladder``
        defaults to ``LADDER_DEFAULT`` (the bitmap grid ladder; ``LADDER_ARCADE`` suits
        clocks and scores). Text too wide even at the smallest step is shortened with
        an ellipsis. Returns the ``FitResult`` (font, size, the text drawn, ink size).
        """
        from shared.plugin_api.common.adaptive_layout import LADDER_DEFAULT, draw_fitted_text

        fit = self.layout.fit_text(text, box, ladder=ladder or LADDER_DEFAULT)
        draw_fitted_text(self.display_manager, fit, box, color=color, align=align, valign=valign)
        return fit

    def draw_image(
        self,
        img: Image.Image,
        box: Any,
        *,
        mode: str = "contain",
        align: str = "center",
        valign: str = "center",
        crop_to_ink: bool = False,
        anchor: str = "center",
        resample: Any = None,
        cache_key: Hashable | None = None,
        offset: tuple[int, int] = (0, 0),
    ) -> ImageFitResult:
        """Fit ``img`` into ``box`` and paste it, aligned there, onto ``display_manager.image``.

        ``mode`` is ``contain``, ``cover``, ``fill_height`` or ``stretch`` (see
        ``image_fit``); ``crop_to_ink`` trims transparent borders first; ``anchor="top"``
        keeps the top of a ``cover`` crop; ``resample`` defaults to Lanczos
        (``RESAMPLE_NEAREST`` for pixel art); ``cache_key`` names an image loaded afresh
        each time; ``offset`` moves the pasted image by (dx, dy). The image's alpha is
        the paste mask. Returns the ``ImageFitResult``.
        """
        from shared.plugin_api.common.image_fit import draw_fitted_image

        ifit = self.layout.fit_image(img, box, mode=mode, crop_to_ink=crop_to_ink,
                                     anchor=anchor, resample=resample, cache_key=cache_key)
        draw_fitted_image(self.display_manager, ifit, box, align=align, valign=valign,
                          offset=offset)
        return ifit

    def _design_size(self) -> tuple[int, int]:
        """Return the design size the plugin's manifest declares (from its plugin manager)."""
        getter = getattr(self.plugin_manager, "get_manifest", None)
        manifest = getter(self.plugin_id) if callable(getter) else None
        if manifest is None:  # managers written for the existing system keep a dict
            manifests = getattr(self.plugin_manager, "plugin_manifests", None)
            manifest = manifests.get(self.plugin_id) if isinstance(manifests, dict) else None
        return design_size_of(manifest)
