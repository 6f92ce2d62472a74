"""Turn untrusted registry text into entries, tolerantly: one broken entry is skipped
with a warning naming it, never the whole list lost.

An entry must be an object with a plain ``id`` (``ids.is_plain_segment``, at most
``MAX_ID`` characters) and an http(s) ``repo``; ``name``, when present, must be text.
Every known field is type-checked and text is capped; a field of the wrong type gets its
default (``tags`` -> ``[]``, ``verified`` -> false, counts -> 0). Unknown keys are kept
when they hold plain JSON values of bounded size. A single plugin's repository becomes
an entry through ``entry_from_manifest``.
"""

from __future__ import annotations

import json
from typing import Any

from shared.config.store_urls import url_problem
from shared.files.jsontext import parse_strict
from shared.ids import is_plain_segment

MAX_ID = 64
MAX_ENTRIES = 5000
MAX_TAGS = 30
MAX_WARNINGS = 50
TEXT_CAPS = {"name": 200, "description": 2000, "author": 200, "category": 100,
             "branch": 200, "plugin_path": 300, "latest_version": 50, "last_updated": 50,
             "screenshot": 500, "class_name": 200}
TAG_CAP = 50
EXTRA_CAP = 4096  # serialized size of one unknown key's value
REQUIRED_MANIFEST_KEYS = ("id", "name", "class_name", "display_modes")


class RegistryFormatError(ValueError):
    """A registry body that is not ``{"plugins": [...]}`` JSON."""


