"""Every plugin route refuses ids and file names that are not one plain path segment.

Each route is tried with ``..``, encoded slashes and dots, absolute paths, NUL bytes
and symlinks out of the tree; a secret file and a marker directory outside the plugin
folders prove that nothing outside is read, written or removed.
"""

from __future__ import annotations

import http.client
import io
import json
from pathlib import Path

import pytest

from tests.daemons import Instance, start_web
from tests.web_service.api.test_plugin_actions import add_actions
from tests.web_service.conftest import write_plugin

PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 40
SECRET = "TOP-SECRET-OUTSIDE"
BAD_IDS = ["..", ".", "../clock", "clock/..", "%2e%2e", "..%2Fclock", "/etc", "/tmp/clock",
           "clock\x00", "a\\b", ".hidden", ""]


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    """A directory outside every plugin folder holding a secret and a victim image."""
    directory = tmp_path / "outside"
    directory.mkdir()
    (directory / "secret.txt").write_text(SECRET)
    (directory / "victim.png").write_bytes(PNG)
    (directory / "evil.py").write_text(
        "import pathlib\npathlib.Path(__file__).with_name('RAN').write_text('x')\n"
        "print('{}')\n")
    return directory


def untouched(directory: Path) -> None:
    assert sorted(p.name for p in directory.iterdir()) == ["evil.py", "secret.txt", "victim.png"]
    assert (directory / "secret.txt").read_text() == SECRET
    assert (directory / "victim.png").read_bytes() == PNG


def envelope_400(answer) -> dict:
    assert answer.status_code == 400, (answer.status_code, answer.get_data(as_text=True))
    body = answer.get_json()
    assert body["status"] == "error" and SECRET not in answer.get_data(as_text=True)
    return body


@pytest.mark.parametrize("plugin_id", BAD_IDS)
def test_every_body_and_query_route_refuses_a_bad_plugin_id(web, outside, plugin_id):
    client = web.client
    answers = [
        client.post("/api/v3/plugins/action", json={"plugin_id": plugin_id, "action_id": "a"}),
        client.post("/api/v3/plugins/assets/upload", content_type="multipart/form-data",
                    data={"plugin_id": plugin_id, "files": [(io.BytesIO(PNG), "a.png")]}),
        client.get("/api/v3/plugins/assets/list", query_string={"plugin_id": plugin_id}),
        client.post("/api/v3/plugins/assets/delete",
                    json={"plugin_id": plugin_id, "name": "victim.png"}),
    ]
    for answer in answers:
        # Bodies and query strings are not URL-decoded: "%2e%2e" is a name no plugin has.
        assert envelope_400(answer)["error_code"] in (
            "INVALID_PLUGIN_ID", "MISSING_PLUGIN_ID", "UNKNOWN_PLUGIN")
    untouched(outside)
    assert not web.paths.assets_dir.exists()


@pytest.mark.parametrize("script", ["../../outside/evil.py", "/OUTSIDE/evil.py",
                                    "scripts/../../../outside/evil.py", "scripts/link.py",
                                    "scripts/dirlink/evil.py", "scripts\\..\\x.py",
                                    "scripts/a\x00.py"])
def test_action_script_outside_the_plugin_is_refused_and_never_run(web, outside, script):
    plugin_dir = web.paths.plugins_dir() / "clock"
    (plugin_dir / "scripts").mkdir()
    (plugin_dir / "scripts" / "link.py").symlink_to(outside / "evil.py")
    (plugin_dir / "scripts" / "dirlink").symlink_to(outside)
    add_actions(plugin_dir, [{"id": "go", "type": "script",
                              "script": script.replace("/OUTSIDE", str(outside))}])
    answer = web.client.post("/api/v3/plugins/action",
                             json={"plugin_id": "clock", "action_id": "go"})
    assert envelope_400(answer)["error_code"] == "INVALID_PATH"
    untouched(outside)


@pytest.mark.parametrize("name", ["../outside/victim.png", "/OUTSIDE/victim.png", "..",
                                  "%2e%2e%2fvictim.png", "a/../../victim.png", "victim.png\x00",
                                  "assets/plugins/ticker/uploads/victim.png", ".index.json"])
def test_delete_refuses_every_name_that_is_not_in_the_plugin_uploads(web, outside, name):
    web.client.post("/api/v3/plugins/assets/upload", content_type="multipart/form-data",
                    data={"plugin_id": "clock", "files": [(io.BytesIO(PNG), "keep.png")]})
    answer = web.client.post("/api/v3/plugins/assets/delete", json={
        "plugin_id": "clock", "name": name.replace("/OUTSIDE", str(outside))})
    assert answer.status_code in (400, 404), answer.get_json()
    assert answer.get_json()["error_code"] in ("INVALID_PATH", "UNKNOWN_ASSET")
    untouched(outside)
    assert (web.paths.assets_dir / "plugins/clock/uploads/keep.png").read_bytes() == PNG


