"""Backup & Restore over the API: download, restore, dry run, the pre-restore backups."""

from __future__ import annotations

import io
import json
import os
import zipfile

import requests

from shared.bus import core as keys
from shared.config.store import ConfigStore
from tests.daemons import ROOT, Instance, start_web
from tests.web_service.backup_helpers import (
    BDF,
    PNG,
    config_bytes,
    download,
    make_zip,
    owner,
    refused,
    restore,
    snapshot,
)


def _save(web, **clock) -> None:
    answer = web.client.post("/api/v3/config/main", json={"clock": clock})
    assert answer.status_code == 200, answer.get_json()


def _add_font_and_image(web) -> None:
    answer = web.client.post("/api/v3/fonts/upload", content_type="multipart/form-data",
                             data={"font_family": "blocky", "font_file": (io.BytesIO(BDF),
                                                                          "b.bdf")})
    assert answer.status_code == 200, answer.get_json()
    answer = web.client.post("/api/v3/plugins/assets/upload", content_type="multipart/form-data",
                             data={"plugin_id": "clock", "files": [(io.BytesIO(PNG), "logo.png")]})
    assert answer.status_code == 200, answer.get_json()


def test_a_backup_holds_a_manifest_config_fonts_and_uploads_and_secrets_only_when_asked(web):
    _save(web, title="Kept", api_key="s3cret")
    _add_font_and_image(web)
    plain = zipfile.ZipFile(io.BytesIO(download(web)))
    names = set(plain.namelist())
    assert names == {"ledpanel-backup.json", "config/config.json", "fonts/blocky.bdf",
                     "assets/plugins/clock/uploads/logo.png",
                     "assets/plugins/clock/uploads/.index.json"}
    assert b"s3cret" not in b"".join(plain.read(n) for n in names)
    manifest = json.loads(plain.read("ledpanel-backup.json"))
    assert manifest["format_version"] == 1 and manifest["contents"]["secrets"] is False
    assert manifest["files"]["fonts/blocky.bdf"]["size"] == len(BDF)
    with_secrets = zipfile.ZipFile(io.BytesIO(download(web, secrets=True)))
    assert json.loads(with_secrets.read("config/config_secrets.json"))["clock"]["api_key"] == \
        "s3cret"


GIF = b"GIF89a" + b"\x00" * 32


def test_stored_notification_icons_go_into_a_backup_and_come_back(web):
    icons = web.paths.assets_dir / "notify_icons"
    icons.mkdir(parents=True)
    (icons / "door.png").write_bytes(PNG)
    (icons / "bell.gif").write_bytes(GIF)
    (icons / "notes.txt").write_text("not an icon")  # not taken
    backup = download(web)
    archive = zipfile.ZipFile(io.BytesIO(backup))
    assert {n for n in archive.namelist() if "notify_icons" in n} == {
        "assets/notify_icons/door.png", "assets/notify_icons/bell.gif"}
    manifest = json.loads(archive.read("ledpanel-backup.json"))
    assert manifest["contents"]["notify_icons"] == ["bell.gif", "door.png"]

    (icons / "door.png").unlink()
    (icons / "bell.gif").write_bytes(GIF + b"changed")
    dry = restore(web, backup, dry_run=True)
    assert dry.status_code == 200, dry.get_json()
    assert dry.get_json()["data"]["notify_icons"] == {
        "added": ["assets/notify_icons/door.png"],
        "replaced": ["assets/notify_icons/bell.gif"], "unchanged": []}
    assert not (icons / "door.png").exists()  # a dry run changes nothing
    done = restore(web, backup)
    assert done.status_code == 200, done.get_json()
    assert (icons / "door.png").read_bytes() == PNG and (icons / "bell.gif").read_bytes() == GIF


def test_a_symlinked_file_is_not_followed_into_a_backup(web, tmp_path):
    outside = tmp_path / "outside.bdf"
    outside.write_bytes(BDF)
    web.paths.fonts_upload_dir.mkdir(parents=True)
    os.symlink(outside, web.paths.fonts_upload_dir / "sneaky.bdf")
    assert "fonts/sneaky.bdf" not in zipfile.ZipFile(io.BytesIO(download(web))).namelist()


