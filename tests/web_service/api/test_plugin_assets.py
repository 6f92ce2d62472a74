"""Plugin uploads (upload, list, delete) and a plugin's static files, over the API."""

from __future__ import annotations

import io
import json

import pytest
import requests

from shared.plugin_system.uploads import MAX_FILE_BYTES
from tests.daemons import Instance, start_web
from tests.web_service.conftest import write_plugin

PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 40
JPEG = b"\xff\xd8\xff\xe0" + b"\x00" * 40
GIF = b"GIF89a" + b"\x00" * 40
BMP = b"BM" + b"\x00" * 40
WEBP = b"RIFF\x00\x00\x00\x00WEBPVP8 " + b"\x00" * 40


def upload(web, files, plugin_id="clock"):
    data = {"plugin_id": plugin_id, "files": [(io.BytesIO(d), n) for n, d in files]}
    return web.client.post("/api/v3/plugins/assets/upload", data=data,
                           content_type="multipart/form-data")


def uploads_dir(web, plugin_id="clock"):
    return web.paths.assets_dir / "plugins" / plugin_id / "uploads"


def test_upload_stores_each_image_with_its_metadata_and_lists_it(web):
    answer = upload(web, [("logo.png", PNG), ("photo.jpeg", JPEG), ("a.gif", GIF),
                          ("b.bmp", BMP), ("c.webp", WEBP)])
    assert answer.status_code == 200, answer.get_json()
    stored = answer.get_json()["data"]["files"]
    assert [f["content_type"] for f in stored] == [
        "image/png", "image/jpeg", "image/gif", "image/bmp", "image/webp"]
    first = stored[0]
    assert first["name"] == "logo.png" and first["original_name"] == "logo.png"
    assert first["size"] == len(PNG) and first["path"] == "assets/plugins/clock/uploads/logo.png"
    assert (uploads_dir(web) / "logo.png").read_bytes() == PNG
    listed = web.client.get("/api/v3/plugins/assets/list?plugin_id=clock").get_json()["data"]
    assert [f["name"] for f in listed["files"]] == [f["name"] for f in stored]
    index = json.loads((uploads_dir(web) / ".index.json").read_text())
    assert index["logo.png"]["uploaded_at"] == first["uploaded_at"]


def test_type_is_sniffed_from_the_bytes_not_the_name(web):
    answer = upload(web, [("script.html", PNG)])
    assert answer.get_json()["data"]["files"][0]["name"] == "script.png"
    refused = upload(web, [("fake.png", b"<html>not an image</html>")])
    assert refused.status_code == 400
    assert refused.get_json()["error_code"] == "UNSUPPORTED_FILE_TYPE"
    assert sorted(p.name for p in uploads_dir(web).iterdir()) == [".index.json", "script.png"]


def test_a_refused_file_stores_none_of_the_upload(web):
    refused = upload(web, [("ok.png", PNG), ("big.png", PNG + b"\x00" * MAX_FILE_BYTES)])
    assert refused.status_code == 413 and refused.get_json()["error_code"] == "FILE_TOO_LARGE"
    assert not uploads_dir(web).exists()


def test_stored_names_are_sanitised_and_never_overwrite(web):
    names = [f["name"] for f in upload(web, [("my logo (1).png", PNG), (".hidden.png", PNG),
                                             ("my logo (1).png", PNG)]).get_json()["data"]["files"]]
    assert names[0] == "my_logo_1_.png" and names[1] == "hidden.png"
    assert names[2].startswith("my_logo_1_-") and names[2] != names[0]
    assert len(list(uploads_dir(web).iterdir())) == 4


def test_upload_needs_files_and_an_installed_plugin(web):
    none = web.client.post("/api/v3/plugins/assets/upload", data={"plugin_id": "clock"},
                           content_type="multipart/form-data")
    assert none.status_code == 400 and none.get_json()["error_code"] == "NO_FILES"
    assert upload(web, [("a.png", PNG)], plugin_id="absent").get_json()[
        "error_code"] == "UNKNOWN_PLUGIN"


