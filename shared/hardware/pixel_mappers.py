"""Size of the drawing canvas after the matrix library's pixel mappers.

The input size is ``cols * chain_length`` by ``rows * parallel``. Mappers are written
``Name`` or ``Name:parameter``, separated by ``;``, and apply left to right, each to
the size the previous one produced. Names match without regard to case, as in the
library. Formulas follow the library's size mapping:

- ``Rotate:<deg>``: a multiple of 90 (empty = 0); 90 and 270 swap width and height.
- ``Mirror:H`` / ``Mirror:V`` (empty = H): size unchanged.
- ``U-mapper``: ``((W // 64) * 32, 2 * H)``; chain_length even and at least 2, and H
  divisible by parallel.
- ``V-mapper`` / ``V-mapper:Z``: ``(W * parallel // chain, H * chain // parallel)``.
- ``StackToRow``: ``(W * parallel, H // parallel)``.
- ``Remap:<w>,<h>|<x>,<y><o>|...``: ``(w, h)``; exactly chain_length * parallel tiles,
  each with an orientation ``o`` (n, s, e, w, or x for a panel left out), as the library
  requires. A panel is ``W // chain_length`` by ``H // parallel`` (e and w turn it on
  its side) and must lie inside ``(w, h)``.
- Any other name: the library ignores it, so the size is unchanged (reported as a
  warning by the rules).

No size may exceed ``MAX_CANVAS_PIXELS``: the area of the largest panel the geometry
rules allow (128 columns x 255 panels by 64 rows x 6 chains, about 36 MB a frame in
RGB). Every mapper but ``Remap`` keeps or shrinks the area, so the cap only binds a
``Remap`` size, which is otherwise free: the library, the fallback canvas and the
emulator would all allocate it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

SETTING = "display.hardware.pixel_mapper_config"
CHAIN = "display.hardware.chain_length"
PARALLEL = "display.hardware.parallel"
COLS = "display.hardware.cols"
ROWS = "display.hardware.rows"

KNOWN_MAPPERS = ("Rotate", "Mirror", "U-mapper", "V-mapper", "StackToRow", "Remap")
_INTEGER = re.compile(r"[+-]?\d+")
_TILE = re.compile(r"\s*([+-]?\d+)\s*,\s*([+-]?\d+)\s*([nsewx])\s*", re.IGNORECASE)
# The largest canvas any mapper may produce: the largest panel the geometry rules allow
# (cols 128 x chain_length 255, rows 64 x parallel 6).
MAX_CANVAS_PIXELS = 128 * 255 * 64 * 6


class PixelMapperError(ValueError):
    """A pixel mapper the library would refuse; ``involves`` names the settings read."""

    def __init__(self, message: str, involves: tuple[str, ...] = (SETTING,)) -> None:
        super().__init__(message)
        self.message = message
        self.involves = involves


@dataclass(frozen=True)
class MapperStep:
    """One entry of a pixel mapper config: ``name`` as written and its parameter."""

    name: str
    param: str

    @property
    def key(self) -> str:
        return self.name.lower()


def parse_pixel_mappers(config: str) -> list[MapperStep]:
    """Split a pixel mapper config into its steps; empty entries are skipped."""
    steps = []
    for part in config.split(";"):
        name, _, param = part.strip().partition(":")
        if name.strip():
            steps.append(MapperStep(name.strip(), param.strip()))
    return steps


def unknown_mappers(config: str) -> list[str]:
    """Return the mapper names in ``config`` the library does not know (it ignores them)."""
    known = {name.lower() for name in KNOWN_MAPPERS}
    return [step.name for step in parse_pixel_mappers(config) if step.key not in known]


def mapped_size(
    cols: int, rows: int, chain: int, parallel: int, pixel_mapper_config: str
) -> tuple[int, int]:
    """Return ``(width, height)`` after the mappers; PixelMapperError when one is malformed."""
    width, height = cols * chain, rows * parallel
    for step in parse_pixel_mappers(pixel_mapper_config or ""):
        apply = _SIZE_RULES.get(step.key)
        if apply is not None:
            width, height = apply(step, width, height, chain, parallel)
        if width <= 0 or height <= 0:
            raise PixelMapperError(
                f"{step.name} leaves no pixels ({width}x{height}) for this panel geometry",
                (SETTING, COLS, ROWS, CHAIN, PARALLEL),
            )
        if width * height > MAX_CANVAS_PIXELS:
            raise PixelMapperError(
                f"{step.name} makes a {width}x{height} canvas ({width * height} px); "
                f"at most {MAX_CANVAS_PIXELS} px is supported",
                (SETTING, COLS, ROWS, CHAIN, PARALLEL),
            )
    return width, height


def _rotate(step: MapperStep, w: int, h: int, _chain: int, _parallel: int) -> tuple[int, int]:
    if not step.param:
        return w, h
    if not _INTEGER.fullmatch(step.param):
        raise PixelMapperError(f"Rotate needs a whole number of degrees, got '{step.param}'")
    angle = int(step.param)
    if angle % 90:
        raise PixelMapperError(f"Rotate takes a multiple of 90 degrees, got {angle}")
    return (w, h) if angle % 180 == 0 else (h, w)


def _mirror(step: MapperStep, w: int, h: int, _chain: int, _parallel: int) -> tuple[int, int]:
    if step.param.upper() not in ("", "H", "V"):
        raise PixelMapperError(f"Mirror takes H or V, got '{step.param}'")
    return w, h


def _u_mapper(step: MapperStep, w: int, h: int, chain: int, parallel: int) -> tuple[int, int]:
    if chain < 2 or chain % 2:
        raise PixelMapperError(
            f"U-mapper needs an even chain_length of at least 2, got {chain}", (SETTING, CHAIN)
        )
    if h % parallel:
        raise PixelMapperError(
            f"U-mapper needs a height divisible by parallel ({h} by {parallel})",
            (SETTING, PARALLEL, ROWS),
        )
    return (w // 64) * 32, 2 * h


def _v_mapper(step: MapperStep, w: int, h: int, chain: int, parallel: int) -> tuple[int, int]:
    if step.param.upper() not in ("", "Z"):
        raise PixelMapperError(f"V-mapper takes no parameter or Z, got '{step.param}'")
    return w * parallel // chain, h * chain // parallel


def _stack_to_row(step: MapperStep, w: int, h: int, _chain: int, parallel: int) -> tuple[int, int]:
    return w * parallel, h // parallel


def _remap(step: MapperStep, w: int, h: int, chain: int, parallel: int) -> tuple[int, int]:
    size, *tiles = step.param.split("|")
    width_text, _, height_text = size.partition(",")
    if not (_INTEGER.fullmatch(width_text.strip()) and _INTEGER.fullmatch(height_text.strip())):
        raise PixelMapperError(f"Remap starts with <width>,<height>, got '{size}'")
    width, height = int(width_text), int(height_text)
    if width <= 0 or height <= 0:
        raise PixelMapperError(f"Remap needs a positive size, got {width}x{height}")
    if width * height > MAX_CANVAS_PIXELS:
        raise PixelMapperError(
            f"Remap size {width}x{height} is {width * height} px; at most "
            f"{MAX_CANVAS_PIXELS} px is supported")
    if len(tiles) != chain * parallel:
        raise PixelMapperError(
            f"Remap needs exactly chain_length x parallel = {chain * parallel} tiles, "
            f"got {len(tiles)}",
            (SETTING, CHAIN, PARALLEL),
        )
    placed = []
    for tile in tiles:
        match = _TILE.fullmatch(tile)
        if match is None:
            raise PixelMapperError(
                f"Remap tiles are written <x>,<y> and an orientation (n, s, e, w, or x to "
                f"leave the panel out); got '{tile}'")
        placed.append((int(match[1]), int(match[2]), match[3].lower()))
    panel_w, panel_h = w // chain, h // parallel
    for number, (x, y, turn) in enumerate(placed, 1):
        if turn == "x":
            continue
        tile_w, tile_h = (panel_h, panel_w) if turn in "ew" else (panel_w, panel_h)
        if x < 0 or y < 0 or x + tile_w > width or y + tile_h > height:
            raise PixelMapperError(
                f"Remap tile {number} ({x},{y}{turn}) covers {x},{y} to "
                f"{x + tile_w - 1},{y + tile_h - 1}, outside the {width}x{height} canvas",
                (SETTING, COLS, ROWS, CHAIN, PARALLEL),
            )
    return width, height


_SIZE_RULES = {
    "rotate": _rotate,
    "mirror": _mirror,
    "u-mapper": _u_mapper,
    "v-mapper": _v_mapper,
    "stacktorow": _stack_to_row,
    "remap": _remap,
}
