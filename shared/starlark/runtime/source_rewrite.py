"""Rewrite Go-Starlark idioms the Rust interpreter lacks into calls of the prelude, in place.

Apps are written for pixlet's Go interpreter. Three of its habits fail here, so the
source is rewritten token by token (Python's tokenizer reads Starlark's lexical
syntax), keeping every line where it was, so error messages name the app's own lines:

- ``"%5.2f" % x``: a literal format with widths, precisions or flags becomes
  ``ledpanel_percent("%5.2f", x)`` (Python's printf rules, which Go-Starlark follows).
- ``a - b``, ``a + b``, ``a * b``, ``a / b``, ``a // b`` where both operands are names,
  calls or brackets and no other arithmetic touches them become ``ledpanel_sub(a, b)``
  ..., which handle time and duration values and otherwise do the plain operation.
  Chains (``a - b - c``) and operations with a literal are left alone: they are never
  time arithmetic in practice, except a number literal times or dividing ``time.<unit>`` or
  ``time.parse_duration(...)`` (``24 * time.hour``, ``time.hour / 2``).
- ``a == b``, ``!=``, ``<``, ``<=``, ``>``, ``>=`` under the same conditions become
  ``ledpanel_eq(a, b)`` ...: two times are equal when they are the same instant (their
  bound methods differ, so the struct comparison alone says they are not, and ordering
  two equal instants would reach those methods). ``(now - t).hours > 2`` needs no
  bridge: the subtraction is bridged and the comparison is between numbers.
- ``range`` with a bound past 32 bits (Go's ints are 64-bit; apps write
  ``range(0, 10000000000)`` for "until break") is clamped to 32 bits.
- ``print`` goes to the runtime's debug log, not to the process's output.
- ``x.add(v)`` and the other set methods become ``ledpanel_m_add(x, v)``; ``set()`` is
  a dict of members (``in``, ``len``, iteration and ``sorted`` work unchanged).

The prelude's names are bound by one ``load`` put in front of the first line (after
the last line when the first opens a block).
"""

from __future__ import annotations

import io
import keyword
import re
import tokenize
from dataclasses import dataclass

PRELUDE_MODULE = "@ledpanel/prelude"
ARITHMETIC = {"+": "ledpanel_add", "-": "ledpanel_sub", "*": "ledpanel_mul",
              "/": "ledpanel_div", "//": "ledpanel_floordiv"}
COMPARISONS = {"==": "ledpanel_eq", "!=": "ledpanel_ne", "<": "ledpanel_lt",
               "<=": "ledpanel_le", ">": "ledpanel_gt", ">=": "ledpanel_ge"}
_CONSTANTS = {"None", "True", "False"}
DURATION_UNITS = {"nanosecond", "microsecond", "millisecond", "second", "minute", "hour"}
SET_METHODS = ("add", "discard", "remove", "union", "intersection", "difference",
               "issubset", "issuperset", "symmetric_difference")
_TIGHT = {"+", "-", "*", "/", "//", "%", "**", "~", ".", "@"}
_PLAIN_SPEC = re.compile(r"%[sdrxoefg%]")
_OPEN, _CLOSE = "([{", ")]}"
_SKIP = {tokenize.NL, tokenize.COMMENT, tokenize.INDENT, tokenize.DEDENT}


@dataclass(frozen=True)
class _Edit:
    row: int
    col: int
    end_col: int  # == col for an insertion
    text: str


def rewrite(source: str) -> str:
    """``source`` with the bridges applied and the prelude loaded on its first line."""
    try:
        tokens = [t for t in tokenize.generate_tokens(io.StringIO(source).readline)
                  if t.type not in _SKIP]
    except (tokenize.TokenError, IndentationError, SyntaxError):
        return source  # the interpreter will report the syntax error itself
    edits: list[_Edit] = []
    used: set[str] = set()
    for index, token in enumerate(tokens):
        if token.type == tokenize.OP and token.string == "%":
            _percent(tokens, index, edits, used)
        elif token.type == tokenize.OP and token.string in ARITHMETIC:
            _binary(tokens, index, edits, used, ARITHMETIC[token.string])
        elif token.type == tokenize.OP and token.string in COMPARISONS:
            _binary(tokens, index, edits, used, COMPARISONS[token.string])
        elif token.type == tokenize.NAME and token.string in SET_METHODS:
            _set_method(tokens, index, edits, used)
    if re.search(r"(?<![\w.])set\(", source) and not re.search(r"\bdef set\(|^set\s*=",
                                                                  source, re.M):
        used.add("set")
    if re.search(r"(?<![\w.])range\([^)]*\d{10}", source):
        used.add("range")
    if re.search(r"(?<![\w.])print\(", source) and not re.search(r"\bdef print\(", source):
        used.add("print")
    return _apply(source, edits, sorted(used))


