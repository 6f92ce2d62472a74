"""How large the config files and each plugin section may grow.

Every save path refuses a change that would take config.json or config_secrets.json
past ``MAX_FILE_BYTES`` or a plugin section past ``MAX_SECTION_BYTES`` (error
``CONFIG_TOO_LARGE``, naming the limit and the size). Sizes are counted as the files
are written (indented UTF-8), sections compactly. A file already too large may still
shrink, and a section stored too large blocks no change elsewhere.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from shared.config.merge import same_json
from shared.config.reserved import plugin_sections
from shared.errors import ValidationError
from shared.files.jsonfile import dumps

MAX_FILE_BYTES = 1024 * 1024
MAX_SECTION_BYTES = 256 * 1024


def file_size(config: Any) -> int:
    """Return the bytes a config object takes as written to its file."""
    return len(dumps(config).encode("utf-8"))


def section_size(section: Any) -> int:
    """Return the bytes a plugin section takes, serialized compactly."""
    return len(json.dumps(section, ensure_ascii=False, separators=(",", ":")).encode("utf-8"))


def size_errors(config: dict[str, Any], stored: dict[str, Any] | None = None, *,
                file_name: str = "config.json", text: str | None = None
                ) -> Iterator[ValidationError]:
    """Yield a CONFIG_TOO_LARGE error for each changed plugin section over its limit and
    for the file when it grows past its limit. ``text``: ``config`` as it will be
    written (``dumps``), when the caller has it already."""
    for plugin_id, section in plugin_sections(config).items():
        if stored is not None and same_json(stored.get(plugin_id), section):
            continue
        size = section_size(section)
        if size > MAX_SECTION_BYTES:
            yield _too_large(f"plugin section {plugin_id}", plugin_id, size, MAX_SECTION_BYTES)
    size = file_size(config) if text is None else len(text.encode("utf-8"))
    if size > MAX_FILE_BYTES and (stored is None or size > file_size(stored)):
        yield _too_large(file_name, None, size, MAX_FILE_BYTES)


def _too_large(what: str, field: str | None, size: int, limit: int) -> ValidationError:
    return ValidationError(
        f"{what} would be {_kib(size)} KiB, more than the {_kib(limit)} KiB allowed",
        error_code="CONFIG_TOO_LARGE", status=413,
        details={"field": field, "size": size, "limit": limit})


def _kib(size: int) -> str:
    return f"{size / 1024:.0f}" if size >= 10 * 1024 else f"{size / 1024:.1f}"
