"""Hostile restore uploads: each is refused with one clear code and nothing changes."""

from __future__ import annotations

import io
import json
import stat
import zipfile

import pytest

from tests.web_service.backup_helpers import (
    BDF,
    PNG,
    config_bytes,
    make_zip,
    manifest_for,
    refused,
    restore,
    snapshot,
)


@pytest.fixture
def stocked(web):
    """A web app with a secret, an uploaded font and a plugin upload stored."""
    assert web.client.post("/api/v3/config/main", json={
        "clock": {"title": "Stored", "api_key": "s3cret"}}).status_code == 200
    assert web.client.post("/api/v3/fonts/upload", content_type="multipart/form-data", data={
        "font_family": "blocky", "font_file": (io.BytesIO(BDF), "b.bdf")}).status_code == 200
    assert web.client.post("/api/v3/plugins/assets/upload", content_type="multipart/form-data",
                           data={"plugin_id": "clock",
                                 "files": [(io.BytesIO(PNG), "logo.png")]}).status_code == 200
    return web


def _config(web, **changes) -> bytes:
    config = json.loads(config_bytes(web))
    config.update(changes)
    return json.dumps(config).encode()


def _symlink(name: str) -> zipfile.ZipInfo:
    info = zipfile.ZipInfo(name)
    info.external_attr = (stat.S_IFLNK | 0o777) << 16
    return info


def _cases(web) -> list[tuple[str, bytes, int, str]]:
    good = config_bytes(web)
    conf = ("config/config.json", good)
    bad_sha = json.loads(manifest_for({"config/config.json": good}))
    bad_sha["files"]["config/config.json"]["sha256"] = "0" * 64
    many = [conf] + [(f"fonts/f{i}.bdf", b"") for i in range(1001)]
    return [
        ("traversal", make_zip([conf, ("config/../../evil.json", b"{}")]), 400,
         "UNSAFE_BACKUP_ENTRY"),
        ("dotdot", make_zip([conf, ("../evil.txt", b"x")]), 400, "UNSAFE_BACKUP_ENTRY"),
        ("absolute", make_zip([conf, ("/etc/cron.d/evil", b"x")]), 400, "UNSAFE_BACKUP_ENTRY"),
        ("symlink", make_zip([conf, (_symlink("fonts/evil.bdf"), b"/etc/passwd")]), 400,
         "UNSAFE_BACKUP_ENTRY"),
        ("duplicate", make_zip([conf, conf]), 400, "UNSAFE_BACKUP_ENTRY"),
        ("other place", make_zip([conf, ("plugin-repos/x/manager.py", b"x")]), 400,
         "UNSAFE_BACKUP_ENTRY"),
        ("bomb", make_zip([("config/config.json", b" " * (5 * 1024 * 1024))]), 413,
         "BACKUP_TOO_LARGE"),
        ("too many entries", make_zip(many), 413, "BACKUP_TOO_LARGE"),
        ("no manifest", make_zip([conf], manifest=None), 400, "INVALID_BACKUP_MANIFEST"),
        ("unlisted file", make_zip([conf, ("fonts/extra.bdf", BDF)],
                                   manifest=manifest_for({"config/config.json": good})), 400,
         "INVALID_BACKUP_MANIFEST"),
        ("bad sha", make_zip([conf], manifest=json.dumps(bad_sha).encode()), 400,
         "BACKUP_CHECKSUM_MISMATCH"),
        ("config not json", make_zip([("config/config.json", b'{"display": NaN}')]), 400,
         "INVALID_CONFIG"),
        ("config breaks a schema", make_zip([("config/config.json", _config(
            web, clock={"enabled": True, "interval": 0}))]), 400, "INVALID_PLUGIN_CONFIG"),
        ("secrets not an object", make_zip([conf, ("config/config_secrets.json", b"[]")]), 400,
         "INVALID_CONFIG"),
        ("invalid font", make_zip([conf, ("fonts/blocky.bdf", b"STARTFONT 2.1\nnonsense")]),
         400, "INVALID_FONT"),
        ("font not a font name", make_zip([conf, ("fonts/evil.sh", b"#!/bin/sh")]), 400,
         "UNSUPPORTED_FONT_TYPE"),
        ("built-in font name", make_zip([conf, ("fonts/5x7.bdf", BDF)]), 409,
         "FONT_FAMILY_TAKEN"),
        ("upload not an image", make_zip([conf, ("assets/plugins/clock/uploads/x.png",
                                                 b"<script>")]), 400, "UNSUPPORTED_FILE_TYPE"),
        ("icon not its kind", make_zip([conf, ("assets/notify_icons/door.gif", PNG)]), 400,
         "UNSUPPORTED_FILE_TYPE"),
        ("icon not an icon name", make_zip([conf, ("assets/notify_icons/.door.png", PNG)]),
         400, "UNSAFE_BACKUP_ENTRY"),
        ("icon in a subfolder", make_zip([conf, ("assets/notify_icons/a/door.png", PNG)]),
         400, "UNSAFE_BACKUP_ENTRY"),
        ("icon too large", make_zip([conf, ("assets/notify_icons/big.png",
                                            PNG + b"\x00" * 70000)]), 413, "BACKUP_TOO_LARGE"),
        ("garbage", b"this is not a zip file at all", 400, "INVALID_BACKUP"),
        ("truncated", make_zip([conf])[:-30], 400, "INVALID_BACKUP"),
    ]


