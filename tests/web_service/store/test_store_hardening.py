"""The store's web side against hostile settings and files: the token goes only to the
API the operator chose, garbage state files answer 200 with a warning, a registry
refresh never holds other requests, a plugin is found by its manifest id, and a
repository source is checked by the installer's parser when added."""

from __future__ import annotations

import json
import logging
import os
import threading
import time
from pathlib import Path

import pytest
import requests

from tests.daemons import Instance, start_web
from tests.web_service.store.conftest import RegistryWeb
from tests.web_service.store.ops_daemons import MONO, OWNER, push_plugin, serve_registry
from tests.web_service.store.sample_plugins import plugin_files, registry, registry_entry
from web_service.store.auto_update import auto_updater
from web_service.store.registry import catalog as registry_module
from web_service.store.registry.catalog import current_registry
from web_service.store.registry.sources import DEFAULT_API_URL, api_token_for, token_refusal
from web_service.store.update import update_plugin
from web_service.store.work import store_context, uninstall_work

pytestmark = pytest.mark.timeout(120)

STATUS = "/api/v3/plugins/store/github-status"
LIST = "/api/v3/plugins/store/list"
SOURCES = "/api/v3/plugins/store/sources"
AUTO = "/api/v3/plugins/store/auto-update"
TOKEN = "ghp_secretvalue123"
SECRETS = {"github": {"api_token": TOKEN}}


def _noop(progress: dict) -> None:
    return None


def _api_from_settings(web: RegistryWeb, monkeypatch: pytest.MonkeyPatch) -> None:
    """Name the loopback API in the settings (not the environment), token configured."""
    monkeypatch.delenv("LEDPANEL_REPOSITORY_API_URL")
    web.paths.secrets_file.write_text(json.dumps(SECRETS))
    answer = web.client.post("/api/v3/config/main", json={
        "plugin_system": {"repository_api_url": web.host.api_url}})
    assert answer.status_code == 200, answer.get_json()


# -- 1. the token --------------------------------------------------------------------

def test_the_token_goes_only_over_https_to_the_default_or_the_environments_api() -> None:
    other = {"plugin_system": {"repository_api_url": "https://evil.example/api"}}
    plain = {"plugin_system": {"repository_api_url": "http://127.0.0.1:9/api"}}
    assert api_token_for({}, SECRETS, env={}) == TOKEN
    assert api_token_for({"plugin_system": {"repository_api_url": DEFAULT_API_URL + "/"}},
                         SECRETS, env={}) == TOKEN
    assert api_token_for(other, SECRETS, env={}) is None
    assert "LEDPANEL_REPOSITORY_API_URL" in str(token_refusal(other, env={}))
    assert api_token_for(plain, SECRETS, env={}) is None
    env = {"LEDPANEL_REPOSITORY_API_URL": "https://ghe.example/api/v3"}
    assert api_token_for(other, SECRETS, env=env) == TOKEN
    http_env = {"LEDPANEL_REPOSITORY_API_URL": "http://127.0.0.1:9/api"}
    assert api_token_for({}, SECRETS, env=http_env) is None
    assert "https only" in str(token_refusal({}, env=http_env))
    assert api_token_for({}, {}, env={}) is None


def test_an_api_url_from_the_settings_never_receives_the_token(
        registry_web: RegistryWeb, monkeypatch: pytest.MonkeyPatch) -> None:
    _api_from_settings(registry_web, monkeypatch)
    status = registry_web.client.get(STATUS).get_json()["data"]
    assert status["reachable"] is True
    assert (status["token_configured"], status["token_used"]) == (True, False)
    assert "only" in status["token_note"]

    push_plugin(registry_web.host, "alpha")
    serve_registry(registry_web.host, "alpha")
    answer = registry_web.client.post("/api/v3/plugins/install",
                                      json={"plugin_id": "alpha", "wait": 60})
    assert answer.status_code == 200, answer.get_json()
    assert registry_web.host.asked("/api/repos/") >= 1
    assert registry_web.host.auth == []