def test_delete_by_name_or_listed_path_removes_the_file_and_its_metadata(web):
    upload(web, [("a.png", PNG), ("b.png", PNG)])
    by_name = web.client.post("/api/v3/plugins/assets/delete",
                              json={"plugin_id": "clock", "name": "a.png"})
    assert by_name.status_code == 200
    by_path = web.client.post("/api/v3/plugins/assets/delete", json={
        "plugin_id": "clock", "path": "assets/plugins/clock/uploads/b.png"})
    assert by_path.status_code == 200
    assert [p.name for p in uploads_dir(web).iterdir()] == [".index.json"]
    assert web.client.get("/api/v3/plugins/assets/list?plugin_id=clock").get_json()[
        "data"]["files"] == []
    again = web.client.post("/api/v3/plugins/assets/delete",
                            json={"plugin_id": "clock", "name": "a.png"})
    assert again.status_code == 404 and again.get_json()["error_code"] == "UNKNOWN_ASSET"


def test_static_file_is_served_from_the_plugin_static_folder_only(web):
    plugin_dir = web.paths.plugins_dir() / "clock"
    (plugin_dir / "static" / "css").mkdir(parents=True)
    (plugin_dir / "static" / "css" / "panel.css").write_text("body {}")
    answer = web.client.get("/api/v3/plugins/clock/static/css/panel.css")
    assert answer.status_code == 200 and answer.data == b"body {}"
    assert answer.mimetype == "text/css"
    assert answer.headers["X-Content-Type-Options"] == "nosniff"
    # The plugin's own code and manifest are not static files.
    assert web.client.get("/api/v3/plugins/clock/static/manager.py").status_code == 404
    missing = web.client.get("/api/v3/plugins/clock/static/css/none.css")
    assert missing.status_code == 404 and missing.get_json()["status"] == "error"
    assert web.client.get("/api/v3/plugins/absent/static/a.css").status_code == 404


def test_upload_list_delete_and_static_through_the_real_web_daemon(tmp_path, monkeypatch):
    instance = Instance(tmp_path)
    plugin_dir = write_plugin(instance.plugins_dir, "clock")
    (plugin_dir / "static").mkdir()
    (plugin_dir / "static" / "icon.png").write_bytes(PNG)
    monkeypatch.setenv("LEDPANEL_ASSETS_DIR", str(tmp_path / "assets"))
    web, url = start_web(instance)
    try:
        sent = requests.post(f"{url}/api/v3/plugins/assets/upload", data={"plugin_id": "clock"},
                             files=[("files", ("pic.gif", GIF, "image/gif"))], timeout=10)
        listed = requests.get(f"{url}/api/v3/plugins/assets/list",
                              params={"plugin_id": "clock"}, timeout=10).json()["data"]
        static = requests.get(f"{url}/api/v3/plugins/clock/static/icon.png", timeout=10)
        stored = (tmp_path / "assets/plugins/clock/uploads/pic.gif").read_bytes()
        deleted = requests.post(f"{url}/api/v3/plugins/assets/delete", timeout=10,
                                json={"plugin_id": "clock", "name": "pic.gif"})
    finally:
        web.stop()
    assert sent.status_code == 200, sent.text
    assert stored == GIF and [f["name"] for f in listed["files"]] == ["pic.gif"]
    assert static.content == PNG and static.headers["Content-Type"] == "image/png"
    assert deleted.status_code == 200
    assert not (tmp_path / "assets/plugins/clock/uploads/pic.gif").exists()


@pytest.mark.parametrize("entry", [{"name": "a.png"}, {"uploaded_at": "yesterday"},
                                   {"uploaded_at": True}, {"uploaded_at": None}])
def test_a_hand_edited_index_entry_is_dropped_not_a_500(web, entry):
    assert upload(web, [("good.png", PNG)]).status_code == 200
    (uploads_dir(web) / "a.png").write_bytes(PNG)
    index_file = uploads_dir(web) / ".index.json"
    index = json.loads(index_file.read_text())
    index_file.write_text(json.dumps({**index, "a.png": entry}))
    answer = web.client.get("/api/v3/plugins/assets/list?plugin_id=clock")
    assert answer.status_code == 200, answer.get_json()
    assert [f["name"] for f in answer.get_json()["data"]["files"]] == ["good.png"]
