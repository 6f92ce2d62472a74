"""Keep the glyphs of a BDF font that an LED panel needs; how the shipped BDFs were made.

Usage: python assets/fonts/subset_bdf.py IN.bdf OUT.bdf

The Unicode (ISO10646-1) fixed-cell fonts carry several thousand glyphs; a panel
shows Latin text, punctuation, currency signs, arrows and a few symbols. The kept
ranges are ``KEEP`` below, plus the font's ``DEFAULT_CHAR``. Everything else in the
file (header, properties, bitmaps) is copied unchanged; ``CHARS`` is recounted.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

KEEP: tuple[tuple[int, int], ...] = (
    (0x0020, 0x007E),  # ASCII
    (0x00A0, 0x017F),  # Latin-1 supplement, Latin Extended-A
    (0x2010, 0x203A),  # dashes, quotes, bullet, ellipsis, per mille, guillemets
    (0x20A0, 0x20BF),  # currency signs (euro, ...)
    (0x2122, 0x2122),  # trade mark
    (0x2190, 0x21FF),  # arrows
    (0x2580, 0x25FF),  # block elements, geometric shapes (triangles, circles)
    (0x2600, 0x266F),  # miscellaneous symbols (sun, cloud, star, ...)
    (0x2713, 0x2717),  # check and cross marks
)


def _kept(code: int, default_char: int | None) -> bool:
    return code == default_char or any(lo <= code <= hi for lo, hi in KEEP)


def subset(text: str) -> str:
    """Return ``text`` (a BDF font) with only the kept glyphs."""
    head, _sep, rest = text.partition("\nCHARS ")
    _count, _nl, body = rest.partition("\n")
    match = re.search(r"^DEFAULT_CHAR (\d+)$", head, re.MULTILINE)
    default_char = int(match.group(1)) if match else None
    glyphs = re.findall(r"STARTCHAR .*?ENDCHAR\n", body, re.DOTALL)
    kept = []
    for glyph in glyphs:
        code = re.search(r"^ENCODING (-?\d+)", glyph, re.MULTILINE)
        if code and _kept(int(code.group(1)), default_char):
            kept.append(glyph)
    return f"{head}\nCHARS {len(kept)}\n" + "".join(kept) + "ENDFONT\n"


def main(argv: list[str]) -> int:
    """Subset argv[1] into argv[2]."""
    if len(argv) != 3:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    source, target = Path(argv[1]), Path(argv[2])
    target.write_text(subset(source.read_text(encoding="latin-1")), encoding="latin-1")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
