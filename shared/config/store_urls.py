"""Rules for the plugin store's settings: the registry and repository API URLs, and the
sources the user added (``plugin_system.store_sources``).

Every save path checks them through ``values.RULES``; the store's sources routes call
the same functions before they save.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

MAX_URL_LENGTH = 500
MAX_SOURCES = 20
SOURCE_KINDS = ("registry", "repository")


def url_problem(value: Any) -> str | None:
    """Return what is wrong with ``value`` as a store URL, or None when it is usable."""
    if not isinstance(value, str) or not value:
        return "must be an http:// or https:// URL"
    if len(value) > MAX_URL_LENGTH:
        return f"must be at most {MAX_URL_LENGTH} characters"
    if any(ch.isspace() or ord(ch) < 32 for ch in value):
        return "must not contain spaces or control characters"
    try:
        parts = urlsplit(value)
        parts.port  # noqa: B018 (raises ValueError for a port out of range)
    except ValueError:
        return "is not a usable URL"
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return "must be an http:// or https:// URL with a host name"
    if parts.username or parts.password:
        return "must not carry a user name or password"
    return None


def source_problem(value: Any) -> str | None:
    """Return what is wrong with one ``store_sources`` item, or None."""
    if not isinstance(value, dict):
        return 'must be an object {"kind": "registry" | "repository", "url": ...}'
    extra = sorted(set(value) - {"kind", "url"})
    if extra:
        return f"has unknown key {extra[0]!r} (only kind and url)"
    if value.get("kind") not in SOURCE_KINDS:
        return f"kind must be one of {', '.join(SOURCE_KINDS)}"
    problem = url_problem(value.get("url"))
    return None if problem is None else f"url {problem}"


def sources_problem(value: Any) -> str | None:
    """Return what is wrong with a whole ``store_sources`` list, or None."""
    if not isinstance(value, list):
        return "must be a list of sources"
    if len(value) > MAX_SOURCES:
        return f"may hold at most {MAX_SOURCES} sources"
    seen: set[str] = set()
    for index, item in enumerate(value):
        problem = source_problem(item)
        if problem is None and item["url"] in seen:
            problem = "repeats a URL listed before"
        if problem is not None:
            return f"item {index} {problem}"
        seen.add(item["url"])
    return None
