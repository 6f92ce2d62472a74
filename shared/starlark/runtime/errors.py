"""AppError: why a scripted app could not load or render, in one line naming where."""

from __future__ import annotations

import re
from collections.abc import Collection

_FRAME = re.compile(r"^\s*\*\s*(\S+?):(\d+), in ")
_LOCATION = re.compile(r"^\s*-->\s*(\S+?):(\d+)(?::\d+)?")
_PY_PREFIX = re.compile(r"^(?:[A-Z][A-Za-z]*(?:Error|Exception)|AppError|WidgetError): ")


class AppError(Exception):
    """The one error an app's load, schema or render gives; its message is a single line."""


class NothingToShow(AppError):
    """``main`` returned an empty list: pixlet's way for an app to skip its turn."""


def one_line(text: str, limit: int = 300) -> str:
    """``text`` with whitespace runs folded to single spaces, cut at ``limit`` characters."""
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def _without_prefixes(line: str) -> str:
    """The problem without the ``error:`` and exception-class labels nested calls add
    (``error: StarlarkError: error: AppError: ...``)."""
    problem, before = line.strip(), ""
    while problem != before:
        before = problem
        problem = _PY_PREFIX.sub("", problem.removeprefix("error: ").strip())
    return problem


def starlark_message(text: str, internal: Collection[str] = ()) -> str:
    """The interpreter's report as ``file:line: problem`` (no traceback, no source excerpt).

    The place named is the innermost one in the app's own files: frames in ``internal``
    files (the runtime's modules) are skipped, so a widget error points at the app line.
    """
    lines = text.splitlines()
    problem, places = "", []
    for index, line in enumerate(lines):
        frame = _FRAME.match(line)
        if frame:
            places.append((frame.group(1), frame.group(2)))
        if line.startswith("error: "):
            problem = _without_prefixes(line)
            for follow in lines[index + 1:]:
                found = _LOCATION.match(follow)
                if found:
                    places.append((found.group(1), found.group(2)))
                    break
            break
    if not problem:
        problem = text.strip().splitlines()[-1] if text.strip() else "unknown error"
    own = [place for place in places if place[0] not in internal
           and not place[0].startswith(("@", "<", "/"))]
    where = f"{own[-1][0]}:{own[-1][1]}" if own else ""
    return one_line(f"{where}: {problem}" if where else problem)