CASE_NAMES = [
    "traversal", "dotdot", "absolute", "symlink", "duplicate", "other place", "bomb",
    "too many entries", "no manifest", "unlisted file", "bad sha", "config not json",
    "config breaks a schema", "secrets not an object", "invalid font",
    "font not a font name", "built-in font name", "upload not an image",
    "icon not its kind", "icon not an icon name", "icon in a subfolder", "icon too large",
    "garbage", "truncated"]


@pytest.mark.parametrize("case", CASE_NAMES)
def test_a_hostile_backup_is_refused_and_nothing_changes(stocked, case):
    name, data, status, code = next(c for c in _cases(stocked) if c[0] == case)
    before = snapshot(stocked)
    for dry_run in (True, False):
        body = refused(restore(stocked, data, dry_run=dry_run), status, code)
        details = body["details"]
        assert details["field"] == "backup_file" or details["entry"] == "config/config.json"
    assert snapshot(stocked) == before, name  # byte for byte: config, secrets, fonts, uploads


def test_a_bomb_entry_that_lies_about_its_size_is_refused(stocked):
    good = make_zip([("config/config.json", config_bytes(stocked))])
    archive = bytearray(make_zip([("config/config.json", config_bytes(stocked)),
                                  ("fonts/big.bdf", b"A" * (1024 * 1024))]))
    # Patch the central directory's uncompressed size of the font to claim 100 bytes.
    with zipfile.ZipFile(io.BytesIO(bytes(archive))) as z:
        info = z.getinfo("fonts/big.bdf")
    central = archive.rfind(b"PK\x01\x02", 0, archive.rfind(b"fonts/big.bdf"))
    archive[central + 24:central + 28] = (100).to_bytes(4, "little")
    before = snapshot(stocked)
    answer = restore(stocked, bytes(archive))
    assert answer.status_code in (400, 413), answer.get_json()
    assert answer.get_json()["error_code"] in ("BACKUP_TOO_LARGE", "INVALID_BACKUP",
                                               "BACKUP_CHECKSUM_MISMATCH")
    assert snapshot(stocked) == before
    assert info.file_size == 1024 * 1024 and restore(stocked, good).status_code == 200


def test_a_font_family_stored_under_another_name_is_refused(stocked):
    data = make_zip([("config/config.json", config_bytes(stocked)), ("fonts/block_y.bdf", BDF)])
    before = snapshot(stocked)
    refused(restore(stocked, data), 409, "FONT_FAMILY_TAKEN")
    assert snapshot(stocked) == before


def test_a_restore_without_a_file_or_with_a_bad_flag_is_refused(web):
    refused(web.client.post("/api/v3/backup/restore", data={"dry_run": "1"},
                            content_type="multipart/form-data"), 400, "NO_FILES")
    refused(web.client.get("/api/v3/backup/download?include_secrets=maybe"), 400,
            "INVALID_FIELD")


def test_a_restore_into_a_symlinked_fonts_folder_writes_nothing(stocked, tmp_path):
    fonts = stocked.paths.fonts_upload_dir
    for path in fonts.iterdir():
        path.unlink()
    fonts.rmdir()
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    fonts.symlink_to(elsewhere)
    data = make_zip([("config/config.json", config_bytes(stocked)), ("fonts/tiny.bdf", BDF)])
    before = snapshot(stocked)
    answer = restore(stocked, data)
    assert answer.status_code == 500 and answer.get_json()["error_code"] == "WRITE_FAILED"
    assert list(elsewhere.iterdir()) == []
    after = snapshot(stocked)
    assert {p: b for p, b in after.items() if "pre-restore-" not in p} == before


@pytest.mark.parametrize("spoil", ["symlink", "garbage"])
def test_no_backup_is_made_while_config_json_cannot_be_read(web, tmp_path, spoil):
    config = web.paths.config_file
    if spoil == "symlink":
        target = tmp_path / "elsewhere.json"
        target.write_text("{}")
        config.unlink()
        config.symlink_to(target)
    else:
        config.write_text("{ not json")
    answer = web.client.get("/api/v3/backup/download")
    body = answer.get_json()
    assert answer.status_code == 409 and body["error_code"] == "CONFIG_INVALID_JSON"
    assert body["message"].startswith("no backup made:") and "Config Editor" in body["message"]
