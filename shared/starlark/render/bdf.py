"""A reader for BDF bitmap fonts: glyph bitmaps, advances, boxes, ascent and descent.

Only what the app format's text drawing uses is kept: per glyph its bitmap (as
an 8-bit mask Pillow can paste), its bounding box offsets and its advance; per
font the ``FONT_ASCENT``/``FONT_DESCENT`` properties and ``DEFAULT_CHAR``. A
file is parsed once per process (``load_bdf`` is cached); a malformed file is
refused with ``BdfError`` naming the file and line.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from pathlib import Path

from PIL import Image

# The app format's fonts fall back to the space when a font names no DEFAULT_CHAR.
_FALLBACK_DEFAULT = 32


class BdfError(ValueError):
    """A BDF file that cannot be read: the message names the file and line."""


@dataclass(frozen=True)
class Glyph:
    """One character: its packed bitmap rows, box offset from the pen and advance."""

    width: int
    height: int
    x_offset: int
    y_offset: int
    advance: int
    bits: bytes

    @functools.cached_property
    def mask(self) -> Image.Image:
        """The bitmap as an ``L`` mask (0 or 255), made on first use."""
        if not (self.width and self.height):
            return Image.new("L", (self.width, self.height))
        return Image.frombytes("1", (self.width, self.height), self.bits).convert("L")


@dataclass
class BdfFont:
    """A parsed font: metrics and glyphs by code point."""

    name: str
    ascent: int
    descent: int
    default_char: int = _FALLBACK_DEFAULT
    glyphs: dict[int, Glyph] = field(default_factory=dict)

    @property
    def height(self) -> int:
        """The line height: ascent plus descent."""
        return self.ascent + self.descent

    def glyph(self, codepoint: int) -> Glyph | None:
        """The glyph for ``codepoint``, else the font's default glyph, else None."""
        found = self.glyphs.get(codepoint)
        if found is None:
            found = self.glyphs.get(self.default_char)
        return found


@dataclass
class _CharState:
    """A glyph being read: what its STARTCHAR..ENDCHAR block said so far."""

    encoding: int | None = None
    advance: int | None = None
    box: tuple[int, int, int, int] | None = None
    bits: bytes | None = None


def _ints(words: list[str], count: int, where: str) -> list[int]:
    if len(words) < count + 1:
        raise BdfError(f"{where}: {words[0]} needs {count} numbers")
    try:
        return [int(word) for word in words[1:count + 1]]
    except ValueError:
        raise BdfError(f"{where}: {words[0]} has a value that is not a number") from None


def _row_bits(hex_row: str, width: int, where: str) -> bytes:
    """One bitmap row as packed bits, most significant first, cut to the glyph's width."""
    try:
        raw = bytes.fromhex(hex_row)
    except ValueError:
        raise BdfError(f"{where}: bitmap row {hex_row[:16]!r} is not hex") from None
    needed = (width + 7) // 8
    if len(raw) < needed:
        raise BdfError(f"{where}: bitmap row is narrower than the glyph box")
    return raw[:needed]


def _bitmap(rows: list[str], width: int, source: str, first_line: int) -> bytes:
    """The packed bits of a glyph's bitmap ``rows`` (file lines from ``first_line``)."""
    joined = "".join(rows)
    if len(joined) == (width + 7) // 8 * 2 * len(rows):
        try:
            return bytes.fromhex(joined)  # the usual case: every row exactly wide enough
        except ValueError:
            pass
    return b"".join(_row_bits(row.strip(), width, f"{source} line {first_line + index}")
                    for index, row in enumerate(rows))