def test_an_http_api_url_from_the_environment_gets_no_token_either(
        registry_web: RegistryWeb) -> None:
    registry_web.paths.secrets_file.write_text(json.dumps(SECRETS))
    status = registry_web.client.get(STATUS).get_json()["data"]
    assert (status["token_configured"], status["token_used"]) == (True, False)
    assert "https only" in status["token_note"]
    assert registry_web.host.auth == []


# -- 2. garbage state files ----------------------------------------------------------

def test_a_cached_entry_of_the_wrong_shape_is_dropped_with_a_warning(
        registry_web: RegistryWeb, caplog: pytest.LogCaptureFixture) -> None:
    repo = registry_web.host.repo_url("community", "plugins")
    registry_web.host.serve("plugins.json", registry(registry_entry("clock", repo),
                                                     registry_entry("radar", repo)))
    assert len(registry_web.store_list()["plugins"]) == 2
    cache = registry_web.paths.cache_dir / "store" / "registry.json"
    data = json.loads(cache.read_text())
    data["plugins"][1]["tags"] = 5
    data["plugins"].append({"id": "../up", "repo": repo})
    cache.write_text(json.dumps(data))
    with caplog.at_level(logging.WARNING):
        found = registry_web.store_list(query="clock")
        assert [e["id"] for e in found["plugins"]] == ["clock"]
        assert [e["id"] for e in registry_web.store_list()["plugins"]] == ["clock", "radar"]
    assert "cached entries dropped" in caplog.text
    assert registry_web.host.asked("/plugins.json") == 1  # the cache still served


def test_a_cache_with_an_absurd_time_is_fetched_again(
        registry_web: RegistryWeb, caplog: pytest.LogCaptureFixture) -> None:
    repo = registry_web.host.repo_url("community", "plugins")
    registry_web.host.serve("plugins.json", registry(registry_entry("clock", repo)))
    registry_web.store_list()
    cache = registry_web.paths.cache_dir / "store" / "registry.json"
    cache.write_text(cache.read_text().replace('"fetched_ts":', '"fetched_ts":1e308,"x":'))
    with caplog.at_level(logging.WARNING):
        assert [e["id"] for e in registry_web.store_list()["plugins"]] == ["clock"]
    assert "not a usable cache" in caplog.text


@pytest.mark.parametrize("state", [
    {"last_run": {"at": 1e20, "summary": "x"}},
    {"armed_at": 1e308, "handled": 1e308},
    {"last_run": "nonsense", "handled": "yesterday"},
    [1, 2],
])
def test_a_garbage_auto_update_state_answers_and_keeps_the_weekly_update_on(
        registry_web: RegistryWeb, caplog: pytest.LogCaptureFixture, state: object) -> None:
    from web_service.store.auto_schedule import read_schedule
    from web_service.store.auto_update import AutoUpdater

    config = {"timezone": "UTC",
              "auto_update": {"enabled": True, "day": "monday", "time": "03:00"}}
    path = registry_web.paths.cache_dir / "store" / "auto_update.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(state, dict):
        state = {"version": 1, "armed_key": read_schedule(config).key, **state}
    path.write_text(json.dumps(state))
    with caplog.at_level(logging.WARNING):
        updater = AutoUpdater(registry_web.app, path.parent, check_seconds=60)
    assert "auto update:" in caplog.text
    registry_web.app.extensions["ledpanel.auto_update"] = updater
    answer = registry_web.client.post("/api/v3/config/main", json=config)
    assert answer.status_code == 200, answer.get_json()
    answer = registry_web.client.get(AUTO)
    assert answer.status_code == 200, answer.get_json()
    data = answer.get_json()["data"]
    assert data["enabled"] is True and data["next_run"] is not None
    assert data["last_run"]["at"] is None
    # Armed again from now (a usable time saved), so the next slot runs when it comes.
    assert auto_updater(registry_web.app) is updater
    saved = json.loads(path.read_text())
    assert abs(saved["armed_at"] - time.time()) < 60
    assert saved.get("handled") is None