def test_restore_round_trip_puts_config_secrets_fonts_and_uploads_back(web):
    _save(web, title="Before", api_key="s3cret")
    _add_font_and_image(web)
    before = snapshot(web)
    backup = download(web, secrets=True)

    _save(web, title="After", api_key="other")
    assert web.client.delete("/api/v3/fonts/blocky").status_code == 200
    logo = web.paths.assets_dir / "plugins/clock/uploads/logo.png"
    logo.write_bytes(PNG + b"changed")

    dry = restore(web, backup, dry_run=True)
    assert dry.status_code == 200, dry.get_json()
    data = dry.get_json()["data"]
    assert data["dry_run"] is True and data["pre_restore_backup"] is None
    assert data["config"]["changed_sections"] == ["clock"]
    assert data["config"]["secrets_changes"] is True
    assert data["fonts"]["added"] == ["fonts/blocky.bdf"]
    assert data["plugin_assets"]["replaced"] == ["assets/plugins/clock/uploads/logo.png"]
    assert web.config()["clock"]["title"] == "After"  # a dry run changes nothing
    assert not web.paths.fonts_upload_dir.joinpath("blocky.bdf").exists()

    done = restore(web, backup)
    assert done.status_code == 200, done.get_json()
    assert web.config() == json.loads(before[str(web.paths.config_file)])
    assert web.secrets()["clock"]["api_key"] == "s3cret"
    assert web.paths.fonts_upload_dir.joinpath("blocky.bdf").read_bytes() == BDF
    assert logo.read_bytes() == PNG
    change = web.bus.read(keys.CONFIG_CHANGED)
    assert change is not None and "clock" in change["sections"]
    assert web.bus.read(keys.FONTS_CHANGED) is not None


def test_a_backup_without_secrets_keeps_the_stored_secrets(web):
    _save(web, title="Before", api_key="s3cret")
    backup = download(web)
    _save(web, title="After", api_key="other")
    assert restore(web, backup).status_code == 200
    assert web.config()["clock"]["title"] == "Before"
    assert web.secrets()["clock"]["api_key"] == "other"


def test_the_pre_restore_backup_is_kept_listed_and_restores_the_previous_state(web):
    _save(web, title="Old")
    backup = download(web)
    _save(web, title="Current", api_key="current-key")
    _add_font_and_image(web)
    current = config_bytes(web)

    answer = restore(web, backup)
    kept = answer.get_json()["data"]["pre_restore_backup"]
    assert web.config()["clock"]["title"] == "Old"
    listed = web.client.get("/api/v3/backup/pre-restore").get_json()["data"]["backups"]
    assert [b["name"] for b in listed] == [kept]
    assert (web.paths.backups_dir / kept).stat().st_mode & 0o777 == 0o600

    _save(web, title="Later", api_key="later-key")
    fetched = web.client.get(f"/api/v3/backup/pre-restore/{kept}?include_secrets=1",
                             headers=owner(web))
    assert fetched.status_code == 200 and fetched.mimetype == "application/zip"
    assert "config/config_secrets.json" in zipfile.ZipFile(io.BytesIO(fetched.data)).namelist()
    assert restore(web, fetched.data).status_code == 200
    assert web.config() == json.loads(current)
    assert web.secrets()["clock"]["api_key"] == "current-key"


def test_a_pre_restore_download_holds_the_secrets_only_when_asked(web):
    _save(web, title="Old", api_key="old-key")
    backup = download(web)
    _save(web, title="Current", api_key="kept-secret-key")
    _add_font_and_image(web)
    current = config_bytes(web)
    kept = restore(web, backup).get_json()["data"]["pre_restore_backup"]
    on_disk = zipfile.ZipFile(web.paths.backups_dir / kept)
    assert "config/config_secrets.json" in on_disk.namelist()  # the kept file has them

    for query in ("", "?include_secrets=0"):
        fetched = web.client.get(f"/api/v3/backup/pre-restore/{kept}{query}")
        assert fetched.status_code == 200 and fetched.mimetype == "application/zip"
        assert fetched.headers["Cache-Control"] == "no-store"
        archive = zipfile.ZipFile(io.BytesIO(fetched.data))
        assert "config/config_secrets.json" not in archive.namelist()
        assert set(archive.namelist()) == set(on_disk.namelist()) - {
            "config/config_secrets.json"}
        assert all(b"kept-secret-key" not in archive.read(n) for n in archive.namelist())
        manifest = json.loads(archive.read("ledpanel-backup.json"))
        assert manifest["contents"]["secrets"] is False
        assert "config/config_secrets.json" not in manifest["files"]
    # The copy restores: the config as it was, the secrets stored now kept.
    _save(web, title="Later", api_key="later-key")
    answer = restore(web, fetched.data)
    assert answer.status_code == 200, answer.get_json()
    assert web.config() == json.loads(current)
    assert web.secrets()["clock"]["api_key"] == "later-key"
    refused(web.client.get(f"/api/v3/backup/pre-restore/{kept}?include_secrets=maybe"),
            400, "INVALID_FIELD")


