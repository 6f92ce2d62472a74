"""Read a file only when it is a regular file: never block, never follow the unexpected.

Files another process (or a person) may replace are read through ``read_regular``: a
FIFO in a file's place would block the reader for ever, a directory or a device is not
data, a symlink in a shared directory may point anywhere, and a huge file would fill
memory. Each of these raises an ``OSError`` subclass naming what was found, so callers
that already handle ``OSError`` stay correct.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

_KINDS = (
    (stat.S_ISDIR, "a directory"),
    (stat.S_ISFIFO, "a FIFO"),
    (stat.S_ISLNK, "a symlink"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
)


class NotRegularFile(OSError):
    """Something other than a regular file is where a file was expected."""

    def __init__(self, path: Path, kind: str) -> None:
        super().__init__(errno.EINVAL, f"{kind}, not a regular file", str(path))
        self.kind = kind


class NameTooLong(FileNotFoundError):
    """A path with a name longer than the filesystem allows: no such file can exist, so
    it is "not found" to every caller (the OS says ENAMETOOLONG)."""

    def __init__(self, path: Path) -> None:
        super().__init__(errno.ENAMETOOLONG, "a name in the path is too long for any file",
                         str(path))


class FileTooLarge(OSError):
    """A regular file larger than the reader accepts."""

    def __init__(self, path: Path, size: int, limit: int) -> None:
        super().__init__(errno.EFBIG, f"{size} bytes, more than the {limit} accepted",
                         str(path))
        self.size = size
        self.limit = limit


def kind_of(mode: int) -> str:
    """Return what a ``st_mode`` describes, in words ("a FIFO", "a regular file")."""
    for test, kind in _KINDS:
        if test(mode):
            return kind
    return "a regular file" if stat.S_ISREG(mode) else "not a regular file"


def read_regular(path: Path, limit: int | None = None, *, follow_symlinks: bool = True) -> bytes:
    """Return the bytes of the regular file ``path``.

    Raises FileNotFoundError when absent (NameTooLong, one, when a name in the path is
    longer than any file's can be), NotRegularFile for anything else in its place
    (a symlink too, unless ``follow_symlinks``), FileTooLarge past ``limit`` bytes, and
    OSError as it comes. The open itself cannot block: ``O_NONBLOCK`` makes a FIFO open
    return at once, and ``fstat`` of the open file decides, so a swap between a check and
    the open cannot slip anything past.
    """
    flags = os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC | (0 if follow_symlinks else os.O_NOFOLLOW)
    try:
        fd = os.open(path, flags)
    except OSError as err:
        if err.errno == errno.ENAMETOOLONG:
            raise NameTooLong(path) from err
        # ELOOP: a symlink refused by O_NOFOLLOW; ENXIO: a socket; EACCES may be either.
        if err.errno in (errno.ELOOP, errno.ENXIO, errno.EACCES):
            found = _lstat_kind(path)
            if found is not None and found != "a regular file":
                raise NotRegularFile(path, found) from err
        raise
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise NotRegularFile(path, kind_of(info.st_mode))
        if limit is not None and info.st_size > limit:
            raise FileTooLarge(path, info.st_size, limit)
        return _read_all(fd, path, limit)
    finally:
        os.close(fd)


def _read_all(fd: int, path: Path, limit: int | None) -> bytes:
    chunks: list[bytes] = []
    total = 0
    while True:  # bounded: stops at end of file or one chunk past the limit
        chunk = os.read(fd, 1 << 16)
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)
        total += len(chunk)
        if limit is not None and total > limit:  # the file grew while we read it
            raise FileTooLarge(path, total, limit)


def _lstat_kind(path: Path) -> str | None:
    try:
        return kind_of(os.lstat(path).st_mode)
    except OSError:
        return None
