"""Search the registry's entries and mark the installed ones.

``query`` is split into words; an entry matches when every word occurs, ignoring case,
in its id, name, description, author, category or one of its tags. ``category`` keeps
only entries of that category (ignoring case). Each result is a copy carrying
``installed`` and ``installed_version`` (from the installed plugins' manifests).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

SEARCHED = ("id", "name", "description", "author", "category")
MAX_QUERY = 200


def _haystack(entry: Mapping[str, Any]) -> str:
    texts = [str(entry.get(key) or "") for key in SEARCHED]
    tags = entry.get("tags")
    texts += [tag for tag in tags if isinstance(tag, str)] if isinstance(tags, list) else []
    return "\n".join(texts).casefold()


def search(entries: Iterable[Mapping[str, Any]], query: str = "", category: str = "",
           installed: Mapping[str, str | None] | None = None) -> list[dict[str, Any]]:
    """Return the entries matching ``query`` and ``category``, with installed flags."""
    words = query[:MAX_QUERY].casefold().split()
    wanted = category.strip().casefold()
    installed = installed or {}
    found = []
    for entry in entries:
        if wanted and str(entry.get("category") or "").casefold() != wanted:
            continue
        if words:
            haystack = _haystack(entry)
            if not all(word in haystack for word in words):
                continue
        plugin_id = entry.get("id")
        found.append({**entry, "installed": plugin_id in installed,
                      "installed_version": installed.get(str(plugin_id))})
    return found


def categories(entries: Iterable[Mapping[str, Any]]) -> list[str]:
    """Return the entries' categories, sorted, each once."""
    return sorted({entry["category"] for entry in entries
                   if isinstance(entry.get("category"), str) and entry["category"]},
                  key=str.casefold)
