"""Searching the apps repository's index: words, a category, pages, and the categories."""

from __future__ import annotations

from collections import Counter
from typing import Any

PER_PAGE = 50
MAX_PAGE = 10_000


def search(entries: list[dict[str, Any]], query: str, category: str) -> list[dict[str, Any]]:
    """The entries whose id, name, summary or tags hold every word of ``query`` and whose
    category is ``category`` (both ignoring case; empty matches all), by name."""
    words = query.lower().split()
    wanted = category.strip().lower()
    found = []
    for entry in entries:
        if wanted and entry.get("category") != wanted:
            continue
        haystack = " ".join([entry["id"], entry["name"], entry["summary"],
                             *entry["tags"]]).lower()
        if all(word in haystack for word in words):
            found.append(entry)
    return sorted(found, key=lambda e: (e["name"].lower(), e["id"]))


def categories(entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every category with how many apps it has, by name (apps without one left out)."""
    counts = Counter(entry["category"] for entry in entries if entry.get("category"))
    return [{"name": name, "count": count} for name, count in sorted(counts.items())]


def page_of(found: list[dict[str, Any]], page: int, installed: set[str]
            ) -> tuple[list[dict[str, Any]], int]:
    """One page of results as answered (with ``installed``), and how many pages there are."""
    pages = max(1, -(-len(found) // PER_PAGE))
    start = (page - 1) * PER_PAGE
    shown = [{key: value for key, value in entry.items() if not key.startswith("_")}
             | {"installed": entry["id"] in installed}
             for entry in found[start:start + PER_PAGE]]
    return shown, pages