def test_a_symlink_in_the_uploads_is_never_followed(web, outside):
    uploads = web.paths.assets_dir / "plugins" / "clock" / "uploads"
    uploads.mkdir(parents=True)
    (uploads / "victim.png").symlink_to(outside / "victim.png")
    (uploads / ".index.json").write_text(json.dumps({"victim.png": {
        "name": "victim.png", "uploaded_at": 1}}))
    answer = web.client.post("/api/v3/plugins/assets/delete",
                             json={"plugin_id": "clock", "name": "victim.png"})
    assert answer.status_code == 404
    listed = web.client.get("/api/v3/plugins/assets/list?plugin_id=clock").get_json()
    assert listed["data"]["files"] == []
    stored = web.client.post("/api/v3/plugins/assets/upload", content_type="multipart/form-data",
                             data={"plugin_id": "clock",
                                   "files": [(io.BytesIO(PNG + b"new"), "victim.png")]})
    assert stored.status_code == 200 and stored.get_json()["data"]["files"][0]["name"] != (
        "victim.png")
    untouched(outside)


def test_an_uploads_folder_that_is_a_symlink_out_is_refused(web, outside):
    plugin_assets = web.paths.assets_dir / "plugins" / "clock"
    plugin_assets.mkdir(parents=True)
    (plugin_assets / "uploads").symlink_to(outside)
    client = web.client
    answers = [
        client.post("/api/v3/plugins/assets/upload", content_type="multipart/form-data",
                    data={"plugin_id": "clock", "files": [(io.BytesIO(PNG), "x.png")]}),
        client.get("/api/v3/plugins/assets/list?plugin_id=clock"),
        client.post("/api/v3/plugins/assets/delete",
                    json={"plugin_id": "clock", "name": "victim.png"}),
    ]
    for answer in answers:
        assert envelope_400(answer)["error_code"] == "INVALID_PATH"
    untouched(outside)


def test_an_uploaded_file_name_cannot_leave_the_uploads_folder(web, outside):
    answer = web.client.post("/api/v3/plugins/assets/upload", content_type="multipart/form-data",
                             data={"plugin_id": "clock", "files": [
                                 (io.BytesIO(PNG), "../../../outside/victim.png"),
                                 (io.BytesIO(PNG), str(outside / "secret.png"))]})
    names = [f["name"] for f in answer.get_json()["data"]["files"]]
    assert names == ["victim.png", "secret.png"]
    uploads = web.paths.assets_dir / "plugins" / "clock" / "uploads"
    assert sorted(p.name for p in uploads.iterdir()) == [".index.json", "secret.png",
                                                          "victim.png"]
    untouched(outside)


def _raw_get(port: int, path: str) -> tuple[int, bytes]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        connection.putrequest("GET", path, skip_accept_encoding=True)
        connection.endheaders()
        response = connection.getresponse()
        return response.status, response.read()
    finally:
        connection.close()


STATIC_PATHS = [
    "/api/v3/plugins/clock/static/../manifest.json",
    "/api/v3/plugins/clock/static/..%2Fmanifest.json",
    "/api/v3/plugins/clock/static/%2e%2e/%2e%2e/%2e%2e/outside/secret.txt",
    "/api/v3/plugins/clock/static/%2e%2e%2f%2e%2e%2f%2e%2e%2foutside%2fsecret.txt",
    "/api/v3/plugins/clock/static/%2Fetc%2Fpasswd",
    "/api/v3/plugins/clock/static//etc/passwd",
    "/api/v3/plugins/clock/static/ok.css%00.png",
    "/api/v3/plugins/clock/static/link.txt",
    "/api/v3/plugins/clock/static/dirlink/secret.txt",
    "/api/v3/plugins/clock/static/.hidden",
    "/api/v3/plugins/%2e%2e/static/secret.txt",
    "/api/v3/plugins/..%2Foutside/static/secret.txt",
    "/api/v3/plugins/clock%00/static/ok.css",
    "/api/v3/plugins/ticker/static/x.css",  # its static folder is a symlink out
]


def test_static_route_over_real_http_never_serves_outside_the_static_folder(tmp_path, outside):
    instance = Instance(tmp_path)
    plugin_dir = write_plugin(instance.plugins_dir, "clock")
    static = plugin_dir / "static"
    static.mkdir()
    (static / "ok.css").write_text("ok")
    (static / ".hidden").write_text(SECRET)
    (static / "link.txt").symlink_to(outside / "secret.txt")
    (static / "dirlink").symlink_to(outside)
    (write_plugin(instance.plugins_dir, "ticker") / "static").symlink_to(outside)
    (outside / "x.css").write_text(SECRET)
    web, url = start_web(instance)
    port = int(url.rsplit(":", 1)[1])
    try:
        assert _raw_get(port, "/api/v3/plugins/clock/static/ok.css") == (200, b"ok")
        results = {path: _raw_get(port, path) for path in STATIC_PATHS}
    finally:
        web.stop()
        (outside / "x.css").unlink()
    for path, (status, body) in results.items():
        # 308: the router merges a doubled slash and redirects to the static route again
        assert status in (400, 404, 308), (path, status)
        assert SECRET.encode() not in body and b"root:" not in body, path
        assert status == 308 or json.loads(body)["status"] == "error", path
    assert b"outside the plugin's static folder" in results[
        "/api/v3/plugins/clock/static/link.txt"][1]
    reached = [path for path, (status, _) in results.items() if status == 400]
    assert len(reached) >= 10, results  # most reach the view and are refused there
    untouched(outside)