def test_a_fifo_in_place_of_the_auto_update_state_does_not_block_start(
        tmp_path: Path) -> None:
    instance = Instance(tmp_path)
    store = instance.cache_dir / "store"
    store.mkdir(parents=True)
    os.mkfifo(store / "auto_update.json")
    web, url = start_web(instance, timeout=20)
    try:
        answer = requests.get(url + AUTO, timeout=5)
        assert answer.status_code == 200, answer.text
    finally:
        web.stop()
    assert "a FIFO, not a regular file" in web.output()


# -- 4. a refresh never holds other requests ---------------------------------------

def test_a_list_request_during_a_slow_refresh_answers_from_the_cache(
        registry_web: RegistryWeb) -> None:
    repo = registry_web.host.repo_url("community", "plugins")
    registry_web.host.serve("plugins.json", registry(registry_entry("clock", repo)))
    registry_web.store_list()
    cache = registry_web.paths.cache_dir / "store" / "registry.json"
    data = json.loads(cache.read_text())
    cache.write_text(json.dumps({**data, "fetched_ts": data["fetched_ts"] - 7200}))
    registry_web.host.delay["/plugins.json"] = 3.0
    first: dict = {}
    slow = threading.Thread(target=lambda: first.update(
        registry_web.app.test_client().get(LIST).get_json()))
    slow.start()
    try:
        time.sleep(0.5)
        began = time.monotonic()
        second = registry_web.store_list()
        took = time.monotonic() - began
    finally:
        slow.join(15)
    assert took < 1.5, took
    assert second["refreshing"] is True and [e["id"] for e in second["plugins"]] == ["clock"]
    assert first["data"]["refreshing"] is False


def test_a_refresh_ends_at_its_deadline_and_fetches_sources_side_by_side(
        registry_web: RegistryWeb, monkeypatch: pytest.MonkeyPatch) -> None:
    host = registry_web.host
    repo = host.repo_url("community", "plugins")
    host.serve("plugins.json", registry(registry_entry("clock", repo)))
    for name in ("a", "b", "c"):
        url = host.serve(f"{name}.json", registry(registry_entry(f"p{name}", repo)))
        answer = registry_web.client.post(SOURCES, json={"kind": "registry", "url": url})
        assert answer.status_code == 200, answer.get_json()
        host.delay[f"/{name}.json"] = 1.5
    host.delay["/c.json"] = 6.0
    monkeypatch.setattr(registry_module, "REFRESH_DEADLINE", 3.0)
    began = time.monotonic()
    data = registry_web.store_list(refresh="1")
    assert time.monotonic() - began < 4.5
    assert [e["id"] for e in data["plugins"]] == ["clock", "pa", "pb"]
    assert data["stale"] is True
    assert any("c.json did not answer within 3 s" in w for w in data["warnings"])


def test_sources_still_queued_when_the_refresh_runs_out_are_warnings_not_a_500(
        registry_web: RegistryWeb, monkeypatch: pytest.MonkeyPatch) -> None:
    host = registry_web.host
    repo = host.repo_url("community", "plugins")
    host.serve("plugins.json", registry(registry_entry("clock", repo)))
    names = ("a", "b", "c", "d", "e")  # more than the workers: one waits in the queue
    for name in names:
        url = host.serve(f"{name}.json", registry(registry_entry(f"p{name}", repo)))
        answer = registry_web.client.post(SOURCES, json={"kind": "registry", "url": url})
        assert answer.status_code == 200, answer.get_json()
        host.delay[f"/{name}.json"] = 4.0
    monkeypatch.setattr(registry_module, "REFRESH_DEADLINE", 1.0)
    data = registry_web.store_list(refresh="1")
    assert data["stale"] is True
    assert any("was not fetched: the refresh ran out of its 1 s" in w
               for w in data["warnings"])
    assert any("did not answer within 1 s" in w for w in data["warnings"])


