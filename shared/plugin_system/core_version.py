"""The advisory minimum-core-version check (manifest loading rule 4).

A manifest may declare the oldest core it needs. When that is newer than the
running core, the loader logs one warning per plugin and loads the plugin anyway:
the declaration is advice, never a reason to refuse.

Spellings read (values like ``3.9.0``, ``>=3.9.0``, ``^3.9`` or ``3.9.0 - 4.0.0``;
upper bounds such as ``<4.0.0`` are not minimums and are ignored):

- ``min_core_version``
- ``requires.core``, ``requires.min_core_version``, ``requires.core_min_version``,
  ``requires.ledmatrix_min``, ``requires.ledmatrix_min_version``
- in the ``versions[]`` entry whose ``version`` equals the manifest ``version``:
  ``core_min_version``, ``min_core_version``, ``ledmatrix_min``,
  ``ledmatrix_min_version``

When several are declared, the highest counts. ``max_core_version`` is not checked.

The check is skipped when the running core's own version is stale, meaning any of:
the version constant cannot be parsed, it is ``0.0.0`` (an unversioned build), or
the environment sets ``LEDPANEL_CORE_VERSION_STALE=1`` (a checkout whose version
constant is known to lag behind, e.g. a development branch).
"""

from __future__ import annotations

import logging
import os
import re
from collections.abc import Mapping
from typing import Any

from shared.version import CORE_VERSION

logger = logging.getLogger(__name__)

STALE_ENV = "LEDPANEL_CORE_VERSION_STALE"
_REQUIRES_KEYS = (
    "core",
    "min_core_version",
    "core_min_version",
    "ledmatrix_min",
    "ledmatrix_min_version",
)
_ENTRY_KEYS = ("core_min_version", "min_core_version", "ledmatrix_min", "ledmatrix_min_version")
_VERSION = re.compile(r"v?(\d+)(?:\.(\d+))?(?:\.(\d+))?")
_MINIMUM = re.compile(r"^\s*(?:>=|>|\^|~=|~|==|=)?\s*(v?\d[^\s]*)(?:\s+-\s+\S+)?\s*$")


def parse_version(text: Any) -> tuple[int, int, int] | None:
    """Return (major, minor, patch) from a version string, ignoring any suffix; else None."""
    if not isinstance(text, str):
        return None
    match = _VERSION.match(text.strip())
    if not match:
        return None
    major, minor, patch = match.groups()
    return int(major), int(minor or 0), int(patch or 0)


def minimum_of(constraint: Any) -> tuple[int, int, int] | None:
    """Return the minimum version a constraint string asks for, or None when it has none."""
    if not isinstance(constraint, str):
        return None
    match = _MINIMUM.match(constraint)
    return parse_version(match.group(1)) if match else None


def declared_minimums(manifest: dict[str, Any]) -> list[tuple[str, str]]:
    """Return ``(where, value)`` for every minimum-core-version declaration in a manifest."""
    found: list[tuple[str, str]] = []
    if isinstance(manifest.get("min_core_version"), str):
        found.append(("min_core_version", manifest["min_core_version"]))
    requires = manifest.get("requires")
    if isinstance(requires, dict):
        found += [(f"requires.{k}", requires[k]) for k in _REQUIRES_KEYS
                  if isinstance(requires.get(k), str)]
    versions = manifest.get("versions")
    if isinstance(versions, list) and isinstance(manifest.get("version"), str):
        for index, entry in enumerate(versions):
            if isinstance(entry, dict) and entry.get("version") == manifest["version"]:
                found += [(f"versions[{index}].{k}", entry[k]) for k in _ENTRY_KEYS
                          if isinstance(entry.get(k), str)]
    return found


def core_is_stale(core_version: str, env: Mapping[str, str]) -> bool:
    """Return True when the running core's version cannot be trusted for the check."""
    if env.get(STALE_ENV, "").strip().lower() in ("1", "true", "yes"):
        return True
    parsed = parse_version(core_version)
    return parsed is None or parsed == (0, 0, 0)


def check_core_version(
    manifest: dict[str, Any],
    plugin_id: str,
    core_version: str = CORE_VERSION,
    env: Mapping[str, str] | None = None,
) -> str | None:
    """Log one advisory warning when the plugin wants a newer core; return it, else None."""
    env = os.environ if env is None else env
    if core_is_stale(core_version, env):
        return None
    running = parse_version(core_version)
    assert running is not None
    newest: tuple[tuple[int, int, int], str, str] | None = None
    for where, value in declared_minimums(manifest):
        wanted = minimum_of(value)
        if wanted is not None and (newest is None or wanted > newest[0]):
            newest = (wanted, where, value)
    if newest is None or newest[0] <= running:
        return None
    message = (
        f"{plugin_id}: declares minimum core version {newest[2]} ({newest[1]}), "
        f"running core is {core_version}; loading it anyway"
    )
    logger.warning("%s", message)
    return message
