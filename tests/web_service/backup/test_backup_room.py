"""Uploads stop before a backup would have to refuse them: a backup is always possible.

340 uploads once stored 1,028 files and every backup after that answered 413. Now an
upload past a plugin's limit, or past the limit of all uploads together, is refused
with a message; the backup of a full set of uploads downloads and restores.
"""

from __future__ import annotations

import io

from shared import upload_budget
from shared.fonts.uploads import MAX_FONT_BYTES
from shared.plugin_system.uploads import MAX_FILE_BYTES
from tests.web_service.backup_helpers import BDF, PNG, download, restore
from tests.web_service.conftest import write_plugin
from web_service.backup.archive import MAX_CONFIG_BYTES, MAX_ENTRIES, MAX_TOTAL_BYTES
from web_service.backup.check import MAX_ARCHIVE_BYTES


def upload(web, files: list[tuple[str, bytes]], plugin_id: str = "clock"):
    data = {"plugin_id": plugin_id, "files": [(io.BytesIO(d), n) for n, d in files]}
    return web.client.post("/api/v3/plugins/assets/upload", data=data,
                           content_type="multipart/form-data")


def upload_font(web, family: str):
    return web.client.post("/api/v3/fonts/upload", data={
        "font_family": family, "font_file": (io.BytesIO(BDF), f"{family}.bdf")},
        content_type="multipart/form-data")


def stored(web, plugin_id: str = "clock") -> list[str]:
    folder = web.paths.assets_dir / "plugins" / plugin_id / "uploads"
    return sorted(p.name for p in folder.glob("*") if not p.name.startswith("."))


def refused_for_room(answer, words: str) -> None:
    assert answer.status_code == 413, answer.get_data(as_text=True)
    body = answer.get_json()
    assert body["error_code"] == "UPLOAD_LIMIT" and words in body["message"], body
    assert "delete" in body["message"]


def test_the_backup_limits_stay_above_what_uploads_can_reach() -> None:
    # Every upload, an index file per plugin folder (one at most per upload), two config
    # files: entries; their bytes and the configs' within the restore's archive size.
    assert 2 * upload_budget.ALL_FILES + 2 < MAX_ENTRIES
    indexes = upload_budget.ALL_FILES * 4096  # an index entry is a few hundred bytes
    room = upload_budget.ALL_BYTES + indexes + 2 * MAX_CONFIG_BYTES
    assert room < MAX_ARCHIVE_BYTES <= MAX_TOTAL_BYTES
    assert upload_budget.PLUGIN_FILES <= upload_budget.ALL_FILES
    assert upload_budget.PLUGIN_BYTES <= upload_budget.ALL_BYTES
    assert MAX_FILE_BYTES <= upload_budget.PLUGIN_BYTES and MAX_FONT_BYTES < room


def test_a_plugin_full_of_uploads_refuses_the_next_and_backs_up(web) -> None:
    limit = upload_budget.PLUGIN_FILES
    answer = upload(web, [(f"i{n}.png", PNG) for n in range(limit)])
    assert answer.status_code == 200, answer.get_data(as_text=True)
    refused_for_room(upload(web, [("one-more.png", PNG)]), "the uploads of clock")
    assert len(stored(web)) == limit
    # An upload of several files that would pass the limit stores none of them.
    assert web.client.post("/api/v3/plugins/assets/delete",
                           json={"plugin_id": "clock", "name": "i0.png"}).status_code == 200
    refused_for_room(upload(web, [("a.png", PNG), ("b.png", PNG)]), "clock")
    assert len(stored(web)) == limit - 1
    archive = download(web)
    checked = restore(web, archive, dry_run=True)
    assert checked.status_code == 200, checked.get_data(as_text=True)


def test_a_plugin_uploads_are_bounded_in_bytes_too(web) -> None:
    big = PNG + b"\x00" * (MAX_FILE_BYTES - len(PNG))
    for n in range(upload_budget.PLUGIN_BYTES // MAX_FILE_BYTES):
        assert upload(web, [(f"big{n}.png", big)]).status_code == 200
    refused_for_room(upload(web, [("over.png", PNG)]), "MiB")


def test_all_uploads_together_are_bounded_fonts_included(web) -> None:
    per = upload_budget.PLUGIN_FILES
    plugins = ["clock", "ticker", "third"]
    write_plugin(web.paths.plugins_dir(), "third")
    for plugin_id in plugins[:2]:
        assert upload(web, [(f"i{n}.png", PNG) for n in range(per)],
                      plugin_id).status_code == 200
    assert upload_budget.ALL_FILES == 2 * per  # the two plugins fill it
    refused_for_room(upload(web, [("x.png", PNG)], "third"), "all uploads")
    refused_for_room(upload_font(web, "fontx"), "all uploads")
    assert stored(web, "third") == []
    assert download(web)
