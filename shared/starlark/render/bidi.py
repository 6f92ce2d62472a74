"""Right-to-left text put in the order it is drawn, as the app format's Text does.

A simplified form of the Unicode bidirectional algorithm, enough for one line of
Hebrew or Arabic among Latin text and numbers. The line's direction is that of
its first strong character (left-to-right when there is none). Characters are
grouped into runs of one direction: letters by their own class, numbers as
left-to-right runs, and anything neutral (spaces, punctuation) between two runs
of the same direction takes that direction, else the line's. Right-to-left runs
are reversed; in a right-to-left line the runs are laid out last to first.
So ``"abc שלום def"`` is drawn ``"abc םולש def"`` and ``"שלום abc"`` is drawn
``"abc םולש"``.
"""

from __future__ import annotations

import unicodedata

_RTL = {"R", "AL", "RLE", "RLO"}
_LTR = {"L", "LRE", "LRO"}
_NUMBER = {"EN", "AN"}


def _kind(char: str) -> str:
    """'R' or 'L' for a strong character, 'N' for a digit, '' for a neutral one."""
    klass = unicodedata.bidirectional(char)
    if klass in _RTL:
        return "R"
    if klass in _LTR:
        return "L"
    return "N" if klass in _NUMBER else ""


def _resolved(kinds: list[str], base: str) -> list[str]:
    """Each character's direction, neutrals taking their neighbours' or the line's."""
    strong = ["L" if kind == "N" else kind for kind in kinds]
    result = list(strong)
    index = 0
    while index < len(strong):
        if strong[index]:
            index += 1
            continue
        end = index
        while end < len(strong) and not strong[end]:
            end += 1
        before = strong[index - 1] if index else base
        after = strong[end] if end < len(strong) else base
        fill = before if before == after else base
        result[index:end] = [fill] * (end - index)
        index = end
    return result


def visual_order(text: str) -> str:
    """``text`` in drawing order, left to right."""
    kinds = [_kind(char) for char in text]
    if "R" not in kinds:
        return text
    base = next(kind for kind in kinds if kind in ("L", "R"))
    directions = _resolved(kinds, base)
    runs: list[tuple[str, str]] = []
    for char, direction in zip(text, directions, strict=True):
        if runs and runs[-1][0] == direction:
            runs[-1] = (direction, runs[-1][1] + char)
        else:
            runs.append((direction, char))
    if base == "R":
        runs.reverse()
    return "".join(chunk[::-1] if direction == "R" else chunk for direction, chunk in runs)
