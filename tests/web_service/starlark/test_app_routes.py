"""The scripted-app routes on the real web daemon: install, settings, removal, previews."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
import requests

from shared.bus import core as keys
from shared.bus.core import Bus
from shared.starlark.installed.render_status import preview_path
from tests.web_service.starlark.web_daemon import (
    HELLO,
    WebDaemon,
    sample_files,
    web_daemon,
    zipped,
)

WEBP = b"RIFF\x24\x00\x00\x00WEBPVP8L" + bytes(24)


@pytest.fixture(scope="module")
def web(tmp_path_factory: pytest.TempPathFactory) -> Iterator[WebDaemon]:
    with web_daemon(tmp_path_factory.mktemp("starlark-web")) as running:
        yield running


def test_status_and_the_built_in_renderer(web: WebDaemon) -> None:
    status = web.data("GET", "/status")
    assert status["renderer"] == "built-in"
    assert status["runtime"].startswith("ledpanel-starlark ")
    assert status["settings"] == {"render_interval": 300, "render_seconds": 3.0,
                                  "scale": "magnify"}
    answer = web.data("POST", "/renderer/install")
    assert answer["installed"] is True and answer["renderer"] == "built-in"


def test_an_app_from_source_is_installed_configured_and_removed(web: WebDaemon) -> None:
    app = web.data("POST", "/apps", 201, json={"app_id": "hello", "source": HELLO})
    assert app["id"] == "hello" and app["mode"] == "starlark-hello"
    assert app["enabled"] is True and app["duration"] == 15 and app["rendered_at"] is None
    assert (web.folder().folder("hello") / "hello.star").read_text() == HELLO
    entry = web.section()["apps"]["hello"]
    assert entry["revision"] == app["revision"] > 0
    assert entry["config"] == {} and entry["enabled"] is True
    assert Bus(web.instance.cache_dir).read(keys.CONFIG_CHANGED)["sections"] == [
        "starlark-apps"]
    assert "hello" in [a["id"] for a in web.data("GET", "/apps")]

    changed = web.data("PATCH", "/apps/hello", json={
        "duration": 30, "enabled": False, "config": {"who": "Ann", "blink": True}})
    assert changed["entry"]["config"] == {"who": "Ann", "blink": "true"}
    stored = web.section()["apps"]["hello"]
    assert stored["duration"] == 30 and stored["enabled"] is False
    assert stored["config"] == {"who": "Ann", "blink": "true"}
    web.data("POST", "/apps/hello", json={"config": {"blink": None}, "enabled": True})
    assert web.section()["apps"]["hello"]["config"] == {"who": "Ann"}

    web.data("DELETE", "/apps/hello")
    assert not web.folder().folder("hello").exists()
    assert "hello" not in web.section()["apps"]
    web.refused("GET", "/apps/hello", 404, "APP_NOT_FOUND")


def test_an_apps_schema_comes_from_the_worker_with_its_form(web: WebDaemon) -> None:
    files = sample_files("amazing")
    web.data("POST", "/upload", 201, files={"file": ("amazing.zip", zipped(files, "amazing"))})
    found = web.data("GET", "/apps/amazing")
    assert found["app"]["name"] == "Amazing" and found["app"]["category"] == "gaming"
    assert [f["id"] for f in found["schema"]["schema"]] == ["algorithm", "foreground",
                                                            "background"]
    assert found["form"]["properties"]["foreground"]["x-widget"] == "color-picker"
    assert found["form"]["properties"]["algorithm"]["enum"][0] == "#"
    assert found["unsupported"] == [] and found["schema_error"] is None
    assert found["entry"]["duration"] == 15


def test_a_second_install_is_refused_unless_it_replaces(web: WebDaemon) -> None:
    first = web.data("POST", "/upload", 201,
                     files={"file": ("greeter.star", HELLO.encode())})
    web.data("PATCH", "/apps/greeter", json={"config": {"who": "Bo"}})
    web.refused("POST", "/upload", 409, "APP_EXISTS",
                files={"file": ("greeter.star", HELLO.encode())})
    newer = HELLO.replace('"hi"', '"hello"')
    second = web.data("POST", "/apps", 201, data={"replace": "true"},
                      files={"file": ("greeter.star", newer.encode())})
    assert second["revision"] > first["revision"]
    assert web.section()["apps"]["greeter"]["config"] == {"who": "Bo"}
    assert (web.folder().folder("greeter") / "greeter.star").read_text() == newer


@pytest.mark.parametrize(("route", "method"), [
    ("/apps/Upper", "GET"), ("/apps/a.b", "PATCH"), ("/apps/-dash", "DELETE"),
    ("/apps/%2e%2e", "GET"), ("/apps/.hidden/preview", "GET"),
])
def test_a_bad_app_id_is_the_projects_id_error(web: WebDaemon, route: str,
                                               method: str) -> None:
    web.refused(method, route, 400, "INVALID_PLUGIN_ID", json={})


@pytest.mark.parametrize(("route", "method"), [
    ("/apps/ghost", "GET"), ("/apps/ghost", "PATCH"), ("/apps/ghost", "POST"),
    ("/apps/ghost", "DELETE"), ("/apps/ghost/preview", "GET"),
])
def test_an_unknown_app_is_not_found(web: WebDaemon, route: str, method: str) -> None:
    web.refused(method, route, 404, "APP_NOT_FOUND", json={})


@pytest.mark.parametrize(("name", "body", "code"), [
    ("broken.zip", b"PK\x03\x04 not really", "INVALID_APP"),
    ("notes.txt", b"hello", "INVALID_APP"),
    ("nomain.star", b"x = 1\n", "INVALID_APP"),
    ("latin.star", b"def main(config):\n    return '\xe9'\n", "INVALID_APP"),
    ("escape.zip", zipped({"../evil.star": HELLO}), "INVALID_APP"),
    ("nostar.zip", zipped({"README.md": "hi"}), "INVALID_APP"),
    (".hidden.star", HELLO.encode(), "INVALID_PATH"),
    ("!!!.star", HELLO.encode(), "INVALID_APP"),
])
def test_a_bad_package_is_refused_saying_why(web: WebDaemon, name: str, body: bytes,
                                             code: str) -> None:
    before = web.config()
    refused = web.refused("POST", "/upload", 400, code, files={"file": (name, body)})
    assert refused["message"]
    assert web.config() == before


def test_bad_bodies_are_refused(web: WebDaemon) -> None:
    web.refused("POST", "/apps", 400, "INVALID_FIELD", json={"app_id": "x"})
    web.refused("POST", "/apps", 400, "INVALID_PLUGIN_ID",
                json={"app_id": "No/Way", "source": HELLO})
    web.refused("POST", "/apps", 400, "INVALID_JSON", data=b"{",
                headers={"Content-Type": "application/json"})
    web.refused("POST", "/upload", 400, "NO_FILES", json={"source": HELLO})
    web.refused("POST", "/upload", 400, "NO_FILES", data={"app_id": "x"},
                files={"other": ("x.star", HELLO.encode())})
    web.data("POST", "/apps", 201, json={"app_id": "checked", "source": HELLO})
    for body in ({"duration": 2}, {"duration": "10"}, {"enabled": "yes"},
                 {"config": {"a": ["list"]}}, {"config": "who=Ann"}, {"colour": "red"}):
        web.refused("PATCH", "/apps/checked", 400, "INVALID_FIELD", json=body)
    assert web.section()["apps"]["checked"]["duration"] == 15


def test_an_oversized_upload_is_refused_before_it_is_read(web: WebDaemon) -> None:
    big = b"#" * (17 * 1024 * 1024)
    try:
        answer = web.call("POST", "/upload", files={"file": ("big.star", big)})
    except requests.ConnectionError:  # the server may close before all is sent
        return
    assert answer.status_code == 413, answer.text
    assert answer.json()["error_code"] in ("PAYLOAD_TOO_LARGE", "FILE_TOO_LARGE")
    assert "big" not in web.folder().ids()


def test_an_app_larger_than_the_usual_request_cap_is_taken(web: WebDaemon) -> None:
    files = {"big.star": HELLO, "images/noise.bin": bytes(range(256)) * (12 * 1024)}
    body = zipped(files)
    assert 3 * 1024 * 1024 < len(body) < 16 * 1024 * 1024
    app = web.data("POST", "/upload", 201, files={"file": ("big.zip", body)})
    assert app["id"] == "big"
    assert (web.folder().folder("big") / "images" / "noise.bin").stat().st_size == 3 * 2**20


def test_render_status_and_previews_come_from_the_display_files(web: WebDaemon) -> None:
    web.data("POST", "/apps", 201, json={"app_id": "shown", "source": HELLO})
    bus = Bus(web.instance.cache_dir)
    web.refused("GET", "/apps/shown/preview", 404, "NOT_RENDERED")
    bus.publish(keys.STARLARK_APPS, {"runtime": "x", "updated_at": 5.0, "apps": {"shown": {
        "rendered_at": 100.5, "render_ms": 40, "frames": 2, "delay_ms": 50, "width": 64,
        "height": 32, "scale": "magnify", "error": "boom", "errors": 1,
        "next_render_at": 400.5}}})
    path = preview_path(web.instance.cache_dir, "shown")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(WEBP)
    app = next(a for a in web.data("GET", "/status")["apps"] if a["id"] == "shown")
    assert (app["rendered_at"], app["render_ms"], app["frames"], app["error"]) == (
        100.5, 40, 2, "boom")
    assert app["preview_url"] == "/api/v3/starlark/apps/shown/preview?v=100.5"
    answer = requests.get(web.url + app["preview_url"], timeout=10)
    assert answer.status_code == 200 and answer.content == WEBP
    assert answer.headers["Content-Type"] == "image/webp"
    path.write_bytes(b"<html>not a picture</html>")
    web.refused("GET", "/apps/shown/preview", 404, "NOT_RENDERED")
    bus.path(keys.STARLARK_APPS).write_bytes(b"garbage")
    app = web.data("GET", "/apps/shown")["app"]
    assert app["rendered_at"] is None and app["error"] is None


def test_on_demand_takes_each_enabled_apps_mode(web: WebDaemon) -> None:
    folder = web.instance.plugins_dir / "starlark-apps"
    folder.mkdir()
    (folder / "manifest.json").write_text(json.dumps({
        "id": "starlark-apps", "name": "Scripted apps", "version": "1.0.0",
        "author": "tests", "entry_point": "manager.py", "class_name": "Plugin",
        "display_modes": ["starlark-apps"]}))
    (folder / "config_schema.json").write_text(json.dumps({"type": "object"}))
    (folder / "manager.py").write_text("raise SystemExit('the web never imports this')\n")
    web.data("POST", "/apps", 201, json={"app_id": "ondemand", "source": HELLO})

    def modes() -> list[str]:
        records = requests.get(f"{web.url}/api/v3/plugins/installed", timeout=10).json()
        return next(r for r in records["data"] if r["id"] == "starlark-apps")["display_modes"]

    assert "starlark-ondemand" in modes() and modes() == sorted(modes())
    start = f"{web.url}/api/v3/display/on-demand/start"
    accepted = requests.post(start, json={"plugin_id": "starlark-apps",
                                          "mode": "starlark-ondemand"}, timeout=10)
    assert accepted.status_code in (200, 202), accepted.text
    refused = requests.post(start, json={"plugin_id": "starlark-apps",
                                         "mode": "starlark-ghost"}, timeout=10)
    assert refused.status_code == 400 and refused.json()["error_code"] == "UNKNOWN_MODE"
    web.data("PATCH", "/apps/ondemand", json={"enabled": False})
    assert "starlark-ondemand" not in modes()
    web.data("DELETE", "/apps/ondemand")