def _percent(tokens: list[tokenize.TokenInfo], index: int, edits: list[_Edit],
             used: set[str]) -> None:
    left = index - 1
    if left < 0:
        return
    start = left
    if tokens[left].string == ")" and left >= 2 and tokens[left - 2].string == "(":
        start, left = left - 2, left - 1
    literal = tokens[left]
    if literal.type != tokenize.STRING or literal.string[:1] in "fFbB":
        return
    if "%" not in _PLAIN_SPEC.sub("", literal.string) or _before_is_tight(tokens, start):
        return
    end = _primary_end(tokens, index + 1)
    if end is None or _after_is_tight(tokens, end, allow={"+", "-"}):
        return
    _wrap(tokens, start, index, end, "ledpanel_percent", edits)
    used.add("ledpanel_percent")


def _binary(tokens: list[tokenize.TokenInfo], index: int, edits: list[_Edit],
            used: set[str], name: str) -> None:
    """``a op b`` as ``name(a, b)`` when both are names, calls or brackets standing alone."""
    if index == 0 or not _ends_operand(tokens[index - 1]):
        return
    start = _primary_start(tokens, index - 1)
    end = _primary_end(tokens, index + 1)
    if start is None or end is None:
        return
    if _before_is_tight(tokens, start) or _after_is_tight(tokens, end):
        return
    literal = _is_literal(tokens, start, index - 1) or _is_literal(tokens, index + 1, end)
    scaling = name in ("ledpanel_mul", "ledpanel_div", "ledpanel_floordiv")
    if literal and not (scaling and _scales_duration(tokens, start, index, end)):
        return
    _wrap(tokens, start, index, end, name, edits)
    used.add(name)


def _scales_duration(tokens: list[tokenize.TokenInfo], start: int, op: int, end: int) -> bool:
    """``3 * time.minute``, ``time.hour * 24``, ``2 * time.parse_duration(...)``: a number
    literal times a duration constant or parsed duration (the literal rule's exception)."""
    sides = ((start, op - 1), (op + 1, end))
    numbers = [tokens[a].type == tokenize.NUMBER and a == b for a, b in sides]
    durations = [_names_duration(tokens, a, b) for a, b in sides]
    return (numbers[0] and durations[1]) or (numbers[1] and durations[0])


def _names_duration(tokens: list[tokenize.TokenInfo], first: int, last: int) -> bool:
    names = [t.string for t in tokens[first:last + 1] if t.type == tokenize.NAME]
    return bool(names) and names[0] == "time" and (
        names[-1] in DURATION_UNITS or "parse_duration" in names)


def _set_method(tokens: list[tokenize.TokenInfo], index: int, edits: list[_Edit],
                used: set[str]) -> None:
    if index < 2 or tokens[index - 1].string != "." or index + 1 >= len(tokens):
        return
    if tokens[index + 1].string != "(" or not _ends_operand(tokens[index - 2]):
        return
    start = _primary_start(tokens, index - 2)
    if start is None:
        return
    name = f"ledpanel_m_{tokens[index].string}"
    first = tokens[start]
    dot, paren = tokens[index - 1], tokens[index + 1]
    if dot.start[0] != paren.end[0]:
        return  # ".add" split over lines: left as written
    empty = index + 2 < len(tokens) and tokens[index + 2].string == ")"
    edits.append(_Edit(first.start[0], first.start[1], first.start[1], name + "("))
    edits.append(_Edit(dot.start[0], dot.start[1], paren.end[1], "" if empty else ", "))
    used.add(name)


def _wrap(tokens: list[tokenize.TokenInfo], start: int, op: int, end: int, name: str,
          edits: list[_Edit]) -> None:
    first, operator, last = tokens[start], tokens[op], tokens[end]
    edits.append(_Edit(first.start[0], first.start[1], first.start[1], name + "("))
    edits.append(_Edit(operator.start[0], operator.start[1], operator.end[1], ","))
    edits.append(_Edit(last.end[0], last.end[1], last.end[1], ")"))


