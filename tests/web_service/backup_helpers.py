"""Helpers for the backup tests: post a restore, build ZIPs by hand, snapshot the files
a restore may change."""

from __future__ import annotations

import hashlib
import io
import json
import os
import warnings
import zipfile
from pathlib import Path
from typing import Any

from shared.fonts import SHIPPED_FONTS_DIR

BDF = (SHIPPED_FONTS_DIR / "5x7.bdf").read_bytes()
PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 64


def owner(web) -> dict[str, str]:
    """The header the panel's own pages send (secrets go out only to them, or signed in)."""
    return {"X-Ledpanel-Token": (web.paths.config_dir / ".page_token").read_text().strip()}


def download(web, *, secrets: bool = False) -> bytes:
    answer = web.client.get(f"/api/v3/backup/download?include_secrets={int(secrets)}",
                            headers=owner(web))
    assert answer.status_code == 200, answer.get_data(as_text=True)[:300]
    assert answer.mimetype == "application/zip"
    return answer.data


def restore(web, data: bytes, *, dry_run: bool = False):
    fields: dict[str, Any] = {"backup_file": (io.BytesIO(data), "backup.zip")}
    if dry_run:
        fields["dry_run"] = "1"
    return web.client.post("/api/v3/backup/restore", data=fields,
                           content_type="multipart/form-data")


def manifest_for(entries: dict[str, bytes]) -> bytes:
    return json.dumps({
        "format": "ledpanel-backup", "format_version": 1, "core_version": "3.8.0",
        "created_at": "2026-01-01T00:00:00Z", "contents": {},
        "files": {name: {"sha256": hashlib.sha256(data).hexdigest(), "size": len(data)}
                  for name, data in entries.items()}}).encode()


def make_zip(entries: list[tuple[str | zipfile.ZipInfo, bytes]],
             manifest: bytes | None | str = "auto") -> bytes:
    """Return a ZIP of ``entries`` (written as given, duplicates too) plus a manifest
    listing them (``manifest="auto"``), the given bytes, or none (None)."""
    out = io.BytesIO()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # zipfile warns about duplicate names
        with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
            for name, data in entries:
                archive.writestr(name, data)
            if manifest == "auto":
                listed = {(n.filename if isinstance(n, zipfile.ZipInfo) else n): d
                          for n, d in entries}
                archive.writestr("ledpanel-backup.json", manifest_for(listed))
            elif isinstance(manifest, bytes):
                archive.writestr("ledpanel-backup.json", manifest)
    return out.getvalue()


def config_bytes(web) -> bytes:
    return web.paths.config_file.read_bytes()


def snapshot(web) -> dict[str, bytes]:
    """Every file under the config and assets folders, by path, with its bytes."""
    found: dict[str, bytes] = {}
    for root in (web.paths.config_dir, web.paths.assets_dir):
        for folder, _dirs, files in os.walk(root):
            for name in files:
                path = Path(folder) / name
                if name == ".config.lock":
                    continue
                found[str(path)] = path.read_bytes()
    return found


def refused(answer, status: int, code: str) -> dict[str, Any]:
    assert answer.status_code == status, answer.get_data(as_text=True)[:400]
    body = answer.get_json()
    assert body["status"] == "error" and body["error_code"] == code, body
    assert "Traceback" not in body["message"]
    return body