# -- 7. a folder named otherwise than its id -------------------------------------------

def test_a_plugin_in_a_folder_named_otherwise_is_updated_and_uninstalled(
        registry_web: RegistryWeb) -> None:
    host = registry_web.host
    push_plugin(host, "weather")
    serve_registry(host, "weather")
    svc = registry_web.app.extensions["ledpanel"]
    plugins = registry_web.paths.plugins_dir()
    answer = registry_web.client.post("/api/v3/plugins/install",
                                      json={"plugin_id": "weather", "wait": 60})
    assert answer.status_code == 200, answer.get_json()
    (plugins / "weather").rename(plugins / "ledpanel-weather")
    ctx = store_context(svc)
    assert ctx.folder_of("weather") == plugins / "ledpanel-weather"
    assert "weather" in ctx.installed_ids()

    push_plugin(host, "weather", version="2.0.0")
    result = update_plugin(ctx, "weather", lambda i: current_registry(svc).find(i), _noop)
    assert (result["update_status"], result["version"]) == ("updated", "2.0.0")
    assert not (plugins / "ledpanel-weather").exists()
    assert json.loads((plugins / "weather" / "manifest.json").read_text())["version"] == \
        "2.0.0"

    (plugins / "weather").rename(plugins / "ledpanel-weather")
    outcome = uninstall_work(svc, "weather", False)(_noop)
    assert outcome["removed_from"] == str(plugins)
    assert not (plugins / "ledpanel-weather").exists()


def test_uninstall_of_a_renamed_development_link_leaves_its_target(
        registry_web: RegistryWeb, tmp_path: Path) -> None:
    checkout = tmp_path / "checkout"
    checkout.mkdir()
    for name, data in plugin_files("radar").items():
        (checkout / name).write_bytes(data)
    dev = registry_web.paths.dev_plugins_dir
    dev.mkdir(parents=True, exist_ok=True)
    (dev / "my-radar").symlink_to(checkout)
    svc = registry_web.app.extensions["ledpanel"]
    outcome = uninstall_work(svc, "radar", False)(_noop)
    assert outcome["removed_from"] == str(dev)
    assert not os.path.lexists(dev / "my-radar")
    assert (checkout / "manifest.json").is_file()


# -- 8. one repository URL parser --------------------------------------------------------

@pytest.mark.parametrize("url", ["https://github.com/owner/name/tree/../../x",
                                 "https://github.com/owner/name/tree/main/../up",
                                 "https://github.com/owner",
                                 "https://github.com/owner/name/blob/main/x"])
def test_a_repository_source_the_installer_would_refuse_is_refused_when_added(
        registry_web: RegistryWeb, url: str) -> None:
    answer = registry_web.client.post(SOURCES, json={"kind": "repository", "url": url})
    assert answer.status_code == 400, answer.get_json()
    body = answer.get_json()
    assert body["status"] == "error" and body["error_code"] == "INVALID_FIELD"
    assert body["message"].startswith("url ")
    listed = registry_web.client.get(SOURCES).get_json()["data"]["sources"]
    assert [s["url"] for s in listed if s["origin"] == "user"] == []


def test_a_repository_source_with_a_folder_lists_that_folders_plugin(
        registry_web: RegistryWeb) -> None:
    host = registry_web.host
    push_plugin(host, "radar")
    serve_registry(host)
    url = f"{host.repo_url(OWNER, MONO)}/tree/main/plugins/radar"
    answer = registry_web.client.post(SOURCES, json={"kind": "repository", "url": url})
    assert answer.status_code == 200, answer.get_json()
    found = registry_web.store_list(query="radar")["plugins"]
    assert [(e["id"], e["plugin_path"], e["repo"]) for e in found] == [
        ("radar", "plugins/radar", host.repo_url(OWNER, MONO))]
