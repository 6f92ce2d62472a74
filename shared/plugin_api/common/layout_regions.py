"""Integer rectangles for laying out a panel, and the arrangements plugins repeat.

A ``Region`` is immutable and never has a negative width or height: carving more than
a region holds (a band taller than the region, a column wider) gives what there is,
so layouts degrade on small panels instead of producing boxes that draw off-canvas.
Regions carved from one parent do not overlap, which replaces the hand-tuned
``y = 1`` / ``y = height - 7`` offsets of layouts written for one panel size.

``scoreboard_regions`` and ``media_row`` return Regions only; they never draw.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol


class Scaler(Protocol):
    """What the composite layouts need from a layout context: design-size scaling."""

    scale: float

    def px(self, base: int, minimum: int = 1, maximum: int | None = None) -> int: ...


@dataclass(frozen=True)
class Region:
    """A rectangle in panel pixels: left ``x``, top ``y``, width ``w``, height ``h``."""

    x: int
    y: int
    w: int
    h: int

    def __post_init__(self) -> None:
        object.__setattr__(self, "x", int(self.x))
        object.__setattr__(self, "y", int(self.y))
        object.__setattr__(self, "w", max(0, int(self.w)))
        object.__setattr__(self, "h", max(0, int(self.h)))

    @property
    def right(self) -> int:
        """Return the first column past the region."""
        return self.x + self.w

    @property
    def bottom(self) -> int:
        """Return the first row below the region."""
        return self.y + self.h

    @property
    def center(self) -> tuple[int, int]:
        """Return the centre point (rounded down)."""
        return (self.x + self.w // 2, self.y + self.h // 2)

    def inset(self, dx: int, dy: int | None = None) -> Region:
        """Return the region shrunk by ``dx`` left and right, ``dy`` (default dx) top and bottom."""
        dy = dx if dy is None else dy
        return Region(self.x + dx, self.y + dy, self.w - 2 * dx, self.h - 2 * dy)

    def offset(self, dx: int, dy: int) -> Region:
        """Return the region moved by (dx, dy), same size (e.g. a user's x/y offset)."""
        return Region(self.x + dx, self.y + dy, self.w, self.h)

    def top_band(self, h: int) -> Region:
        """Return the top ``h`` rows (all of them when ``h`` is larger)."""
        return Region(self.x, self.y, self.w, min(h, self.h))

    def bottom_band(self, h: int) -> Region:
        """Return the bottom ``h`` rows (all of them when ``h`` is larger)."""
        h = max(0, min(h, self.h))
        return Region(self.x, self.bottom - h, self.w, h)

    def middle(self, top_h: int = 0, bottom_h: int = 0) -> Region:
        """Return the rows between a top band of ``top_h`` and a bottom band of ``bottom_h``."""
        return Region(self.x, self.y + top_h, self.w, self.h - top_h - bottom_h)

    def left_col(self, w: int) -> Region:
        """Return the leftmost ``w`` columns (all of them when ``w`` is larger)."""
        return Region(self.x, self.y, min(w, self.w), self.h)

    def right_col(self, w: int) -> Region:
        """Return the rightmost ``w`` columns (all of them when ``w`` is larger)."""
        w = max(0, min(w, self.w))
        return Region(self.right - w, self.y, w, self.h)

    def split_h(self, *weights: float, gap: int = 0) -> list[Region]:
        """Return side-by-side columns sized by ``weights``, ``gap`` columns apart."""
        columns, left = [], self.x
        for size in _shares(self.w, weights, gap):
            columns.append(Region(left, self.y, size, self.h))
            left += size + gap
        return columns

    def split_v(self, *weights: float, gap: int = 0) -> list[Region]:
        """Return stacked rows sized by ``weights``, ``gap`` rows apart."""
        rows, top = [], self.y
        for size in _shares(self.h, weights, gap):
            rows.append(Region(self.x, top, self.w, size))
            top += size + gap
        return rows

    def align_xy(
        self, w: int, h: int, align: str = "center", valign: str = "center"
    ) -> tuple[int, int]:
        """Return the top-left corner for a ``w`` x ``h`` box placed in the region.

        ``align`` is ``left``, ``center`` or ``right``; ``valign`` is ``top``, ``center``
        or ``bottom``. A box larger than the region overhangs it evenly when centred.
        """
        if align == "left":
            x = self.x
        elif align == "right":
            x = self.right - w
        else:
            x = self.x + (self.w - w) // 2
        if valign == "top":
            y = self.y
        elif valign == "bottom":
            y = self.bottom - h
        else:
            y = self.y + (self.h - h) // 2
        return (x, y)

    def center_xy(self, w: int, h: int) -> tuple[int, int]:
        """Return the top-left corner that centres a ``w`` x ``h`` box in the region."""
        return self.align_xy(w, h)

    def contains(self, w: int, h: int) -> bool:
        """Return True when a ``w`` x ``h`` box fits inside the region."""
        return w <= self.w and h <= self.h


def _shares(total: int, weights: Sequence[float], gap: int) -> list[int]:
    """Split ``total`` minus the gaps by ``weights``; leftover pixels go left to right."""
    if not weights:
        return []
    usable = max(0, total - gap * (len(weights) - 1))
    clean = [max(0.0, float(w)) for w in weights]
    if not sum(clean):
        clean = [1.0] * len(clean)
    weight_sum = sum(clean)
    sizes = [int(usable * w / weight_sum) for w in clean]
    for i in range(usable - sum(sizes)):  # fewer than len(sizes) pixels remain
        sizes[i % len(sizes)] += 1
    return sizes


@dataclass(frozen=True)
class ScoreboardRegions:
    """A game card: a logo slot at each side, a centre column, text bands."""

    bounds: Region
    logo_slot: int  # width of each logo slot
    away_slot: Region  # left logo slot
    home_slot: Region  # right logo slot
    center_col: Region  # the column kept free between the slots
    status_band: Region  # full-width top band (period, clock)
    score_area: Region  # centre column between the bands
    detail_band: Region  # full-width bottom band (date, down and distance)
    bottom_left: Region  # bottom corner under the away slot (record, timeouts)
    bottom_right: Region  # bottom corner under the home slot
    score_box: Region  # score_area widened into the slots by the bleed: fit the score here


def scoreboard_regions(
    bounds: Region,
    *,
    ctx: Scaler | None = None,
    status_h: int | None = None,
    detail_h: int | None = None,
    min_center_fraction: float = 0.25,
    min_center_design_px: int = 32,
    score_bleed_fraction: float = 0.25,
) -> ScoreboardRegions:
    """Carve a game card into logo slots, a centre column and text bands.

    Each logo slot is ``min(height, width // 2)`` wide, narrowed so a centre column of
    at least ``max(width * min_center_fraction, min_center_design_px * scale)`` stays
    free for the score (``scale`` from ``ctx``, else 1). The status and detail bands
    span the full width (9 and 8 rows at the 128x32 design size, scaled by ``ctx``).
    ``score_box`` is ``score_area`` grown into each slot by ``score_bleed_fraction`` of
    the slot: fit the score text there, draw logos in the slots.
    """
    scale = ctx.scale if ctx is not None else 1.0
    if status_h is None:
        status_h = ctx.px(9, minimum=7) if ctx is not None else 9
    if detail_h is None:
        detail_h = ctx.px(8, minimum=7) if ctx is not None else 8
    reserve = max(bounds.w * max(0.0, min_center_fraction), min_center_design_px * scale)
    slot = max(0, min(bounds.h, bounds.w // 2, int((bounds.w - reserve) // 2)))
    center = Region(bounds.x + slot, bounds.y, bounds.w - 2 * slot, bounds.h)
    status_band = bounds.top_band(status_h)
    detail_band = bounds.bottom_band(detail_h)
    score_area = center.middle(status_band.h, detail_band.h)
    bleed = int(slot * min(max(0.0, score_bleed_fraction), 1.0))
    score_box = Region(score_area.x - bleed, score_area.y, score_area.w + 2 * bleed, score_area.h)
    return ScoreboardRegions(
        bounds=bounds,
        logo_slot=slot,
        away_slot=bounds.left_col(slot),
        home_slot=bounds.right_col(slot),
        center_col=center,
        status_band=status_band,
        score_area=score_area,
        detail_band=detail_band,
        bottom_left=detail_band.left_col(slot),
        bottom_right=detail_band.right_col(slot),
        score_box=score_box,
    )


@dataclass(frozen=True)
class MediaRow:
    """Art (album cover, icon) on the left, a text column on the right."""

    art: Region
    body: Region


def media_row(
    bounds: Region, *, ctx: Scaler | None = None, square: bool = True, gap: int | None = None
) -> MediaRow:
    """Split ``bounds`` into an art slot and a body column ``gap`` pixels apart.

    The art slot is as wide as ``bounds`` is tall when ``square``, else half the width.
    ``gap`` defaults to 2 pixels at the design size, scaled by ``ctx``.
    """
    if gap is None:
        gap = ctx.px(2, minimum=1) if ctx is not None else 2
    art_w = min(bounds.h if square else bounds.w // 2, bounds.w)
    body = Region(bounds.x + art_w + gap, bounds.y, bounds.w - art_w - gap, bounds.h)
    return MediaRow(art=bounds.left_col(art_w), body=body)
