"""Which keys a core section may hold: the template's, plus documented legacy keys.

A core section (``display``, ``vegas_scroll``...) holds only the settings the template
names, the legacy keys in ``reserved.LEGACY_KEYS`` and, under ``OPEN_MAPS``, keys the
user names (``display_durations`` maps plugin and mode names to seconds). Anything else
is refused naming the key, with the close sibling when there is one: an unknown key is
a typing mistake or junk, and junk grows the file (and its backups) without bound.
Plugin sections are not checked here: their schemas and ``sizes`` bound them.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterator
from typing import Any

from shared.config.merge import same_json
from shared.config.reserved import LEGACY_KEYS, is_plugin_key
from shared.errors import ValidationError

# Core objects whose keys the user chooses.
OPEN_MAPS: frozenset[str] = frozenset({"display_durations"})
_MISSING = object()


def unknown_core_keys(changes: dict[str, Any], stored: dict[str, Any],
                      template: dict[str, Any]) -> Iterator[ValidationError]:
    """Yield one UNKNOWN_KEY error per key under a changed core section that is not a
    known setting; a key stored with the same value as before is left alone."""
    for key, value in changes.items():
        if is_plugin_key(key) or key.startswith("__") or not isinstance(value, dict):
            continue
        if key in OPEN_MAPS or (key in template and not isinstance(template[key], dict)):
            continue  # an object where a value or list belongs: the type rule names that
        yield from _walk(key, value, stored.get(key, _MISSING), template.get(key, _MISSING))


def _walk(name: str, value: dict[str, Any], stored: Any,
          template: Any) -> Iterator[ValidationError]:
    known = template if isinstance(template, dict) else {}
    for key, item in value.items():
        path = f"{name}.{key}"
        before = stored.get(key, _MISSING) if isinstance(stored, dict) else _MISSING
        if before is not _MISSING and same_json(before, item):
            continue
        if key not in known and path not in LEGACY_KEYS:
            yield _unknown(path, key, known)
        elif isinstance(item, dict) and path not in OPEN_MAPS:
            yield from _walk(path, item, before, known.get(key, _MISSING))


def _unknown(path: str, key: str, known: dict[str, Any]) -> ValidationError:
    close = difflib.get_close_matches(key, sorted(known), n=1, cutoff=0.75)
    parent = path.rsplit(".", 1)[0]
    hint = f"; did you mean {parent}.{close[0]}?" if close else ""
    return ValidationError(f"{path}: not a known setting{hint}", error_code="UNKNOWN_KEY",
                           details={"field": path,
                                    "suggestion": f"{parent}.{close[0]}" if close else None})
