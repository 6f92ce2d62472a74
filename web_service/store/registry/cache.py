"""The registry's cache file ``<cache_dir>/store/registry.json`` and its parsed copy.

Written atomically (``shared.files.jsonfile``) after each refresh that reached at least one
source. The parsed copy is kept in memory per file, keyed on the file's identity (inode,
mtime, size): a second process's refresh is seen at the next read, and a cached list is
answered without parsing again.

The file is untrusted like any other: each cached entry is checked again on read
(``registry_parse.clean_entry``) and a bad one is dropped with a warning, and a file
whose frame is unusable (times, lists) counts as no cache.
"""

from __future__ import annotations

import json
import logging
import math
import os
import threading
from pathlib import Path
from typing import Any

from shared.files.jsonfile import atomic_write_json
from shared.files.regular_file import FileTooLarge, NotRegularFile, read_regular
from web_service.store.registry.parse import clean_entry

logger = logging.getLogger(__name__)

FORMAT = 1
READ_LIMIT = 32 * 1024 * 1024
MAX_TIME = 32503680000.0  # 1 January 3000

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
        logger.warning("store registry: %s is not a usable cache; it is fetched again", path)
        return None
    data["plugins"] = _clean_entries(path, data["plugins"])
    data["warnings"] = [w for w in data["warnings"] if isinstance(w, str)]
    if not isinstance(data.get("fetched_at"), str):
        data["fetched_at"] = None
    data["by_id"] = {entry["id"]: entry for entry in data["plugins"]}
    with _memory_lock:
        _memory[path] = (key, data)
    return data


def write_cache(path: Path, data: dict[str, Any]) -> None:
    """Replace the cache file with ``data`` (AtomicWriteError when it cannot)."""
    atomic_write_json(path, {"format": FORMAT, **data}, compact=True)


def _clean_entries(path: Path, raw: list[Any]) -> list[dict[str, Any]]:
    entries: list[dict[str, Any]] = []
    seen: set[str] = set()
    dropped: list[str] = []
    for item in raw:
        source = item.get("source") if isinstance(item, dict) else None
        entry, problem = clean_entry(item, source if isinstance(source, str) else "")
        if entry is not None and entry["id"] in seen:
            entry, problem = None, "repeats an earlier id"
        if entry is None:
            label = item.get("id") if isinstance(item, dict) else None
            dropped.append(f"{str(label)[:64]!r} {problem}")
            continue
        seen.add(entry["id"])
        entries.append(entry)
    if dropped:
        logger.warning("store registry: %s: %d cached entries dropped: %s", path,
                       len(dropped), "; ".join(dropped[:5]))
    return entries


def _well_formed(data: Any) -> bool:
    stamp = data.get("fetched_ts") if isinstance(data, dict) else None
    return (isinstance(data, dict) and data.get("format") == FORMAT
            and isinstance(data.get("plugins"), list)
            and isinstance(stamp, int | float) and not isinstance(stamp, bool)
            and math.isfinite(stamp) and 0 <= stamp <= MAX_TIME
            and isinstance(data.get("sources"), list)
            and isinstance(data.get("warnings"), list))
