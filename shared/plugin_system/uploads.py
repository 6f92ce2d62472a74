"""Images users upload for a plugin: ``<assets>/plugins/<plugin_id>/uploads/``.

The only code that writes or removes there. A file's type is decided by its first
bytes, never by its name; the stored name is made from the original one (plain
characters, the sniffed type's extension, never a leading dot) and made unique. Each
upload's metadata is kept in the directory's ``.index.json``. Nothing is written or
removed through a symlink: the plugin's folders must be real directories and a name
must be one plain segment that is a regular file there.
"""

from __future__ import annotations

import json
import math
import os
import re
import secrets
import stat
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from shared.errors import NotFoundError, ValidationError
from shared.files.jsonfile import atomic_write_bytes, atomic_write_text
from shared.files.jsontext import parse_bounded
from shared.files.regular_file import read_regular
from shared.ids import is_plain_segment, require_plain_segment
from shared.upload_budget import check_room

MAX_FILE_BYTES = 1024 * 1024  # per file; a request body is at most 2 MB in all
INDEX_FILE = ".index.json"
_INDEX_LIMIT = 4 * 1024 * 1024
_NAME_CHARS = re.compile(r"[^A-Za-z0-9._-]+")
_lock = threading.Lock()  # one web process writes; saves of the index do not interleave

# (content type, extension, test on the first bytes)
_TYPES = (
    ("image/png", ".png", lambda b: b.startswith(b"\x89PNG\r\n\x1a\n")),
    ("image/jpeg", ".jpg", lambda b: b.startswith(b"\xff\xd8\xff")),
    ("image/gif", ".gif", lambda b: b[:6] in (b"GIF87a", b"GIF89a")),
    ("image/bmp", ".bmp", lambda b: b.startswith(b"BM") and len(b) > 26),
    ("image/webp", ".webp", lambda b: b[:4] == b"RIFF" and b[8:12] == b"WEBP"),
)


def sniff_image(data: bytes) -> tuple[str, str] | None:
    """Return ``(content type, extension)`` of PNG, JPEG, GIF, BMP or WebP bytes, else None."""
    for content_type, extension, test in _TYPES:
        if test(data):
            return content_type, extension
    return None


def stored_name(original: str, extension: str) -> str:
    """Return a safe file name for ``original``: plain characters, ``extension``, no dot first."""
    base = re.split(r"[\\/]", original)[-1]
    stem = _NAME_CHARS.sub("_", base.rsplit(".", 1)[0] if "." in base else base)
    stem = stem.lstrip("._-")[:80] or "upload"
    return f"{stem}{extension}"


