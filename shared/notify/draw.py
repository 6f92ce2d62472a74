"""Painting a card (text, an optional icon, a colour) on a panel of any size.

The public surface, used by notifications and by pushed custom apps:

- ``Card(text, color=(255, 255, 255), icon=None)``: what to show. ``icon`` is an
  RGBA Pillow image (``icons.builtin_icon(name)`` or any small picture); None draws
  the text across the whole panel.
- ``render(card, display_manager, elapsed, speed=SCROLL_PX_PER_S) -> Painted``:
  clears ``display_manager.image`` and paints the card as it looks ``elapsed``
  seconds after it first appeared. It never calls ``update_display()``: the caller
  presents the frame. The same card at the same ``elapsed`` paints the same pixels.
- ``Painted``: what was painted. ``scrolling`` says the text did not fit and moves;
  ``passes`` counts the scroll passes finished by ``elapsed`` (a pass: the text
  enters at the right edge of its box and leaves at the left), ``pass_seconds`` is
  one pass's length, so a caller showing a card for ``repeat`` scroll passes ends
  it when ``passes >= repeat`` (or after ``repeat * pass_seconds``).

Layout, with the adaptive layout's pieces (``LayoutContext``, ``Region``, the font
ladders): the icon sits on the left in a square box as tall as the panel (at most
half its width), scaled by a whole factor when it fits (pixel art stays crisp),
nearest-neighbour shrunk when it does not. The text takes the rest: the largest
step of the default ladder (the bitmap grid fonts) at which the whole text fits,
centred; when even the smallest step is too wide, the largest step whose ink fits
the box's height, scrolling right to left at ``speed`` pixels per second.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from PIL import Image, ImageDraw

from shared.plugin_api.common.adaptive_layout import (
    LADDER_DEFAULT,
    RESAMPLE_NEAREST,
    FitResult,
    LayoutContext,
    Region,
    draw_fitted_image,
    draw_fitted_text,
    fit_image,
)

Color = tuple[int, int, int]

SCROLL_PX_PER_S = 24.0
WHITE: Color = (255, 255, 255)
# Layout contexts kept (one per panel size and font generation): their fit caches
# make repeated frames of one card cheap.
CONTEXTS_KEPT = 4
_UNBOUNDED = 1 << 20  # a box width no text reaches: "fit the height only"


@dataclass(frozen=True, eq=False)
class Card:
    """What a card shows: one line of text, its colour and an optional icon (RGBA)."""

    text: str
    color: Color = WHITE
    icon: Image.Image | None = None


@dataclass(frozen=True)
class Painted:
    """What ``render`` painted: the boxes used and where a scrolling text is."""

    scrolling: bool
    passes: int
    pass_seconds: float
    text_box: Region
    icon_box: Region | None


@dataclass(frozen=True)
class _Plan:
    text_box: Region
    icon_box: Region | None
    fit: FitResult
    scrolling: bool


_contexts: OrderedDict[tuple[Any, ...], LayoutContext] = OrderedDict()


def layout_for(display_manager: Any) -> LayoutContext:
    """Return the (kept) layout context for the display manager's size and fonts."""
    width, height = int(display_manager.width), int(display_manager.height)
    fonts = getattr(display_manager, "font_manager", None)
    key = (width, height, id(fonts), getattr(fonts, "cache_generation", 0))
    context = _contexts.pop(key, None)
    if context is None:
        context = LayoutContext(width, height, fonts)
    _contexts[key] = context
    while len(_contexts) > CONTEXTS_KEPT:
        _contexts.popitem(last=False)
    return context


def boxes(width: int, height: int, has_icon: bool) -> tuple[Region | None, Region]:
    """Return the icon box (None without an icon) and the text box of a panel."""
    whole = Region(0, 0, width, height)
    if not has_icon:
        return None, whole
    side = max(1, min(height, width // 2))
    gap = 1 if width >= 32 else 0
    return whole.left_col(side), whole.right_col(width - side - gap)


def _plan(card: Card, layout: LayoutContext) -> _Plan:
    icon_box, text_box = boxes(layout.width, layout.height, card.icon is not None)
    fit = layout.fit_text(card.text, text_box, ladder=LADDER_DEFAULT, ellipsis=False)
    if fit.fits:
        return _Plan(text_box, icon_box, fit, False)
    tall = layout.fit_text(card.text, (_UNBOUNDED, text_box.h), ladder=LADDER_DEFAULT,
                           ellipsis=False)
    return _Plan(text_box, icon_box, tall, True)


def render(card: Card, display_manager: Any, elapsed: float,
           speed: float = SCROLL_PX_PER_S) -> Painted:
    """Clear the canvas and paint ``card`` as it looks ``elapsed`` seconds in (module doc)."""
    plan = _plan(card, layout_for(display_manager))
    display_manager.clear()
    passes, pass_seconds = 0, 0.0
    if plan.scrolling:
        passes, pass_seconds = _paint_scrolling(card, plan, display_manager, elapsed, speed)
    else:
        draw_fitted_text(display_manager, plan.fit, plan.text_box, color=card.color)
    if plan.icon_box is not None and card.icon is not None:
        _paint_icon(card.icon, plan.icon_box, display_manager)
    return Painted(plan.scrolling, passes, pass_seconds, plan.text_box, plan.icon_box)


def _paint_scrolling(card: Card, plan: _Plan, display_manager: Any, elapsed: float,
                     speed: float) -> tuple[int, float]:
    """Draw the text at its scroll position; return (passes finished, seconds per pass)."""
    box, fit = plan.text_box, plan.fit
    distance = box.w + fit.width
    step = max(1.0, float(speed))
    travelled = int(max(0.0, elapsed) * step)
    x = box.right - travelled % distance
    _x, y = box.align_xy(fit.width, fit.height, "left", "center")
    display_manager.draw_text(fit.text, x=x, y=y - fit.y_offset, color=card.color,
                              font=fit.font)
    return travelled // distance, distance / step


def _paint_icon(icon: Image.Image, box: Region, display_manager: Any) -> None:
    """Blank the icon box (scrolling text passes under it) and paste the icon there."""
    canvas = display_manager.image
    ImageDraw.Draw(canvas).rectangle((box.x, box.y, box.right - 1, box.bottom - 1),
                                     fill=(0, 0, 0))
    factor = min(box.w // max(1, icon.width), box.h // max(1, icon.height))
    if factor >= 1:
        size = (icon.width * factor, icon.height * factor)
        fitted = fit_image(icon, size, mode="stretch", resample=RESAMPLE_NEAREST)
    else:
        fitted = fit_image(icon, box, mode="contain", resample=RESAMPLE_NEAREST)
    draw_fitted_image(display_manager, fitted, box)
