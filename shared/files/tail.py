"""Read the end of a file another process appends to: whole lines only, bounded, no surprises.

The history and log files live in the shared cache directory, where a symlink, a FIFO
or a huge file may stand in a file's place. ``read_tail`` opens without following a
symlink and without blocking, refuses what is not a regular file, and reads at most
``limit`` bytes from the end; when it starts inside the file, the partial first line
is dropped, and a last line without its newline (a writer in the middle of a write, or
one killed there) is left for the next read.
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass
from pathlib import Path

from shared.files.regular_file import NotRegularFile, kind_of


@dataclass(frozen=True)
class Tail:
    """Whole lines from the end of a file, and where they sit in it."""

    lines: list[bytes]
    start: int  # byte offset of the first line
    end: int  # byte offset just past the last whole line
    inode: int
    whole: bool  # the lines start at the beginning of the file


def open_regular(path: Path) -> int:
    """Open ``path`` for reading and return the descriptor; raise OSError when it is absent,
    a symlink or anything but a regular file (NotRegularFile)."""
    flags = os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC | os.O_NOFOLLOW
    try:
        fd = os.open(path, flags)
    except OSError as err:
        try:
            found = kind_of(os.lstat(path).st_mode)
        except OSError:
            raise err from None
        if found != "a regular file":
            raise NotRegularFile(path, found) from err
        raise
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode):
        os.close(fd)
        raise NotRegularFile(path, kind_of(info.st_mode))
    return fd


def read_tail(path: Path, limit: int, start: int | None = None) -> Tail:
    """Return the whole lines of the last ``limit`` bytes of ``path`` (from ``start`` when
    given and still inside the file). Raises OSError as ``open_regular`` does."""
    fd = open_regular(path)
    try:
        info = os.fstat(fd)
        size = info.st_size
        begin = max(0, size - limit)
        if start is not None and 0 <= start <= size:
            begin = max(begin, start)
        data = os.pread(fd, max(0, size - begin), begin) if size > begin else b""
    finally:
        os.close(fd)
    first = 0
    if begin > 0 and begin != start:  # a cut inside a line: drop its rest
        newline = data.find(b"\n")
        first = newline + 1 if newline >= 0 else len(data)
    last = data.rfind(b"\n") + 1
    body = data[first:last] if last > first else b""
    return Tail(body.splitlines(), begin + first, begin + max(first, last), info.st_ino,
                begin + first == 0)


@dataclass(frozen=True)
class Chunk:
    """Whole lines read forward from an offset."""

    lines: list[bytes]
    start: int
    end: int  # byte offset just past the last line returned
    size: int  # of the file when read
    inode: int


def read_from(path: Path, offset: int, limit: int) -> Chunk:
    """Return the whole lines from ``offset``, at most ``limit`` bytes of them (a longer
    line is cut there, so a reader never stalls on it). An offset past the end (the file
    was truncated) returns no lines and ``size`` says so. Raises OSError as
    ``open_regular`` does."""
    fd = open_regular(path)
    try:
        info = os.fstat(fd)
        data = os.pread(fd, limit, offset) if 0 <= offset < info.st_size else b""
    finally:
        os.close(fd)
    last = data.rfind(b"\n") + 1
    if last == 0 and len(data) >= limit:
        last = len(data)
    return Chunk(data[:last].splitlines(), offset, offset + last, info.st_size, info.st_ino)
