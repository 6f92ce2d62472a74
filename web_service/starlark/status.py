"""What the display said of each app, read as untrusted: the bus record and the previews.

The ``starlark_apps`` bus record (shape: ``shared.starlark.installed.render_status``) is
read through the bus (bounded, a regular file); each app's part is kept only field by
field, each of the expected type, so a garbage record reads as "not rendered yet". A
preview is a regular file of at most ``MAX_PREVIEW_BYTES`` that starts as a WebP does;
anything else is absent.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from shared.bus import core as bus_keys
from shared.bus.core import Bus
from shared.files.regular_file import read_regular
from shared.starlark.installed.render_status import preview_path

MAX_PREVIEW_BYTES = 8 * 1024 * 1024
MAX_ERROR_CHARS = 500
_NUMBERS = ("rendered_at", "render_ms", "next_render_at", "backoff_s")
_FLAGS = ("held", "skipped")
_COUNTS = ("frames", "delay_ms", "errors", "width", "height")


def render_records(bus: Bus) -> dict[str, dict[str, Any]]:
    """Each app's render record by id (only the apps the record names, checked)."""
    try:
        record = bus.read(bus_keys.STARLARK_APPS)
    except (OSError, ValueError):
        return {}
    apps = record.get("apps") if isinstance(record, dict) else None
    if not isinstance(apps, dict):
        return {}
    return {app_id: checked_record(value) for app_id, value in list(apps.items())[:1000]
            if isinstance(app_id, str) and isinstance(value, dict)}


def checked_record(value: dict[str, Any]) -> dict[str, Any]:
    """One app's render record with every field of its type, or None."""
    found: dict[str, Any] = {}
    for key in _NUMBERS:
        number = value.get(key)
        found[key] = number if _finite(number) and number >= 0 else None  # type: ignore[operator]
    for key in _COUNTS:
        count = value.get(key)
        found[key] = count if isinstance(count, int) and not isinstance(
            count, bool) and 0 <= count < 2**31 else None
    for key in _FLAGS:
        found[key] = value.get(key) is True
    error, scale = value.get("error"), value.get("scale")
    found["error"] = error[:MAX_ERROR_CHARS] if isinstance(error, str) and error else None
    found["scale"] = scale[:40] if isinstance(scale, str) else None
    return found


def empty_record() -> dict[str, Any]:
    """The record of an app the display has not rendered."""
    return checked_record({})


def read_preview(cache_dir: Path, app_id: str) -> bytes | None:
    """An app's last frames as an animated WebP, or None when there are none (or garbage)."""
    try:
        data = read_regular(preview_path(cache_dir, app_id), MAX_PREVIEW_BYTES,
                            follow_symlinks=False)
    except (OSError, ValueError):
        return None
    return data if is_webp(data) else None


def has_preview(cache_dir: Path, app_id: str) -> bool:
    """Whether a preview file is there (a regular file; its content is checked on read)."""
    try:
        return preview_path(cache_dir, app_id).lstat().st_mode & 0o170000 == 0o100000
    except (OSError, ValueError):
        return False


def is_webp(data: bytes) -> bool:
    return len(data) >= 16 and data[:4] == b"RIFF" and data[8:12] == b"WEBP"


def _finite(value: Any) -> bool:
    return (isinstance(value, int | float) and not isinstance(value, bool)
            and math.isfinite(value))