def _ends_operand(token: tokenize.TokenInfo) -> bool:
    if token.type == tokenize.NAME:
        return not keyword.iskeyword(token.string) or token.string in ("True", "False",
                                                                       "None")
    return token.type in (tokenize.NUMBER, tokenize.STRING) or token.string in _CLOSE


def _primary_start(tokens: list[tokenize.TokenInfo], last: int) -> int | None:
    """Index of the first token of the primary (atom and trailers) ending at ``last``."""
    i = last
    while i >= 0:
        token = tokens[i]
        if token.string in _CLOSE:
            found = _matching_open(tokens, i)
            if found is None:
                return None
            i, token = found, tokens[found]
        elif not _ends_operand(token):
            return None
        # a trailer continues the primary to the left: .name, (...), [...]
        if i >= 2 and tokens[i - 1].string == "." and token.type == tokenize.NAME:
            i -= 2
            continue
        if token.string in "([" and i >= 1 and _ends_operand(tokens[i - 1]) \
                and tokens[i - 1].type != tokenize.STRING:
            i -= 1
            continue
        return i
    return None


def _primary_end(tokens: list[tokenize.TokenInfo], first: int) -> int | None:
    """Index of the last token of the primary starting at ``first``."""
    if first >= len(tokens):
        return None
    token = tokens[first]
    if token.string in _OPEN:
        i = _matching_close(tokens, first)
    elif _ends_operand(token) and token.string not in _CLOSE:
        i = first
    else:
        return None
    while i is not None and i + 1 < len(tokens):
        following = tokens[i + 1]
        if following.string == "." and i + 2 < len(tokens) \
                and tokens[i + 2].type == tokenize.NAME:
            i += 2
        elif following.string in "([":
            i = _matching_close(tokens, i + 1)
        else:
            break
    return i


def _matching_open(tokens: list[tokenize.TokenInfo], close: int) -> int | None:
    depth = 0
    for i in range(close, -1, -1):
        if tokens[i].string in _CLOSE and tokens[i].type == tokenize.OP:
            depth += 1
        elif tokens[i].string in _OPEN and tokens[i].type == tokenize.OP:
            depth -= 1
            if depth == 0:
                return i
    return None


def _matching_close(tokens: list[tokenize.TokenInfo], opening: int) -> int | None:
    depth = 0
    for i in range(opening, len(tokens)):
        if tokens[i].string in _OPEN and tokens[i].type == tokenize.OP:
            depth += 1
        elif tokens[i].string in _CLOSE and tokens[i].type == tokenize.OP:
            depth -= 1
            if depth == 0:
                return i
    return None


def _before_is_tight(tokens: list[tokenize.TokenInfo], start: int) -> bool:
    return start > 0 and tokens[start - 1].string in _TIGHT


def _after_is_tight(tokens: list[tokenize.TokenInfo], end: int,
                    allow: frozenset[str] | set[str] = frozenset()) -> bool:
    if end + 1 >= len(tokens):
        return False
    following = tokens[end + 1].string
    return following in _TIGHT and following not in allow


def _is_literal(tokens: list[tokenize.TokenInfo], start: int, end: int) -> bool:
    first = tokens[start]
    if first.type in (tokenize.NUMBER, tokenize.STRING) and start == end:
        return True
    if first.string in _CONSTANTS and start == end:
        return True
    return first.string in "[{" or (first.string == "(" and end - start <= 2
                                    and tokens[start + 1].type == tokenize.NUMBER)


def _apply(source: str, edits: list[_Edit], names: list[str]) -> str:
    lines = source.splitlines(keepends=True) or [""]
    for edit in sorted(edits, key=lambda e: (e.row, e.col, e.end_col), reverse=True):
        line = lines[edit.row - 1]
        lines[edit.row - 1] = line[:edit.col] + edit.text + line[edit.end_col:]
    if names:
        quoted = ", ".join('range = "ledpanel_range"' if name == "range" else f'"{name}"'
                           for name in names)
        statement = f'load("{PRELUDE_MODULE}", {quoted})'
        if re.match(r"\s*(def|if|for|while)\b", lines[0]):
            # A compound statement cannot follow ';': load after the last line instead,
            # which keeps every line in place (functions see it when they run).
            ending = "" if lines[-1].endswith("\n") else "\n"
            lines[-1] = lines[-1] + ending + statement + "\n"
        else:
            lines[0] = f"{statement}; " + (lines[0] if lines[0].strip() else lines[0].lstrip(" \t"))
    return "".join(lines)
