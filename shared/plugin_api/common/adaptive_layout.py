"""Adaptive layout for plugins: text and images sized to the panel, crisp at any size.

Community plugins import this as ``src.adaptive_layout`` (and from ``src.common``).
Three pieces, all opt-in:

- ``Region`` (``layout_regions``): integer rectangles carved into bands and columns.
- Font ladders (``font_ladders``): ordered (family, size) steps a font renders
  crisply at. Fitting walks a ladder from the largest step down until the measured
  text fits the box, and shortens it with an ellipsis when even the smallest step is
  too wide. Images fit by ``image_fit``.
- ``LayoutContext`` (here): the facts of one panel size (height and width tiers, a
  geometry scale against the design size, 128x32 by default) and cached fitting.

Fonts come from a ``FontManager`` (``get_font(family, size)``): the one the plugin
passes, else the shared default. Fits are cached per context in bounded LRUs (512
text fits, 64 image fits), keyed by the font manager's ``cache_generation`` too, so
a font reload is never answered with stale fonts.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Hashable, Sequence
from typing import Any

from PIL import Image

from shared.plugin_api.common.default_fonts import default_font_manager
from shared.plugin_api.common.font_ladders import (
    ELLIPSIS,
    LADDER_ARCADE,
    LADDER_DEFAULT,
    LADDER_GRID,
    FitResult,
    FontLadder,
    FontStep,
    font_line_height,
    measure_font_crispness,
    measure_ink,
)
from shared.plugin_api.common.image_fit import (
    FIT_MODES,
    RESAMPLE_LANCZOS,
    RESAMPLE_NEAREST,
    ImageFitResult,
    box_size,
    draw_fitted_image,
    fit_image,
)
from shared.plugin_api.common.layout_regions import (
    MediaRow,
    Region,
    ScoreboardRegions,
    media_row,
    scoreboard_regions,
)

# Height tiers from the smallest; a 32-row panel, the common case, is "sm".
HEIGHT_TIERS: tuple[tuple[str, int], ...] = (
    ("xs", 16), ("sm", 32), ("md", 48), ("lg", 64), ("xl", 1 << 30),
)
TIER_ORDER: tuple[str, ...] = tuple(name for name, _ in HEIGHT_TIERS)
WIDTH_TIERS: tuple[tuple[str, int], ...] = (
    ("narrow", 64), ("normal", 128), ("wide", 256), ("ultrawide", 1 << 30),
)
WIDTH_TIER_ORDER: tuple[str, ...] = tuple(name for name, _ in WIDTH_TIERS)
DEFAULT_DESIGN_SIZE: tuple[int, int] = (128, 32)
TEXT_CACHE_MAX = 512
IMAGE_CACHE_MAX = 64


class LayoutContext:
    """Layout facts and cached fitting for one panel size.

    Args:
        width, height: the panel (or card) size in pixels.
        font_manager: where ladder fonts come from (``plugin_manager.font_manager``);
            None uses the shared default over the shipped fonts.
        design_size: the size the layout was authored for; ``scale`` and ``px()``
            compare against it. Fonts never scale by it: they step along ladders.
    """

    def __init__(
        self,
        width: int,
        height: int,
        font_manager: Any = None,
        design_size: tuple[int, int] = DEFAULT_DESIGN_SIZE,
    ) -> None:
        self.width = max(0, int(width))
        self.height = max(0, int(height))
        self.font_manager = font_manager if font_manager is not None else default_font_manager()
        design_w, design_h = (max(1, int(v)) for v in design_size)
        self.design_size = (design_w, design_h)
        self.bounds = Region(0, 0, self.width, self.height)
        self.aspect = self.width / max(1, self.height)
        self.tier = _pick_tier(HEIGHT_TIERS, self.height)
        self.width_tier = _pick_tier(WIDTH_TIERS, self.width)
        self.is_wide_short = self.aspect >= 2.5 and self.height <= 32
        # Geometry only (gaps, logo slots): the smaller ratio keeps shapes inside the panel.
        self.scale = min(self.width / design_w, self.height / design_h)
        self._fits: OrderedDict[Hashable, FitResult] = OrderedDict()
        self._images: OrderedDict[Hashable, tuple[ImageFitResult, Any]] = OrderedDict()
        # Cache lookups answered from the cache and computed afresh, by kind.
        self.cache_hits = {"text": 0, "image": 0}
        self.cache_misses = {"text": 0, "image": 0}

    def px(self, base: int, minimum: int = 1, maximum: int | None = None) -> int:
        """Return ``base`` design-size pixels scaled to this panel, within [minimum, maximum]."""
        value = max(minimum, round(base * self.scale))
        return min(value, maximum) if maximum is not None else value

    def by_tier(self, mapping: dict[str, Any], default: Any = None) -> Any:
        """Return the value for this panel's tier: the nearest key at or below it, else above.

        Keys are height tiers (``xs sm md lg xl``) or, when none is, width tiers
        (``narrow normal wide ultrawide``): ``by_tier({"sm": 10, "lg": 18})`` is 10 on
        128x32 and 18 on 128x64.
        """
        if any(key in TIER_ORDER for key in mapping):
            order, current = TIER_ORDER, self.tier
        else:
            order, current = WIDTH_TIER_ORDER, self.width_tier
        at = order.index(current)
        for name in (*reversed(order[: at + 1]), *order[at + 1:]):
            if name in mapping:
                return mapping[name]
        return default

    def fit_text(
        self, text: str, box: Any, ladder: FontLadder = LADDER_DEFAULT, ellipsis: bool = True
    ) -> FitResult:
        """Return the largest ladder step at which ``text`` fits ``box`` (Region or (w, h)).

        When even the smallest step is too wide the text is shortened with an ellipsis
        (unless ``ellipsis`` is False).
        """
        box_w, box_h = box_size(box)
        key = ("text", text, box_w, box_h, tuple(ladder), ellipsis)
        return self._cached_fit(key, lambda: self._walk(text, ladder, box_w, box_h, ellipsis))

    def fit_text_proportional(
        self,
        text: str,
        box: Any,
        base_size_px: int,
        ladder: FontLadder = LADDER_DEFAULT,
        scale: float | None = None,
        ellipsis: bool = True,
    ) -> FitResult:
        """Return the step nearest ``base_size_px * scale`` from below that fits ``box``.

        ``scale`` defaults to the context's. Use it to keep several texts in proportion
        as the panel grows, where ``fit_text`` would blow each up to its own box. Steps
        above the target are skipped; when none is at or below it the smallest is used.
        """
        box_w, box_h = box_size(box)
        factor = self.scale if scale is None else float(scale)
        key = ("prop", text, box_w, box_h, tuple(ladder), base_size_px, ellipsis, factor)
        target = base_size_px * factor
        by_size = sorted(_require(ladder), key=lambda step: step.size_px, reverse=True)
        candidates = [step for step in by_size if step.size_px <= target] or by_size[-1:]
        return self._cached_fit(
            key, lambda: self._walk(text, candidates, box_w, box_h, ellipsis)
        )

    def fit_lines(
        self, lines: Sequence[str], box: Any, ladder: FontLadder = LADDER_DEFAULT, spacing: int = 1
    ) -> FitResult:
        """Return the largest step at which every line fits the width and the stack the height.

        The result's ``text`` and measurements are those of the widest line.
        """
        box_w, box_h = box_size(box)
        rows = max(1, len(lines))
        key = ("lines", tuple(lines), box_w, box_h, tuple(ladder), spacing)

        def walk() -> FitResult:
            result: FitResult | None = None
            for step in _require(ladder):
                font = self._font(step)
                line_h = font_line_height(font)
                measured = [(measure_ink(line, font), line) for line in lines] or [
                    ((0, 0, 0, 0), "")
                ]
                (width, height, base, y_off), widest = max(measured, key=lambda m: m[0][0])
                fits = width <= box_w and rows * line_h + (rows - 1) * spacing <= box_h
                result = FitResult(font, step.family, step.size_px, widest, width, height,
                                   base, y_off, fits, line_h)
                if fits:
                    break
            assert result is not None
            return result

        return self._cached_fit(key, walk)

    def font_for_rows(self, rows: int, box_h: int, ladder: FontLadder = LADDER_GRID) -> FitResult:
        """Return the largest step whose line height lets ``rows`` rows fit ``box_h``."""
        key = ("rows", rows, box_h, tuple(ladder))

        def walk() -> FitResult:
            result: FitResult | None = None
            for step in _require(ladder):
                font = self._font(step)
                line_h = font_line_height(font)
                width, height, base, y_off = measure_ink("0Ay", font)
                fits = max(1, rows) * line_h <= box_h
                result = FitResult(font, step.family, step.size_px, "0Ay", width, height,
                                   base, y_off, fits, line_h)
                if fits:
                    break
            assert result is not None
            return result

        return self._cached_fit(key, walk)

    def fit_image(
        self,
        img: Image.Image,
        box: Any,
        *,
        mode: str = "contain",
        crop_to_ink: bool = False,
        anchor: str = "center",
        resample: Any = None,
        upscale: bool = True,
        cache_key: Hashable | None = None,
    ) -> ImageFitResult:
        """Return ``fit_image`` of ``img`` into ``box`` (see ``image_fit``), cached.

        Give a stable ``cache_key`` (``"logo:KC"``) for images loaded afresh each time;
        without one the image's identity is the key and the entry keeps the image alive
        so that identity cannot be reused by another image.
        """
        box_w, box_h = box_size(box)
        identity = cache_key if cache_key is not None else ("id", id(img))
        filt = getattr(resample, "name", repr(resample))
        key = ("image", identity, img.size, box_w, box_h, mode, crop_to_ink, anchor, filt, upscale)
        held = self._images.get(key)
        self._count("image", held is not None)
        if held is not None:
            self._images.move_to_end(key)
            return held[0]
        result = fit_image(img, (box_w, box_h), mode=mode, crop_to_ink=crop_to_ink,
                           anchor=anchor, resample=resample, upscale=upscale)
        self._images[key] = (result, img if cache_key is None else None)
        while len(self._images) > IMAGE_CACHE_MAX:
            self._images.popitem(last=False)
        return result

    def draw_fitted_text(
        self,
        display_manager: Any,
        fit: FitResult,
        box: Any,
        color: tuple[int, int, int] = (255, 255, 255),
        align: str = "center",
        valign: str = "center",
    ) -> None:
        """Draw a fit's text on ``display_manager``, its ink aligned in ``box``."""
        draw_fitted_text(display_manager, fit, box, color=color, align=align, valign=valign)

    def ellipsize(self, text: str, font: Any, max_w: int) -> str:
        """Return ``text`` cut and ended with an ellipsis to fit ``max_w``; '' if nothing fits."""
        if measure_ink(text, font)[0] <= max_w:
            return text
        low, high = 0, len(text) - 1  # the longest prefix that fits is in [low, high]
        while low < high:  # binary search: about log2(len(text)) measurements
            mid = (low + high + 1) // 2
            if measure_ink(text[:mid].rstrip() + ELLIPSIS, font)[0] <= max_w:
                low = mid
            else:
                high = mid - 1
        if low > 0:
            return text[:low].rstrip() + ELLIPSIS
        return ELLIPSIS if measure_ink(ELLIPSIS, font)[0] <= max_w else ""

    def measure(self, text: str, font: Any) -> tuple[int, int, int]:
        """Return the ink (width, height, baseline) of ``text`` in ``font``."""
        width, height, baseline, _ = measure_ink(text, font)
        return (width, height, baseline)

    def cache_info(self) -> dict[str, dict[str, int]]:
        """Return, for ``text`` and ``image`` fits: hits, misses and entries held."""
        sizes = {"text": len(self._fits), "image": len(self._images)}
        return {kind: {"hits": self.cache_hits[kind], "misses": self.cache_misses[kind],
                       "size": sizes[kind]} for kind in sizes}

    def clear_cache(self) -> None:
        """Forget every cached fit (text and image)."""
        self._fits.clear()
        self._images.clear()

    # -- internals -------------------------------------------------------------

    def _count(self, kind: str, hit: bool) -> None:
        counts = self.cache_hits if hit else self.cache_misses
        counts[kind] += 1

    def _font(self, step: FontStep) -> Any:
        return self.font_manager.get_font(step.family, step.size_px)

    def _walk(
        self, text: str, ladder: Sequence[FontStep], box_w: int, box_h: int, ellipsis: bool
    ) -> FitResult:
        """Try the steps in order; shorten the text at the last one when none fits."""
        result: FitResult | None = None
        for step in _require(ladder):
            font = self._font(step)
            width, height, base, y_off = measure_ink(text, font)
            fits = width <= box_w and height <= box_h
            result = FitResult(font, step.family, step.size_px, text, width, height, base,
                               y_off, fits, font_line_height(font))
            if fits:
                return result
        assert result is not None
        if not ellipsis:
            return result
        short = self.ellipsize(text, result.font, box_w)
        width, height, base, y_off = measure_ink(short, result.font)
        return FitResult(result.font, result.family, result.size_px, short, width, height,
                         base, y_off, width <= box_w and height <= box_h, result.line_height)

    def _cached_fit(self, key: tuple[Any, ...], compute: Any) -> FitResult:
        full = (getattr(self.font_manager, "cache_generation", 0), *key)
        held = self._fits.get(full)
        self._count("text", held is not None)
        if held is not None:
            self._fits.move_to_end(full)
            return held
        result: FitResult = compute()
        self._fits[full] = result
        while len(self._fits) > TEXT_CACHE_MAX:
            self._fits.popitem(last=False)
        return result


