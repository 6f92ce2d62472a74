"""The plugins' cache: list its entries (key, size, age, owner), clear one or all.

Only ``<cache_dir>/plugins/`` is read or touched (``shared.plugin_api.cache.entries``); the bus
files in the same cache directory are never listed or removed.
"""

from __future__ import annotations

from flask import Blueprint

from shared.errors import ValidationError
from shared.plugin_api.cache.entries import PluginCache
from web_service.api.requests import body_object
from web_service.envelope import Reply, ok
from web_service.services import services

bp = Blueprint("cache", __name__)


def _cache() -> PluginCache:
    return PluginCache(services().settings.paths.cache_dir)


@bp.get("/cache/list")
def list_entries() -> Reply:
    """List the plugin cache's entries with size in bytes, age in seconds and owner."""
    entries, cut = _cache().entries()
    return ok({"entries": [e.as_dict() for e in entries], "count": len(entries),
               "total_bytes": sum(e.size for e in entries), "truncated": cut})


@bp.post("/cache/clear")
def clear() -> Reply:
    """Clear one cache entry (body ``key`` or ``file``) or, with neither, every entry."""
    body = body_object()
    cache = _cache()
    key, file = body.get("key"), body.get("file")
    if key is not None and file is not None:
        raise ValidationError("send key or file, not both", error_code="INVALID_FIELD",
                              details={"field": "file"})
    if key is not None or file is not None:
        entry = cache.clear_key(key) if key is not None else cache.clear_file(file)
        return ok({"cleared": [entry.as_dict()], "count": 1, "bytes": entry.size},
                  f"cache entry {entry.key or entry.file} cleared")
    removed = cache.clear_all()
    return ok({"cleared": [e.as_dict() for e in removed], "count": len(removed),
               "bytes": sum(e.size for e in removed)}, f"{len(removed)} cache entries cleared")
