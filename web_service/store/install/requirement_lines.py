"""Read a plugin's requirements.txt into plain requirements, refusing anything else.

Only ``name[extras] specifiers ; marker`` lines pass (comments, blank lines and ``\\``
continuations as pip reads them). Refused before pip runs, with the line number and the
reason (``UNSAFE_REQUIREMENTS``): pip options (``-r``, ``-c``, ``-e``, ``--index-url``,
``--find-links``, ``--no-index``, ``--trusted-host``, any ``-``/``--`` word), which would
make pip read files or indexes outside the plugin; direct URLs (``pkg @ https://...``, a
bare URL, ``git+...``); file paths and archives (``./x.whl``, ``/abs``, ``../``). No file
but the plugin's own requirements.txt is ever opened, so no message can hold another
file's content. The accepted requirements are handed to pip as arguments, never the file
(pip would expand ``${VAR}`` in it and follow its own options).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from packaging.requirements import InvalidRequirement, Requirement

from web_service.store.errors import StoreError

MAX_BYTES = 64 * 1024
MAX_REQUIREMENTS = 200
_COMMENT = re.compile(r"(^|\s+)#.*$")
_OPTION = re.compile(r"^--?[A-Za-z0-9][\w-]*")
_ARCHIVE_SUFFIXES = (".whl", ".zip", ".tar.gz", ".tgz", ".tar.bz2", ".tar.xz", ".tar")


@dataclass(frozen=True)
class RequirementLine:
    """One accepted requirement and the (first) line of the file it was read from."""

    number: int
    requirement: Requirement


def read_requirements(plugin_id: str, file: Path) -> list[RequirementLine]:
    """Return the requirements of ``file``; raise StoreError(UNSAFE_REQUIREMENTS) naming
    the first line that is not a plain requirement, and why."""
    try:
        with open(file, "rb") as handle:
            data = handle.read(MAX_BYTES + 1)
    except OSError as err:
        raise _refused(plugin_id, f"cannot be read ({err.strerror or err})") from None
    if len(data) > MAX_BYTES:
        raise _refused(plugin_id, f"is larger than {MAX_BYTES // 1024} KiB")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise _refused(plugin_id, "is not UTF-8 text") from None
    accepted = [RequirementLine(number, _parse(plugin_id, number, line))
                for number, line in logical_lines(text)]
    if len(accepted) > MAX_REQUIREMENTS:
        raise _refused(plugin_id, f"lists more than {MAX_REQUIREMENTS} requirements")
    return accepted


def logical_lines(text: str) -> list[tuple[int, str]]:
    """Return ``(first line number, text)`` of each non-empty line, comments removed and
    lines ending in a backslash joined to the next, as pip reads them."""
    found: list[tuple[int, str]] = []
    pending: list[str] = []
    start = 0
    for number, raw in enumerate(text.splitlines(), start=1):
        if not pending:
            start = number
        if raw.endswith("\\") and not _COMMENT.search(raw):
            pending.append(raw[:-1])
            continue
        line = _COMMENT.sub("", "".join([*pending, raw])).strip()
        pending = []
        if line:
            found.append((start, line))
    if pending and (line := "".join(pending).strip()):
        found.append((start, line))
    return found


def _parse(plugin_id: str, number: int, line: str) -> Requirement:
    where = f"line {number}"
    if line.startswith("-"):
        option = _OPTION.match(line)
        name = option.group(0) if option else "-"
        raise _refused(plugin_id, f"{where}: pip options such as {name} are not accepted; "
                       "list only package names and versions (e.g. requests>=2.28)")
    if _looks_like_url(line):
        raise _refused(plugin_id, f"{where}: a URL is not accepted; name the package and "
                       "its version so it comes from the package index")
    if _looks_like_path(line):
        raise _refused(plugin_id, f"{where}: a file path is not accepted; name the package "
                       "and its version so it comes from the package index")
    try:
        requirement = Requirement(line)
    except InvalidRequirement:
        raise _refused(plugin_id, f"{where}: not a package requirement; write a name and "
                       "optionally a version (e.g. requests>=2.28)") from None
    if requirement.url:
        raise _refused(plugin_id, f"{where}: a direct URL (name @ URL) is not accepted; name "
                       "the package and its version so it comes from the package index")
    return requirement


def _looks_like_url(line: str) -> bool:
    return "://" in line or bool(re.match(r"^(git|hg|svn|bzr)\+", line, re.IGNORECASE)) \
        or bool(re.match(r"^[A-Za-z][\w+.-]*:(?!=)", line))


def _looks_like_path(line: str) -> bool:
    first = line.split(";", 1)[0].strip()
    return first.startswith((".", "/", "~", "\\")) or "/" in first or "\\" in first \
        or first.lower().endswith(_ARCHIVE_SUFFIXES)


def _refused(plugin_id: str, why: str) -> StoreError:
    return StoreError(f"{plugin_id}: requirements.txt {why}", "UNSAFE_REQUIREMENTS")