def _require(ladder: Sequence[FontStep]) -> Sequence[FontStep]:
    if not ladder:
        raise ValueError("a font ladder needs at least one FontStep")
    return ladder


def _pick_tier(tiers: tuple[tuple[str, int], ...], value: int) -> str:
    return next((name for name, limit in tiers if value <= limit), tiers[-1][0])


def draw_fitted_text(
    display_manager: Any,
    fit: FitResult,
    box: Any,
    color: tuple[int, int, int] = (255, 255, 255),
    align: str = "center",
    valign: str = "center",
) -> None:
    """Draw a fit's text with ``display_manager.draw_text``, its ink aligned in ``box``."""
    region = box if isinstance(box, Region) else Region(0, 0, *box_size(box))
    x, y = region.align_xy(fit.width, fit.height, align, valign)
    display_manager.draw_text(fit.text, x=x, y=y - fit.y_offset, color=color, font=fit.font)


__all__ = [
    "DEFAULT_DESIGN_SIZE",
    "ELLIPSIS",
    "FIT_MODES",
    "HEIGHT_TIERS",
    "IMAGE_CACHE_MAX",
    "LADDER_ARCADE",
    "LADDER_DEFAULT",
    "LADDER_GRID",
    "RESAMPLE_LANCZOS",
    "RESAMPLE_NEAREST",
    "TEXT_CACHE_MAX",
    "TIER_ORDER",
    "WIDTH_TIERS",
    "WIDTH_TIER_ORDER",
    "FitResult",
    "FontLadder",
    "FontStep",
    "ImageFitResult",
    "LayoutContext",
    "MediaRow",
    "Region",
    "ScoreboardRegions",
    "draw_fitted_image",
    "draw_fitted_text",
    "fit_image",
    "font_line_height",
    "measure_font_crispness",
    "measure_ink",
    "media_row",
    "scoreboard_regions",
]
