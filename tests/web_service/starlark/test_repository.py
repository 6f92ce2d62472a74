"""The apps repository routes on the real web daemon, against a loopback stand-in of
``tronbyt/apps`` serving the 45 sample apps under ``apps/<name>/``."""

from __future__ import annotations

import json
import os
import socket
from collections.abc import Iterator
from typing import Any

import pytest

from shared.starlark.installed.manifest_yaml import parse_manifest
from shared.starlark.isolated import AppRenderer
from shared.starlark.runtime import AppError
from tests.display_service.helpers import wait_until
from tests.web_service.starlark.web_daemon import APPS, WebDaemon, sample_files, web_daemon
from tests.web_service.store.repo_host import RepoHost

OWNER, NAME = "tronbyt", "apps"
INDEX = json.loads((APPS / "index.json").read_text())
NAMES = [entry["name"] for entry in INDEX]
OFFLINE_NAMES = [entry["name"] for entry in INDEX if not entry["network_or_secret"]]
NETWORK_NAMES = [entry["name"] for entry in INDEX if entry["network_or_secret"]]


def manifests() -> dict[str, dict[str, Any]]:
    return {name: parse_manifest((APPS / name / "manifest.yaml").read_bytes())
            for name in NAMES}


@pytest.fixture(scope="module")
def host() -> Iterator[RepoHost]:
    with RepoHost() as running:
        running.push(OWNER, NAME, {"LICENSE": (APPS / "LICENSE").read_bytes()})
        for name in NAMES:
            running.push(OWNER, NAME, sample_files(name), under=f"apps/{name}")
        yield running


@pytest.fixture(scope="module")
def web(host: RepoHost, tmp_path_factory: pytest.TempPathFactory) -> Iterator[WebDaemon]:
    saved = os.environ.get("LEDPANEL_REPOSITORY_API_URL")
    os.environ["LEDPANEL_REPOSITORY_API_URL"] = host.api_url
    try:
        with web_daemon(tmp_path_factory.mktemp("repository"),
                        {"repository": host.repo_url(OWNER, NAME)}) as running:
            yield running
    finally:
        if saved is None:
            os.environ.pop("LEDPANEL_REPOSITORY_API_URL", None)
        else:
            os.environ["LEDPANEL_REPOSITORY_API_URL"] = saved


def indexed(web: WebDaemon, route: str = "/repository", **params: Any) -> dict[str, Any]:
    """The repository answer once the background index has finished (polled, bounded)."""
    found: dict[str, Any] = {}

    def done() -> bool:
        found.clear()
        found.update(web.data("GET", route, params=params))
        return not found["indexing"]["running"]

    wait_until(done, timeout=120)
    return found


def test_the_index_lists_every_app_with_categories(web: WebDaemon, host: RepoHost) -> None:
    answer = indexed(web)
    assert answer["indexing"] == {"done": 45, "total": 45, "failed": 0, "running": False}
    assert answer["total"] == 45 and answer["pages"] == 1
    assert answer["repository"] == host.repo_url(OWNER, NAME) and answer["branch"] == "main"
    assert sorted(app["id"] for app in answer["apps"]) == sorted(NAMES)
    amazing = next(app for app in answer["apps"] if app["id"] == "amazing")
    assert amazing == {"id": "amazing", "name": "Amazing", "summary": "Draws lovely mazes",
                       "description": amazing["description"], "category": "gaming",
                       "author": "dinosaursrarr", "tags": ["gaming", "art", "retro"],
                       "supports2x": False, "installed": False}
    counts: dict[str, int] = {}
    for manifest in manifests().values():
        if manifest.get("category"):
            counts[manifest["category"]] = counts.get(manifest["category"], 0) + 1
    assert answer["categories"] == [{"name": k, "count": v} for k, v in sorted(counts.items())]
    assert answer["cached_at"] is not None and answer["warning"] is None


def test_search_category_and_pages(web: WebDaemon) -> None:
    indexed(web)
    found = web.data("GET", "/repository", params={"q": "CLOCK"})
    expected = {name for name, m in manifests().items() if "clock" in " ".join(
        [name, m.get("name", ""), m.get("summary", ""), *m.get("tags", [])]).lower()}
    assert {app["id"] for app in found["apps"]} == expected and len(expected) > 3
    both = web.data("GET", "/repository", params={"q": "clock binary"})
    assert [app["id"] for app in both["apps"]] == ["fullybinarytime"]
    gaming = web.data("GET", "/repository", params={"category": "Gaming"})
    assert {app["id"] for app in gaming["apps"]} == {
        name for name, m in manifests().items() if m.get("category") == "gaming"}
    assert gaming["total"] == len(gaming["apps"]) == 5
    later = web.data("GET", "/repository", params={"page": "2"})
    assert later["apps"] == [] and later["page"] == 2 and later["total"] == 45
    for page in ("0", "x", "-1", "99999"):
        web.refused("GET", "/repository", 400, "INVALID_FIELD", params={"page": page})
    web.refused("GET", "/repository", 400, "INVALID_FIELD", params={"q": "x" * 201})


