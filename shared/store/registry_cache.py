"""The registry's cache file ``<cache_dir>/store/registry.json`` and its parsed copy.

Written atomically (``shared.jsonfile``) after each refresh that reached at least one
source. The parsed copy is kept in memory per file, keyed on the file's identity (inode,
mtime, size): a second process's refresh is seen at the next read, and a cached list is
answered without parsing again.
"""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path
from typing import Any

from shared.jsonfile import atomic_write_json
from shared.regular_file import FileTooLarge, NotRegularFile, read_regular

FORMAT = 1
READ_LIMIT = 32 * 1024 * 1024

_memory: dict[Path, tuple[tuple[int, int, int], dict[str, Any]]] = {}
_memory_lock = threading.Lock()


def cache_file(cache_dir: Path) -> Path:
    """Return the registry cache file of ``cache_dir``."""
    return Path(cache_dir) / "store" / "registry.json"


def read_cache(path: Path) -> dict[str, Any] | None:
    """Return the cached registry, or None when there is none usable (never raises)."""
    try:
        stat = os.stat(path)
    except OSError:
        return None
    key = (stat.st_ino, stat.st_mtime_ns, stat.st_size)
    with _memory_lock:
        held = _memory.get(path)
    if held is not None and held[0] == key:
        return held[1]
    try:
        data = json.loads(read_regular(path, READ_LIMIT).decode("utf-8"))
    except (OSError, FileTooLarge, NotRegularFile, UnicodeDecodeError, ValueError):
        return None
    if not _well_formed(data):
        return None
    data["by_id"] = {entry["id"]: entry for entry in data["plugins"]}
    with _memory_lock:
        _memory[path] = (key, data)
    return data


def write_cache(path: Path, data: dict[str, Any]) -> None:
    """Replace the cache file with ``data`` (AtomicWriteError when it cannot)."""
    atomic_write_json(path, {"format": FORMAT, **data}, compact=True)


def _well_formed(data: Any) -> bool:
    return (isinstance(data, dict) and data.get("format") == FORMAT
            and isinstance(data.get("plugins"), list)
            and all(isinstance(e, dict) and isinstance(e.get("id"), str)
                    for e in data["plugins"])
            and isinstance(data.get("fetched_ts"), int | float)
            and isinstance(data.get("sources"), list)
            and isinstance(data.get("warnings"), list))
