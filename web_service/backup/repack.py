"""Copy a kept backup ZIP without its secrets entry, for a download that did not ask
for the secrets.

Every other entry is copied as it is (in chunks, never whole in memory); the manifest is
rewritten to list what remains (``contents.secrets`` false), so the copy restores like a
backup downloaded without secrets.
"""

from __future__ import annotations

import json
import shutil
import zipfile
from pathlib import Path
from typing import IO, Any

from shared.errors import LedpanelError
from web_service.backup.archive import MANIFEST_NAME, MAX_CONFIG_BYTES, MAX_ENTRIES, SECRETS_ENTRY


def copy_without_secrets(source: Path, out: IO[bytes], note: str | None = None) -> None:
    """Write the backup ``source`` to ``out`` without ``config/config_secrets.json``
    (``note``: said in the copy's manifest, as ``note``)."""
    try:
        with zipfile.ZipFile(source) as archive, \
                zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED) as copy:
            members = archive.infolist()
            if len(members) > MAX_ENTRIES + 1:
                raise _unreadable(source, f"more than {MAX_ENTRIES} entries")
            manifest = _manifest(archive)
            if note:
                manifest["note"] = note
            for member in members:
                if member.filename in (SECRETS_ENTRY, MANIFEST_NAME):
                    continue
                with archive.open(member) as reading, copy.open(member, "w") as writing:
                    shutil.copyfileobj(reading, writing, 64 * 1024)
            copy.writestr(MANIFEST_NAME, json.dumps(manifest, indent=2))
    except (OSError, zipfile.BadZipFile, ValueError, KeyError) as err:
        raise _unreadable(source, str(err)[:200]) from None


def _manifest(archive: zipfile.ZipFile) -> dict[str, Any]:
    """The archive's manifest with the secrets entry taken out of it."""
    with archive.open(MANIFEST_NAME) as reading:
        manifest = json.loads(reading.read(MAX_CONFIG_BYTES + 1)[:MAX_CONFIG_BYTES])
    if not isinstance(manifest, dict) or not isinstance(manifest.get("files"), dict):
        raise ValueError(f"{MANIFEST_NAME} lists no files")
    manifest["files"] = {k: v for k, v in manifest["files"].items() if k != SECRETS_ENTRY}
    if isinstance(manifest.get("contents"), dict):
        manifest["contents"] = {**manifest["contents"], "secrets": False}
    return manifest


def _unreadable(source: Path, why: str) -> LedpanelError:
    return LedpanelError(f"the kept backup {source.name} cannot be read: {why}",
                         error_code="BACKUP_UNREADABLE", status=409)
