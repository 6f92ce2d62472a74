"""The font catalog: which font files exist, what kind they are, their native sizes.

A catalog is built by scanning font directories (the shipped ``assets/fonts`` first)
for ``.bdf``, ``.pcf``, ``.otb``, ``.ttf`` and ``.otf`` files. Each file is one
*family* named after its file stem in lower case (``5x7``, ``spleen-8x16``; the one
exception is ``press-start-2p`` for ``PressStart2P-Regular.ttf``). Bitmap fonts also
belong to a *collection* named after their ``FAMILY_NAME`` (``fixed``, ``spleen``),
whose strikes are told apart by pixel height. Lookups ignore case and punctuation,
so ``Press_Start`` finds the same entry as ``press-start``.

Bitmap fonts have one native pixel size: FreeType (and so Pillow's
``ImageFont.truetype``) loads them only at exactly that size.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

REPO_ROOT = Path(__file__).resolve().parents[2]
SHIPPED_FONTS_DIR = REPO_ROOT / "assets" / "fonts"

BITMAP_SUFFIXES = frozenset({".bdf", ".pcf", ".otb"})
OUTLINE_SUFFIXES = frozenset({".ttf", ".otf"})
PROBE_MAX_SIZE = 128

#: Family names for files whose stem is not a good one.
CANONICAL: dict[str, str] = {"pressstart2p-regular": "press-start-2p"}

#: Extra names for shipped families: names community plugins use, and short forms.
ALIASES: dict[str, str] = {
    "pressstart2p-regular": "press-start-2p",
    "press_start": "press-start-2p",
    "arcade": "press-start-2p",
    "four_by_six": "4x6",
    "4x6-font": "4x6",
    "five_by_seven": "5x7",
    "5by7": "5x7",
    "5by7.regular": "5x7",
}

FontKind = Literal["bitmap", "ttf"]


def normalize(name: str) -> str:
    """Return the lookup key of a family name: lower case, letters and digits only."""
    return re.sub(r"[^a-z0-9]", "", name.lower())


@dataclass(frozen=True)
class FontInfo:
    """One font file in the catalog."""

    family: str
    path: Path
    kind: FontKind
    native_size: int | None  # pixel height a bitmap font loads at; None for TTF/OTF
    collection: str  # e.g. "fixed", "spleen"; a TTF's own family name


def bdf_pixel_size(path: Path) -> int | None:
    """Return a BDF file's ``PIXEL_SIZE`` (else its ``SIZE`` point size), or None."""
    try:
        with path.open("r", encoding="latin-1") as handle:
            head = handle.read(8192)
    except OSError:
        return None
    for pattern in (r"^PIXEL_SIZE\s+(\d+)", r"^SIZE\s+(\d+)"):
        match = re.search(pattern, head, re.MULTILINE)
        if match and int(match.group(1)) > 0:
            return int(match.group(1))
    return None


def bdf_family_name(path: Path) -> str | None:
    """Return a BDF file's ``FAMILY_NAME`` property, or None."""
    try:
        with path.open("r", encoding="latin-1") as handle:
            head = handle.read(8192)
    except OSError:
        return None
    match = re.search(r'^FAMILY_NAME\s+"([^"]*)"', head, re.MULTILINE)
    return match.group(1) if match else None


def probe_native_size(path: Path) -> int | None:
    """Return the one pixel size FreeType loads a bitmap font at, by trying sizes."""
    for size in range(1, PROBE_MAX_SIZE + 1):
        try:
            from PIL import ImageFont  # only when a font is loaded: Pillow is large

            ImageFont.truetype(str(path), size)
        except OSError:
            continue
        return size
    return None


def native_size_of(path: Path) -> int | None:
    """Return the native pixel size of a bitmap font file, or None if it is not one."""
    if path.suffix.lower() not in BITMAP_SUFFIXES:
        return None
    if path.suffix.lower() == ".bdf":
        size = bdf_pixel_size(path)
        if size is not None:
            return size
    return probe_native_size(path)


def describe(path: Path, family: str | None = None) -> FontInfo | None:
    """Return the catalog entry for one font file, or None when it cannot be used."""
    suffix = path.suffix.lower()
    name = family or CANONICAL.get(path.stem.lower(), path.stem.lower())
    if suffix in BITMAP_SUFFIXES:
        size = native_size_of(path)
        if size is None:
            return None
        collection = (bdf_family_name(path) if suffix == ".bdf" else None) or name
        return FontInfo(name, path, "bitmap", size, collection.lower())
    if suffix in OUTLINE_SUFFIXES:
        try:
            from PIL import ImageFont

            own_name = ImageFont.truetype(str(path), 8).getname()[0] or name
        except OSError:
            return None
        return FontInfo(name, path, "ttf", None, own_name.lower())
    return None


def scan(directories: Iterable[Path]) -> dict[str, FontInfo]:
    """Return the fonts found in ``directories`` by family; earlier directories win."""
    found: dict[str, FontInfo] = {}
    for directory in directories:
        if not directory.is_dir():
            continue
        for path in sorted(directory.iterdir()):
            if not path.is_file():
                continue
            info = describe(path)
            if info is not None and info.family not in found:
                found[info.family] = info
    return found


def build_index(fonts: dict[str, FontInfo]) -> dict[str, str]:
    """Return lookup keys (family, alias, collection member names) to family names."""
    index: dict[str, str] = {}
    for alias, family in ALIASES.items():
        if family in fonts:
            index[normalize(alias)] = family
    for family, info in fonts.items():
        index[normalize(family)] = family
        if info.kind == "ttf":
            index.setdefault(normalize(info.collection), family)
    return index


def collections(fonts: dict[str, FontInfo]) -> dict[str, list[FontInfo]]:
    """Return bitmap strikes grouped by collection, smallest first."""
    groups: dict[str, list[FontInfo]] = {}
    for info in fonts.values():
        if info.kind == "bitmap":
            groups.setdefault(normalize(info.collection), []).append(info)
    for strikes in groups.values():
        strikes.sort(key=lambda strike: (strike.native_size or 0, strike.family))
    return groups


def pick_strike(strikes: list[FontInfo], size: int | None) -> FontInfo:
    """Return the tallest strike not taller than ``size`` (the smallest when none fits)."""
    if size is None:
        return strikes[0]
    fitting = [s for s in strikes if (s.native_size or 0) <= size]
    return fitting[-1] if fitting else strikes[0]
