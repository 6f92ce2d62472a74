"""Remembered manifest checks: a start does not import a JSON Schema validator for
manifests it has already checked.

Checking a manifest against ``manifest.schema.json`` needs ``jsonschema``, whose import
alone takes a third of the display daemon's start on a small board. The verdict of a
check depends only on the manifest's content and the schema's, so the display daemon
keeps the verdicts in ``<bus>/manifest_checks.json``, keyed by a digest of both: a
plugin whose manifest is unchanged is not checked again, a changed one is. The file is
a cache: unreadable or foreign content is ignored, and it is written only when a new
verdict was added (never while the panel is idle).
"""

from __future__ import annotations

import hashlib
import json
import logging
from pathlib import Path
from typing import Any

from shared.files.jsonfile import atomic_write_json
from shared.files.jsontext import parse_bounded

logger = logging.getLogger(__name__)

FILE_NAME = "manifest_checks.json"
FORMAT = 1
MAX_ENTRIES = 512
Problems = list[tuple[str, str]]


class ManifestMemo:
    """Verdicts by digest of (schema, manifest), loaded from and saved to one file."""

    def __init__(self, path: Path, schema_text: bytes) -> None:
        self.path = path
        self._schema = hashlib.blake2b(schema_text, digest_size=16).hexdigest()
        self._entries: dict[str, Problems] = self._load()
        self._changed = False

    def key(self, data: Any) -> str:
        text = json.dumps(data, sort_keys=True, ensure_ascii=False)
        return hashlib.blake2b(f"{self._schema}\0{text}".encode(), digest_size=16).hexdigest()

    def get(self, key: str) -> Problems | None:
        return self._entries.get(key)

    def put(self, key: str, problems: Problems) -> None:
        self._entries.pop(key, None)
        self._entries[key] = problems
        while len(self._entries) > MAX_ENTRIES:
            self._entries.pop(next(iter(self._entries)))
        self._changed = True

    def save(self) -> None:
        """Write the verdicts when one was added since the last save."""
        if not self._changed:
            return
        try:
            atomic_write_json(self.path, {"format": FORMAT, "entries": self._entries},
                              mode=0o664, compact=True)
        except OSError as err:  # a cache: the next start checks again
            logger.debug("manifest checks not saved: %s", err)
            return
        self._changed = False

    def _load(self) -> dict[str, Problems]:
        try:
            data = parse_bounded(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            return {}
        entries = data.get("entries")
        if not isinstance(entries, dict):
            return {}
        good: dict[str, Problems] = {}
        for key, problems in entries.items():
            if isinstance(problems, list) and all(
                    isinstance(p, list) and len(p) == 2 and all(isinstance(x, str) for x in p)
                    for p in problems):
                good[str(key)] = [(p[0], p[1]) for p in problems]
        return good


_active: ManifestMemo | None = None


def use(directory: Path, schema_file: Path) -> ManifestMemo:
    """Remember manifest verdicts in ``directory`` from now on (the display daemon)."""
    global _active
    _active = ManifestMemo(Path(directory) / FILE_NAME, Path(schema_file).read_bytes())
    return _active


def active() -> ManifestMemo | None:
    """Return the memo in use, None when verdicts are not remembered (the default)."""
    return _active


def save() -> None:
    """Save the memo in use, if any."""
    if _active is not None:
        _active.save()