def test_the_index_is_kept_and_a_refresh_fetches_only_changed_manifests(
        web: WebDaemon, host: RepoHost) -> None:
    indexed(web)
    trees, manifests_asked = host.asked("/git/trees/"), host.asked("manifest.yaml")
    indexed(web)
    assert host.asked("/git/trees/") == trees
    host.push(OWNER, NAME, {"manifest.yaml": (APPS / "timer" / "manifest.yaml").read_text()
                            .replace("name: Timer", "name: Egg Timer")}, under="apps/timer")
    refreshed = web.data("POST", "/repository/refresh", params={"q": "egg"})
    assert host.asked("/git/trees/") == trees + 1
    answer = indexed(web, q="egg")
    assert [app["id"] for app in answer["apps"]] == ["timer"], refreshed
    assert host.asked("manifest.yaml") == manifests_asked + 1
    assert (web.instance.cache_dir / "starlark-apps" / "repository" / "index.json").is_file()


def test_an_install_falls_back_to_the_archive_when_the_api_is_rate_limited(
        web: WebDaemon, host: RepoHost) -> None:
    archives = host.asked("/archive/")
    host.rate_limited = True
    try:
        app = web.data("POST", "/repository/install", 201,
                       json={"app_id": "qlock", "replace": True})
    finally:
        host.rate_limited = False
    assert app["id"] == "qlock" and app["source"] == "repository"
    assert host.asked("/archive/") == archives + 1
    assert (web.folder().folder("qlock") / "qlock.star").read_bytes() == (
        APPS / "qlock" / "qlock.star").read_bytes()
    web.data("DELETE", "/apps/qlock")


def test_install_refusals(web: WebDaemon) -> None:
    web.refused("POST", "/repository/install", 404, "APP_NOT_FOUND", json={"app_id": "ghost"})
    web.refused("POST", "/repository/install", 400, "INVALID_PLUGIN_ID",
                json={"app_id": "../apps"})
    web.refused("POST", "/repository/install", 400, "MISSING_PLUGIN_ID", json={})
    assert "ghost" not in web.folder().ids()


def test_every_sample_app_installs_from_the_repository_and_renders(web: WebDaemon,
                                                                  host: RepoHost) -> None:
    for name in NAMES:
        app = web.data("POST", "/repository/install", 201, json={"app_id": name})
        assert app["id"] == name and app["source"] == "repository" and app["problem"] is None
        assert web.section()["apps"][name]["revision"] == app["revision"]
    listings = host.asked("/git/trees/")
    web.refused("POST", "/repository/install", 409, "APP_EXISTS", json={"app_id": "timer"})
    assert host.asked("/git/trees/") == listings  # refused before any download
    again = web.data("POST", "/repository/install", 201,
                     json={"app_id": "timer", "replace": True})
    assert again["revision"] > web.data("GET", "/apps/amazing")["app"]["revision"]
    assert all(app["installed"] for app in indexed(web)["apps"])
    outcomes = _render_all(web)
    rendered = [name for name in OFFLINE_NAMES if outcomes[name] is None]
    assert len(rendered) >= 0.9 * len(OFFLINE_NAMES), outcomes
    for name in NETWORK_NAMES:
        problem = outcomes[name]
        if problem is not None:  # it fetched: the message names the address it wanted
            assert "http" in problem and "://" in problem, (name, problem)
    if not _online():
        failed = [name for name in NETWORK_NAMES if outcomes[name] is not None]
        assert set(failed) >= {"hackneybindicator", "loterias", "natdex", "sailgp"}, outcomes


def _render_all(web: WebDaemon) -> dict[str, str | None]:
    """Each installed app rendered from its installed folder with its schema's defaults,
    with a budget generous enough that a busy machine does not decide the outcome:
    None, or the one-line error."""
    folder = web.folder()
    renderer = AppRenderer()
    outcomes: dict[str, str | None] = {}
    try:
        for app in folder.apps():
            main = str(folder.main_path(app))
            try:
                schema = renderer.schema(main, seconds=5) or {"schema": []}
                config = {f["id"]: f["default"] for f in schema["schema"]
                          if isinstance(f, dict) and "default" in f}
                frames = renderer.render(main, config, width=64, height=32, seconds=15)
                outcomes[app.id] = None if frames.images else "no frames"
            except AppError as err:
                outcomes[app.id] = str(err)
    finally:
        renderer.close()
    return outcomes


def _online() -> bool:
    try:
        socket.getaddrinfo("pokeapi.co", 443)
    except OSError:
        return False
    return True


def test_a_repository_out_of_reach_is_a_502_naming_why(tmp_path, monkeypatch) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        dead = f"http://127.0.0.1:{probe.getsockname()[1]}"
    monkeypatch.setenv("LEDPANEL_REPOSITORY_API_URL", f"{dead}/api")
    with web_daemon(tmp_path / "dead", {"repository": f"{dead}/tronbyt/apps"}) as web:
        refused = web.refused("GET", "/repository", 502, "DOWNLOAD_FAILED")
        assert "could not be fetched" in refused["message"]
        web.refused("POST", "/repository/refresh", 502, "DOWNLOAD_FAILED")
        web.refused("POST", "/repository/install", 502, "DOWNLOAD_FAILED",
                    json={"app_id": "timer"})
    monkeypatch.setenv("LEDPANEL_REPOSITORY_API_URL", "http://10.255.255.1/api")
    with web_daemon(tmp_path / "private",
                    {"repository": "http://10.255.255.1/tronbyt/apps"}) as web:
        refused = web.refused("GET", "/repository", 502, "HOST_REFUSED")
        assert "LEDPANEL_STORE_ALLOW_HOSTS" in refused["message"]