def _finish_glyph(state: _CharState, where: str) -> tuple[int, Glyph] | None:
    if state.box is None or state.advance is None:
        raise BdfError(f"{where}: glyph without BBX or DWIDTH")
    if state.encoding is None or state.encoding < 0:
        return None  # unencoded glyphs (ENCODING -1) cannot be asked for by text
    width, height, x_off, y_off = state.box
    bits = state.bits or b""
    rows = len(bits) // ((width + 7) // 8) if width else height
    if rows != height:
        raise BdfError(f"{where}: glyph has {rows} bitmap rows, its box says {height}")
    return state.encoding, Glyph(width, height, x_off, y_off, state.advance, bits)


def _read_property(font: BdfFont, words: list[str], where: str) -> None:
    key = words[0]
    if key == "FONT_ASCENT":
        font.ascent = _ints(words, 1, where)[0]
    elif key == "FONT_DESCENT":
        font.descent = _ints(words, 1, where)[0]
    elif key == "DEFAULT_CHAR":
        font.default_char = _ints(words, 1, where)[0]


def _read_char_line(state: _CharState, words: list[str], where: str) -> None:
    key = words[0]
    if key == "ENCODING":
        state.encoding = _ints(words, 1, where)[0]
    elif key == "DWIDTH":
        state.advance = _ints(words, 2, where)[0]
    elif key == "BBX":
        width, height, x_off, y_off = _ints(words, 4, where)
        if width < 0 or height < 0:
            raise BdfError(f"{where}: BBX has a negative size")
        state.box = (width, height, x_off, y_off)


def parse_bdf(text: str, source: str) -> BdfFont:
    """Parse BDF ``text``; ``source`` names it in errors."""
    lines = text.splitlines()
    if not lines or not lines[0].startswith("STARTFONT"):
        raise BdfError(f"{source}: not a BDF font (no STARTFONT line)")
    font = BdfFont(name=Path(source).stem, ascent=-1, descent=-1)
    state: _CharState | None = None
    index = 0
    while index < len(lines):
        words = lines[index].split()
        where = f"{source} line {index + 1}"
        if not words:
            pass
        elif state is None:
            if words[0] == "STARTCHAR":
                state = _CharState()
            else:
                _read_property(font, words, where)
        elif words[0] == "ENDCHAR":
            finished = _finish_glyph(state, where)
            if finished is not None:
                font.glyphs[finished[0]] = finished[1]
            state = None
        elif words[0] == "BITMAP":
            if state.box is None:
                raise BdfError(f"{where}: glyph without BBX or DWIDTH")
            width, height = state.box[:2]
            end = _bitmap_end(lines, index + 1, height, source)
            state.bits = _bitmap(lines[index + 1:end], width, source, index + 2)
            index = end - 1
        else:
            _read_char_line(state, words, where)
        index += 1
    return _checked(font, state, source)


def _bitmap_end(lines: list[str], start: int, height: int, source: str) -> int:
    """The index of the ENDCHAR line closing a bitmap of ``height`` rows from ``start``."""
    end = start + height
    if end < len(lines) and lines[end].startswith("ENDCHAR"):
        return end
    for index in range(start, len(lines)):
        if lines[index].startswith("ENDCHAR"):
            raise BdfError(f"{source} line {index + 1}: glyph has {index - start} bitmap "
                           f"rows, its box says {height}")
    raise BdfError(f"{source}: ends inside a glyph (no ENDCHAR)")


def _checked(font: BdfFont, open_char: _CharState | None, source: str) -> BdfFont:
    if open_char is not None:
        raise BdfError(f"{source}: ends inside a glyph (no ENDCHAR)")
    if font.ascent < 0 or font.descent < 0:
        raise BdfError(f"{source}: no FONT_ASCENT and FONT_DESCENT properties")
    if not font.glyphs:
        raise BdfError(f"{source}: has no glyphs")
    return font


@functools.cache
def load_bdf(path: Path) -> BdfFont:
    """Read and parse the BDF file at ``path``, once per process."""
    try:
        text = path.read_text(encoding="latin-1")
    except OSError as err:
        raise BdfError(f"{path.name}: cannot be read: {err.strerror}") from err
    return parse_bdf(text, path.name)