def parse_registry(body: bytes, source_url: str) -> tuple[list[dict[str, Any]], list[str]]:
    """Return ``(entries, warnings)`` of a registry index; raise RegistryFormatError."""
    try:
        data = parse_strict(body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as err:  # JSONDecodeError is a ValueError
        raise RegistryFormatError(f"{source_url} is not JSON text: {err}") from err
    plugins = data.get("plugins") if isinstance(data, dict) else None
    if not isinstance(plugins, list):
        raise RegistryFormatError(f'{source_url} is not a registry ({{"plugins": [...]}})')
    warnings: list[str] = []
    entries: list[dict[str, Any]] = []
    seen: set[str] = set()
    if len(plugins) > MAX_ENTRIES:
        warnings.append(f"{source_url}: only the first {MAX_ENTRIES} of {len(plugins)} "
                        "entries are read")
    for index, raw in enumerate(plugins[:MAX_ENTRIES]):
        entry, problem = clean_entry(raw, source_url)
        if entry is not None and entry["id"] in seen:
            problem, entry = f"id {entry['id']!r} repeats an earlier entry", None
        if entry is None:
            _warn(warnings, f"{source_url}: entry {index} {_label(raw)} skipped: {problem}")
            continue
        seen.add(entry["id"])
        entries.append(entry)
    return entries, warnings


def clean_entry(raw: Any, source_url: str) -> tuple[dict[str, Any] | None, str]:
    """Return ``(entry, "")`` for a usable entry, or ``(None, what is wrong)``."""
    problem = _refusal(raw)
    if problem:
        return None, problem
    entry = _unknown_keys(raw)
    _cap_text(entry, raw)
    entry["id"] = raw["id"]
    entry["name"] = entry["name"] or raw["id"]
    entry["branch"] = entry.get("branch") or "main"
    entry["plugin_path"] = raw.get("plugin_path", "").strip("/")
    entry.update(_typed_fields(raw))
    entry["source"] = source_url
    return entry, ""


def _refusal(raw: Any) -> str:
    """Return why an entry cannot be used at all, or "" when it can."""
    if not isinstance(raw, dict):
        return "is not an object"
    plugin_id = raw.get("id")
    if not isinstance(plugin_id, str) or len(plugin_id) > MAX_ID or \
            not is_plain_segment(plugin_id):
        return "has no usable id (a plain name of at most 64 characters)"
    if "name" in raw and not isinstance(raw["name"], str):
        return "name is not text"
    if url_problem(raw.get("repo")) is not None:
        return "repo is not an http(s) URL"
    path = raw.get("plugin_path", "")
    if not isinstance(path, str) or not _plain_path(path):
        return "plugin_path is not a relative folder path"
    return ""


def _unknown_keys(raw: dict[str, Any]) -> dict[str, Any]:
    """Return the keys of ``raw`` kept as they are: short names with small plain values.

    Known keys are among them too; ``clean_entry`` sets those again from their checks.
    """
    return {key: value for key, value in raw.items()
            if isinstance(key, str) and key not in TEXT_CAPS and len(key) <= 100
            and _small(value)}


def _cap_text(entry: dict[str, Any], raw: dict[str, Any]) -> None:
    """Set each known text field, capped; a missing or non-text one is blank or absent."""
    for key, cap in TEXT_CAPS.items():
        value = raw.get(key)
        if isinstance(value, str):
            entry[key] = value[:cap]
        elif key in ("name", "description", "author", "category", "plugin_path"):
            entry[key] = ""
        else:
            entry.pop(key, None)


def _typed_fields(raw: dict[str, Any]) -> dict[str, Any]:
    """Return the tags, flags, counts and versions; a value of the wrong type is the default."""
    tags = raw.get("tags")
    versions = raw.get("versions")
    fields: dict[str, Any] = {
        "tags": [t[:TAG_CAP] for t in tags if isinstance(t, str)][:MAX_TAGS]
        if isinstance(tags, list) else [],
        "verified": raw.get("verified") is True,
    }
    for key in ("stars", "downloads"):
        value = raw.get(key)
        fields[key] = value if isinstance(value, int) and not isinstance(value, bool) \
            and 0 <= value < 10**12 else 0
    fields["versions"] = [v for v in versions if isinstance(v, dict)][:100] \
        if isinstance(versions, list) else []
    return fields


def entry_from_manifest(body: bytes, repo: str, branch: str, source_url: str,
                        plugin_path: str = "") -> dict[str, Any]:
    """Return the entry of a single plugin's repository from its ``manifest.json``;
    raise RegistryFormatError naming what is missing."""
    try:
        manifest = parse_strict(body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as err:
        raise RegistryFormatError(f"{source_url}: manifest.json is not JSON: {err}") from err
    if not isinstance(manifest, dict):
        raise RegistryFormatError(f"{source_url}: manifest.json is not an object")
    missing = [key for key in REQUIRED_MANIFEST_KEYS if not manifest.get(key)]
    if missing:
        raise RegistryFormatError(f"{source_url}: manifest.json lacks {', '.join(missing)}")
    raw = {key: manifest.get(key) for key in ("id", "name", "description", "author",
                                              "category", "tags", "class_name",
                                              "display_modes")}
    raw.update({"repo": repo, "branch": branch, "plugin_path": plugin_path,
                "latest_version": manifest.get("version"), "verified": False})
    entry, problem = clean_entry(raw, source_url)
    if entry is None:
        raise RegistryFormatError(f"{source_url}: manifest.json {problem}")
    return entry


def _plain_path(path: str) -> bool:
    if path.startswith("/") or "\\" in path or "\x00" in path or len(path) > 300:
        return False
    return all(part not in ("", ".", "..") for part in path.strip("/").split("/")) \
        if path.strip("/") else True


def _small(value: Any) -> bool:
    try:
        return len(json.dumps(value)) <= EXTRA_CAP
    except (TypeError, ValueError):
        return False


def _label(raw: Any) -> str:
    plugin_id = raw.get("id") if isinstance(raw, dict) else None
    return f"({str(plugin_id)[:MAX_ID]!r})" if plugin_id is not None else "(no id)"


def _warn(warnings: list[str], message: str) -> None:
    if len(warnings) < MAX_WARNINGS:
        warnings.append(message)
    elif len(warnings) == MAX_WARNINGS:
        warnings.append("more entries were skipped (not listed)")
