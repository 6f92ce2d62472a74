"""The built-in notification icons: small pixel art drawn from character grids.

Each icon is 8x8: one string per row, one character per pixel, ``.`` unlit
(transparent), any other character a colour from ``PALETTE``. ``builtin_icon(name)``
returns it as an RGBA Pillow image (None for an unknown name); ``BUILTIN_NAMES`` lists
the names the notification fields accept.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # Pillow is loaded on first drawing: the web's start checks bodies only
    from PIL import Image

PALETTE: dict[str, tuple[int, int, int]] = {
    "Y": (255, 200, 0),
    "W": (255, 255, 255),
    "R": (230, 30, 30),
    "G": (40, 210, 60),
    "B": (40, 110, 255),
    "K": (150, 85, 35),
    "O": (255, 130, 0),
}

_GRIDS: dict[str, tuple[str, ...]] = {
    "bell": (
        "...YY...",
        "..YYYY..",
        ".YYYYYY.",
        ".YYYYYY.",
        ".YYYYYY.",
        "YYYYYYYY",
        "........",
        "...YY...",
    ),
    "door": (
        ".KKKKKK.",
        ".KKKKKK.",
        ".KKKKKK.",
        ".KKKKYK.",
        ".KKKKKK.",
        ".KKKKKK.",
        ".KKKKKK.",
        ".KKKKKK.",
    ),
    "info": (
        "..BBBB..",
        ".BBWWBB.",
        "BBBBBBBB",
        "BBBWWBBB",
        "BBBWWBBB",
        "BBBWWBBB",
        ".BBWWBB.",
        "..BBBB..",
    ),
    "warning": (
        "...YY...",
        "...YY...",
        "..Y..Y..",
        "..Y..Y..",
        ".YY..YY.",
        ".YYYYYY.",
        "YYY..YYY",
        "YYYYYYYY",
    ),
    "check": (
        "........",
        ".......G",
        "......GG",
        ".....GG.",
        "G...GG..",
        "GG.GG...",
        ".GGG....",
        "..G.....",
    ),
    "mail": (
        "........",
        "WWWWWWWW",
        "WW....WW",
        "W.W..W.W",
        "W..WW..W",
        "W......W",
        "WWWWWWWW",
        "........",
    ),
    "alarm": (
        "RR....RR",
        "R.WWWW.R",
        ".W..O.W.",
        ".W..O.W.",
        ".W..OOW.",
        ".W....W.",
        "..WWWW..",
        ".W....W.",
    ),
}

BUILTIN_NAMES: tuple[str, ...] = tuple(sorted(_GRIDS))


def _image(grid: tuple[str, ...]) -> Image.Image:
    """Return the RGBA image of a character grid (unknown characters stay unlit)."""
    from PIL import Image

    image = Image.new("RGBA", (len(grid[0]), len(grid)), (0, 0, 0, 0))
    for y, row in enumerate(grid):
        for x, char in enumerate(row):
            color = PALETTE.get(char)
            if color is not None:
                image.putpixel((x, y), (*color, 255))
    return image


@lru_cache(maxsize=len(_GRIDS))
def _cached(name: str) -> Image.Image:
    return _image(_GRIDS[name])


def builtin_icon(name: str) -> Image.Image | None:
    """Return a copy of the built-in icon ``name`` as an RGBA image, else None."""
    if name not in _GRIDS:
        return None
    return _cached(name).copy()
