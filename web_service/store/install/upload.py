"""A plugin ZIP the user uploaded, kept on disk until its install job has run.

``save_upload`` copies the request's file into ``<cache_dir>/store/uploads/`` (at most
``MAX_UPLOAD_BYTES``, counted as it streams in; a larger one is removed and refused) and
``archive.check_upload`` then checks it before any job exists, so a bad ZIP is answered
at once. The install job extracts it with the same checks (``archive.extract_upload``)
and removes it. A file a stopped process left behind is removed with the next upload
once it is older than ``STALE_AFTER``.
"""

from __future__ import annotations

import contextlib
import os
import re
import tempfile
import time
from pathlib import Path
from typing import IO

from web_service.store.errors import StoreError
from web_service.store.install.archive import MAX_TOTAL_BYTES

MAX_UPLOAD_BYTES = MAX_TOTAL_BYTES  # compressed: never more than the unpacked limit
UPLOADS = "uploads"
STALE_AFTER = 24 * 3600.0
CHUNK = 64 * 1024


def save_upload(stream: IO[bytes], store_dir: Path) -> Path:
    """Write ``stream`` to a new file in ``store_dir/uploads``; return its path."""
    folder = store_dir / UPLOADS
    folder.mkdir(parents=True, exist_ok=True)
    _remove_stale(folder)
    fd, name = tempfile.mkstemp(prefix="plugin-", suffix=".zip", dir=folder)
    path = Path(name)
    try:
        size = 0
        with os.fdopen(fd, "wb") as out:
            while chunk := stream.read(CHUNK):  # ends at the end of the upload or the cap
                size += len(chunk)
                if size > MAX_UPLOAD_BYTES:
                    raise StoreError(f"the ZIP is larger than the {MAX_UPLOAD_BYTES // 2**20} "
                                     "MiB a plugin may have", "TOO_LARGE")
                out.write(chunk)
    except BaseException:
        path.unlink(missing_ok=True)
        raise
    return path


def shown_name(filename: str | None) -> str:
    """The uploaded file's name as job descriptions show it: plain characters, short."""
    base = re.split(r"[\\/]", filename or "")[-1]
    plain = re.sub(r"[^A-Za-z0-9._ -]", "_", base).strip()[:80]
    return plain or "plugin.zip"


def _remove_stale(folder: Path) -> None:
    cutoff = time.time() - STALE_AFTER
    for entry in folder.glob("plugin-*.zip"):
        with contextlib.suppress(OSError):
            if entry.lstat().st_mtime < cutoff:
                entry.unlink()
