"""What a skin programs against: ``ScoreboardSkin``, ``SkinContext``, ``build_context``.

A scoreboard plugin hands a skin one game (its view model, a dict whose guaranteed keys
are versioned by ``VIEW_MODEL_VERSION``) and a context holding a fresh canvas the size
of the panel. The skin draws onto ``ctx.canvas`` and returns True; the plugin pastes the
canvas. A skin never touches the display, the network or the plugin.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from PIL import Image, ImageDraw

from shared.plugin_api.common.adaptive_layout import LayoutContext
from shared.plugin_api.skins.manifest import SKIN_API_VERSION, VIEW_MODEL_VERSION

_LOG = logging.getLogger("ledpanel.skins")


def _no_logo(side: str) -> Image.Image | None:
    return None


@dataclass
class SkinContext:
    """Everything a skin may use during one render call."""

    canvas: Image.Image
    draw: ImageDraw.ImageDraw
    layout: LayoutContext
    width: int
    height: int
    fonts: dict[str, Any] = field(default_factory=dict)
    options: dict[str, Any] = field(default_factory=dict)
    logger: Any = _LOG
    sport: str | None = None
    view_model_version: str = VIEW_MODEL_VERSION
    load_logo: Callable[[str], Image.Image | None] = _no_logo

    def draw_text(self, text: str, x: int, y: int,
                  color: tuple[int, int, int] = (255, 255, 255), font: Any = None) -> None:
        """Draw ``text`` with its top-left at (x, y) in a Pillow font (the default one
        when None)."""
        self.draw.text((int(x), int(y)), str(text), font=font, fill=color)


class ScoreboardSkin:
    """A skin: override the modes it restyles; the rest fall back to the plugin's look.

    Each ``render_*`` draws onto ``ctx.canvas`` and returns True when it drew; False
    (the default) means "use the built-in screen for this mode".
    """

    SKIN_API_VERSION = SKIN_API_VERSION

    def __init__(self, manifest: Mapping[str, Any], options: Mapping[str, Any]) -> None:
        self.manifest = dict(manifest)
        self.options = dict(options or {})

    def render_live(self, ctx: SkinContext, game: Mapping[str, Any]) -> bool:
        return False

    def render_recent(self, ctx: SkinContext, game: Mapping[str, Any]) -> bool:
        return False

    def render_upcoming(self, ctx: SkinContext, game: Mapping[str, Any]) -> bool:
        return False


def _panel_size(host: Any) -> tuple[int, int]:
    display = getattr(host, "display_manager", host)
    matrix = getattr(display, "matrix", None)
    width = getattr(display, "width", None) or getattr(matrix, "width", None) or 0
    height = getattr(display, "height", None) or getattr(matrix, "height", None) or 0
    return int(width), int(height)


def build_context(host: Any, game: Mapping[str, Any] | None = None,
                  size: tuple[int, int] | None = None) -> SkinContext:
    """The context for one render: a black canvas the panel's size (or ``size``).

    ``host`` is the plugin (or its display manager): its ``display_manager`` gives the
    size, and ``fonts``, ``logger``, ``sport``, ``skin_options`` (else the config's
    ``skin_options``) and a ``load_logo(side, game)`` method are used when present.
    """
    width, height = size if size is not None else _panel_size(host)
    width, height = max(1, int(width)), max(1, int(height))
    canvas = Image.new("RGB", (width, height), (0, 0, 0))
    options = getattr(host, "skin_options", None)
    if not isinstance(options, dict):
        config = getattr(host, "config", None)
        options = config.get("skin_options") if isinstance(config, dict) else None
    loader = getattr(host, "load_logo", None)
    game_data = dict(game or {})

    def load_logo(side: str) -> Image.Image | None:
        if side not in ("home", "away") or not callable(loader):
            return None
        try:
            logo = loader(side, game_data)
        except Exception:  # a missing logo never fails the skin's render
            return None
        return logo if isinstance(logo, Image.Image) else None

    fonts = getattr(host, "fonts", None)
    return SkinContext(
        canvas=canvas, draw=ImageDraw.Draw(canvas), layout=LayoutContext(width, height),
        width=width, height=height, fonts=dict(fonts) if isinstance(fonts, dict) else {},
        options=dict(options) if isinstance(options, dict) else {},
        logger=getattr(host, "logger", None) or _LOG, sport=getattr(host, "sport", None),
        load_logo=load_logo)
