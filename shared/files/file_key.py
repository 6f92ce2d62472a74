"""When a value parsed from a file may be reused: the file's identity, and when it settled.

Every cache of what a file holds (config.json's snapshot, bus files read by the web,
the sign-in settings) keys it on ``file_key``: device, inode, size, modification and
change time. Our writers replace files atomically, so each write gives a new inode and
a new ctime. A file changed in the last ``RACY_WINDOW_NS`` could still be rewritten
within one timestamp tick without any of those changing (an inode number can be
reused at once), so ``settled`` says when a cached copy may be trusted at all.
"""

from __future__ import annotations

import os
import time

# Coarser than any file system's timestamp granularity we run on (FAT's is 2 s).
RACY_WINDOW_NS = 2_000_000_000

FileKey = tuple[int, int, int, int, int]


def file_key(info: os.stat_result) -> FileKey:
    """Return what tells two versions of a file apart without reading it."""
    return (info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns, info.st_ctime_ns)


def settled(info: os.stat_result, now_ns: int | None = None) -> bool:
    """Return whether the file last changed long enough ago for ``file_key`` to hold."""
    now = time.time_ns() if now_ns is None else now_ns
    return now - max(info.st_mtime_ns, info.st_ctime_ns) >= RACY_WINDOW_NS