def test_a_kept_backup_that_is_no_longer_a_zip_is_one_clear_error(web):
    kept = restore(web, download(web)).get_json()["data"]["pre_restore_backup"]
    (web.paths.backups_dir / kept).write_bytes(b"not a zip any more")
    refused(web.client.get(f"/api/v3/backup/pre-restore/{kept}"), 409, "BACKUP_UNREADABLE")
    whole = web.client.get(f"/api/v3/backup/pre-restore/{kept}?include_secrets=1",
                           headers=owner(web))
    assert whole.status_code == 200 and whole.data == b"not a zip any more"


def test_only_the_newest_pre_restore_backups_are_kept(web):
    backup = download(web)
    for _ in range(7):
        assert restore(web, backup).status_code == 200
    listed = web.client.get("/api/v3/backup/pre-restore").get_json()["data"]["backups"]
    assert len(listed) == 5


def test_a_pre_restore_name_must_be_one_of_ours(web):
    refused(web.client.get("/api/v3/backup/pre-restore/config.json"), 400, "INVALID_PATH")
    refused(web.client.get("/api/v3/backup/pre-restore/pre-restore-20200101_000000_000000.zip"),
            404, "BACKUP_NOT_FOUND")


def test_a_failed_config_save_puts_fonts_and_uploads_back(web, monkeypatch):
    _add_font_and_image(web)
    backup = download(web)
    _save(web, title="Changed")
    web.client.delete("/api/v3/fonts/blocky")
    before = snapshot(web)

    def broken(self, main):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(ConfigStore, "_write_main", broken)
    answer = restore(web, backup)
    assert answer.status_code == 500 and "Traceback" not in answer.get_data(as_text=True)
    after = snapshot(web)
    kept = [p for p in after if p not in before]
    assert all("pre-restore-" in p for p in kept)  # only the pre-restore archive is new
    assert {p: b for p, b in after.items() if p in before} == before


def test_a_restore_larger_than_the_request_cap_is_accepted(web):
    big = [(f"assets/plugins/clock/uploads/p{i}.png", PNG + os.urandom(900 * 1024))
           for i in range(3)]
    answer = restore(web, make_zip([("config/config.json", config_bytes(web)), *big]),
                     dry_run=True)
    assert answer.status_code == 200, answer.get_json()
    assert len(answer.get_json()["data"]["plugin_assets"]["added"]) == 3
    other = web.client.post("/api/v3/fonts/upload", content_type="multipart/form-data",
                            data={"font_family": "x", "font_file": (io.BytesIO(
                                b"x" * 3 * 1024 * 1024), "x.bdf")})
    assert other.status_code == 413  # every other route keeps the 2 MB cap


def test_download_and_restore_through_the_web_daemon(tmp_path):
    instance = Instance(tmp_path)
    config = json.loads((ROOT / "config" / "config.template.json").read_text())
    instance.write_config(config)
    uploads = instance.assets_dir / "plugins" / "clock" / "uploads"
    uploads.mkdir(parents=True)
    for index in range(3):  # a backup above the 2 MB request cap of every other route
        (uploads / f"p{index}.png").write_bytes(PNG + os.urandom(900 * 1024))
    web, url = start_web(instance)
    try:
        backup = requests.get(f"{url}/api/v3/backup/download", timeout=10)
        assert backup.status_code == 200 and len(backup.content) > 2 * 1024 * 1024
        before = (instance.config_dir / "config.json").read_bytes()
        changed = requests.post(f"{url}/api/v3/config/main", timeout=10,
                                json={"display": {"hardware": {"brightness": 42}}})
        assert changed.status_code == 200, changed.text
        answer = requests.post(f"{url}/api/v3/backup/restore", timeout=20,
                               files={"backup_file": ("b.zip", backup.content)})
        assert answer.status_code == 200, answer.text
        assert answer.json()["data"]["plugin_assets"]["unchanged"] == [
            f"assets/plugins/clock/uploads/p{index}.png" for index in range(3)]
        assert json.loads((instance.config_dir / "config.json").read_bytes()) == \
            json.loads(before)
    finally:
        web.stop()