class PluginUploads:
    """One plugin's uploads directory under the assets root."""

    def __init__(self, assets_dir: Path, plugin_id: str) -> None:
        self.plugin_id = require_plain_segment(plugin_id)
        self.assets_dir = assets_dir
        self.directory = assets_dir / "plugins" / plugin_id / "uploads"
        self.relative = f"assets/plugins/{plugin_id}/uploads"

    def list(self) -> list[dict[str, Any]]:
        """Return the metadata of every stored upload, oldest first."""
        self._check_dirs(create=False)
        entries = self._index()
        return [entries[name] for name in sorted(entries, key=lambda n: entries[n]["uploaded_at"])
                if self._is_regular(name)]

    def check(self, original: str, data: bytes) -> tuple[str, str]:
        """Return the sniffed ``(content type, extension)``; bad size or type: ValidationError."""
        if len(data) > MAX_FILE_BYTES:
            raise ValidationError(f"{original[:80]!r} is {len(data)} bytes; at most "
                                  f"{MAX_FILE_BYTES} per file", error_code="FILE_TOO_LARGE",
                                  status=413,
                                  details={"file": original[:200], "limit": MAX_FILE_BYTES})
        kind = sniff_image(data)
        if kind is None:
            raise ValidationError(f"{original[:80]!r} is not a PNG, JPEG, GIF, BMP or WebP "
                                  "image", error_code="UNSUPPORTED_FILE_TYPE",
                                  details={"file": original[:200]})
        return kind

    def add_all(self, files: Sequence[tuple[str, bytes, str | None]]
                ) -> Sequence[dict[str, Any]]:
        """Store ``(original name, data, declared type)`` files, all or none past the
        upload limits (``shared.upload_budget``); return their metadata."""
        for original, data, _ in files:  # all are checked before any is stored
            self.check(original, data)
        with _lock:
            check_room(self.assets_dir, [len(data) for _, data, _ in files], self.directory,
                       f"the uploads of {self.plugin_id}")
            return [self._add(*file) for file in files]

    def add(self, original: str, data: bytes, declared_type: str | None) -> dict[str, Any]:
        """Store one uploaded file; return its metadata. Bad size or type: ValidationError."""
        return self.add_all([(original, data, declared_type)])[0]

    def _add(self, original: str, data: bytes, declared_type: str | None) -> dict[str, Any]:
        """Store one file (the caller holds ``_lock``)."""
        kind = self.check(original, data)
        self._check_dirs(create=True)
        entries = self._index()
        name = stored_name(original, kind[1])
        if name in entries or os.path.lexists(self.directory / name):
            stem, ext = name.rsplit(".", 1)
            name = f"{stem}-{secrets.token_hex(4)}.{ext}"
        atomic_write_bytes(self.directory / name, data)
        entries[name] = {"name": name, "path": f"{self.relative}/{name}",
                         "original_name": original[:200], "size": len(data),
                         "content_type": kind[0], "declared_type": declared_type,
                         "uploaded_at": time.time()}
        self._save(entries)
        return entries[name]

    def delete(self, name: str) -> dict[str, Any]:
        """Remove one stored upload by its stored name; return its metadata."""
        if not is_plain_segment(name) or name == INDEX_FILE:
            raise invalid_path(name)
        self._check_dirs(create=False)
        with _lock:
            entries = self._index()
            if not self._is_regular(name):
                raise NotFoundError(f"{self.plugin_id} has no upload {name!r}",
                                    error_code="UNKNOWN_ASSET", details={"name": name})
            os.unlink(self.directory / name)
            entry = entries.pop(name, {"name": name, "path": f"{self.relative}/{name}"})
            self._save(entries)
            return entry

    def name_for(self, path: str) -> str:
        """Return the stored name a ``path`` (as listed, or just the name) refers to.

        Only a path of the form ``assets/plugins/<plugin_id>/uploads/<name>`` (or
        ``<name>``) is accepted: no ``..``, no absolute path, no other plugin's folder.
        """
        if not isinstance(path, str) or "\x00" in path or "\\" in path:
            raise invalid_path(str(path))
        prefix = f"{self.relative}/"
        name = path[len(prefix):] if path.startswith(prefix) else path
        if not is_plain_segment(name):
            raise invalid_path(path)
        return name

    def _check_dirs(self, *, create: bool) -> None:
        """Refuse a plugin or uploads folder that is a symlink (it could point anywhere)."""
        for directory in (self.directory.parent, self.directory):
            try:
                mode = os.lstat(directory).st_mode
            except FileNotFoundError:
                if not create:
                    return
                directory.mkdir(parents=True, exist_ok=True)
                continue
            if not stat.S_ISDIR(mode):
                raise ValidationError(f"{directory} is not a plain directory",
                                      error_code="INVALID_PATH")

    def _is_regular(self, name: str) -> bool:
        try:
            return stat.S_ISREG(os.lstat(self.directory / name).st_mode)
        except OSError:
            return False

    def _index(self) -> dict[str, dict[str, Any]]:
        try:
            data = parse_bounded(read_regular(self.directory / INDEX_FILE, _INDEX_LIMIT,
                                              follow_symlinks=False).decode("utf-8"))
        except (OSError, ValueError):
            return {}
        if not isinstance(data, dict):
            return {}
        # A hand-edited or torn entry without a usable time is dropped, not a 500.
        return {k: v for k, v in data.items() if isinstance(v, dict) and is_plain_segment(k)
                and isinstance(v.get("uploaded_at"), int | float)
                and not isinstance(v.get("uploaded_at"), bool)
                and math.isfinite(v["uploaded_at"])}

    def _save(self, entries: dict[str, dict[str, Any]]) -> None:
        atomic_write_text(self.directory / INDEX_FILE, json.dumps(entries, indent=1))


def invalid_path(value: str) -> ValidationError:
    """Return the 400 ``INVALID_PATH`` error for a file name that is not one plain segment."""
    return ValidationError(f"{value[:200]!r} is not a plain file name", error_code="INVALID_PATH",
                           details={"field": "path"})
