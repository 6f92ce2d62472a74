"""The store's catalogue routes: list and search, host status, sources."""

from __future__ import annotations

import json
import logging

import pytest
import requests

from tests.daemons import Instance, start_web
from tests.web_service.store.conftest import RegistryWeb
from tests.web_service.store.repo_host import RepoHost
from tests.web_service.store.sample_plugins import registry, registry_entry
from web_service.store.registry import catalog as registry_module

LIST = "/api/v3/plugins/store/list"
SOURCES = "/api/v3/plugins/store/sources"


@pytest.fixture(autouse=True)
def _no_retry_pause(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(registry_module, "RETRY_AFTER", 0.0)


def community(web: RegistryWeb) -> None:
    repo = web.host.repo_url("community", "plugins")
    web.host.serve("plugins.json", registry(
        registry_entry("clock", repo, version="1.2.0", name="Big Clock",
                       category="time", tags=["digital", "24h"]),
        registry_entry("hockey-scores", repo, name="Hockey Scores", category="sports",
                       description="NHL live scores", author="Jane Ice",
                       tags=["nhl", "live"]),
        registry_entry("weather", repo, category="Weather", tags=["forecast"])))


def ids(data: dict) -> list[str]:
    return [entry["id"] for entry in data["plugins"]]


def test_the_list_searches_every_word_on_the_documented_fields(registry_web: RegistryWeb) -> None:
    community(registry_web)
    everything = registry_web.store_list()
    assert ids(everything) == ["clock", "hockey-scores", "weather"]
    assert everything["categories"] == ["sports", "time", "Weather"]
    assert everything["stale"] is False and everything["fetched_at"]
    for query, expected in [("HOCKEY", ["hockey-scores"]), ("nhl", ["hockey-scores"]),
                            ("jane ice", ["hockey-scores"]), ("jane clock", []),
                            ("live scores", ["hockey-scores"]), ("24H", ["clock"]),
                            ("weather", ["weather"]), ("big", ["clock"]),
                            ("  ", ["clock", "hockey-scores", "weather"])]:
        assert ids(registry_web.store_list(query=query)) == expected, query
    assert ids(registry_web.store_list(q="hockey")) == ["clock", "hockey-scores", "weather"]
    assert ids(registry_web.store_list(category="weather")) == ["weather"]
    assert ids(registry_web.store_list(category="sports", query="clock")) == []
    assert registry_web.host.asked("/plugins.json") == 1


def test_each_entry_says_whether_and_which_version_is_installed(
        registry_web: RegistryWeb) -> None:
    community(registry_web)
    entries = {e["id"]: e for e in registry_web.store_list()["plugins"]}
    assert entries["clock"]["installed"] is True
    assert entries["clock"]["installed_version"] == "1.0.0"
    assert entries["clock"]["latest_version"] == "1.2.0"
    assert entries["weather"]["installed"] is False
    assert entries["weather"]["installed_version"] is None


def test_refresh_fetches_again_and_an_offline_host_serves_the_cache_stale(
        registry_web: RegistryWeb) -> None:
    community(registry_web)
    registry_web.store_list()
    registry_web.store_list()
    assert registry_web.host.asked("/plugins.json") == 1
    registry_web.store_list(refresh="1")
    assert registry_web.host.asked("/plugins.json") == 2
    registry_web.host.status["/plugins.json"] = 503
    data = registry_web.store_list(refresh="1")
    assert data["stale"] is True and ids(data) == ["clock", "hockey-scores", "weather"]
    assert any("HTTP 503" in warning for warning in data["warnings"])


def test_no_cache_and_no_registry_answers_registry_unavailable(
        registry_web: RegistryWeb) -> None:
    registry_web.host.status["/plugins.json"] = 500
    answer = registry_web.client.get(LIST)
    assert answer.status_code == 503
    body = answer.get_json()
    assert body["status"] == "error" and body["error_code"] == "REGISTRY_UNAVAILABLE"
    assert registry_web.registry_url in body["message"]
    assert registry_web.client.get(LIST, query_string={"query": "x" * 201}).status_code == 400


def test_installed_plugins_and_pages_never_reach_the_registry_host(
        registry_web: RegistryWeb) -> None:
    community(registry_web)
    for path in ("/api/v3/plugins/installed", "/", "/v3/partials/plugin-manager",
                 "/v3/partials/plugin-store", "/v3/partials/general", SOURCES):
        assert registry_web.client.get(path).status_code == 200, path
    assert registry_web.host.requests == []


def test_github_status_says_a_token_is_set_without_showing_it(
        registry_web: RegistryWeb) -> None:
    status = registry_web.client.get("/api/v3/plugins/store/github-status").get_json()["data"]
    assert status["reachable"] is True and status["token_configured"] is False
    assert status["api_url"] == registry_web.host.api_url
    assert status["rate_limit"]["limit"] == 60 and status["rate_limit"]["remaining"] == 60
    assert registry_web.host.auth == []
    token = "ghp_secretvalue123"
    registry_web.paths.secrets_file.write_text(json.dumps({"github": {"api_token": token}}))
    registry_web.host.remaining = 17
    answer = registry_web.client.get("/api/v3/plugins/store/github-status")
    assert token not in answer.get_data(as_text=True)
    status = answer.get_json()["data"]
    assert status["token_configured"] is True and status["rate_limit"]["remaining"] == 17
    # The loopback API is plain http: the token is not sent (https only).
    assert status["token_used"] is False and registry_web.host.auth == []


def test_github_status_of_an_unreachable_host(registry_web: RegistryWeb,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LEDPANEL_REPOSITORY_API_URL", "http://127.0.0.1:9/api")
    status = registry_web.client.get("/api/v3/plugins/store/github-status").get_json()["data"]
    assert status["reachable"] is False and status["rate_limit"] is None
    assert status["api_url"] == "http://127.0.0.1:9/api" and status["error"]


def test_sources_are_added_listed_searched_and_removed(registry_web: RegistryWeb) -> None:
    community(registry_web)
    repo = registry_web.host.repo_url("friends", "plugins")
    extra = registry_web.host.serve("friends.json", registry(registry_entry("lava", repo)))
    listed = registry_web.client.get(SOURCES).get_json()["data"]["sources"]
    assert listed == [{"kind": "registry", "url": registry_web.registry_url,
                       "origin": "environment", "removable": False}]
    answer = registry_web.client.post(SOURCES, json={"kind": "registry", "url": extra})
    assert answer.status_code == 200
    assert answer.get_json()["data"]["sources"][1] == {
        "kind": "registry", "url": extra, "origin": "user", "removable": True}
    stored = json.loads(registry_web.paths.config_file.read_text())
    assert stored["plugin_system"]["store_sources"] == [{"kind": "registry", "url": extra}]
    assert list(registry_web.paths.backups_dir.glob("config.json.backup.*"))
    data = registry_web.store_list()
    assert ids(data)[-1] == "lava" and data["plugins"][-1]["source"] == extra
    answer = registry_web.client.delete(SOURCES, json={"url": extra})
    assert answer.status_code == 200 and len(answer.get_json()["data"]["sources"]) == 1
    assert "lava" not in ids(registry_web.store_list())


@pytest.mark.parametrize(("body", "code"), [
    ({"kind": "registry", "url": "ftp://example.com/p.json"}, "INVALID_FIELD"),
    ({"kind": "registry", "url": "file:///etc/passwd"}, "INVALID_FIELD"),
    ({"kind": "registry", "url": "https://example.com/" + "a" * 600}, "INVALID_FIELD"),
    ({"kind": "mirror", "url": "https://example.com/p.json"}, "INVALID_FIELD"),
    ({"kind": "registry", "url": 5}, "INVALID_FIELD"),
    ({"kind": "registry"}, "INVALID_FIELD"),
])
def test_a_bad_source_is_refused_with_one_clear_message(
        registry_web: RegistryWeb, body: dict, code: str) -> None:
    before = registry_web.paths.config_file.read_text()
    answer = registry_web.client.post(SOURCES, json=body)
    assert answer.status_code == 400
    assert answer.get_json()["error_code"] == code and answer.get_json()["message"]
    assert registry_web.paths.config_file.read_text() == before


def test_duplicates_the_cap_and_the_registry_itself_are_refused(
        registry_web: RegistryWeb) -> None:
    def post(url: str) -> dict:
        return registry_web.client.post(SOURCES, json={"kind": "repository", "url": url}
                                        ).get_json()

    assert post(registry_web.registry_url)["error_code"] == "SOURCE_EXISTS"
    for index in range(20):
        assert post(f"https://example.com/owner/p{index}")["status"] == "success"
    assert post("https://example.com/owner/p3")["error_code"] == "SOURCE_EXISTS"
    assert post("https://example.com/owner/p20")["error_code"] == "TOO_MANY_SOURCES"
    gone = registry_web.client.delete(SOURCES, json={"url": registry_web.registry_url})
    assert gone.status_code == 400 and gone.get_json()["error_code"] == "SOURCE_NOT_REMOVABLE"
    assert "cannot be removed" in gone.get_json()["message"]
    unknown = registry_web.client.delete(SOURCES, json={"url": "https://nowhere.example/x"})
    assert unknown.get_json()["error_code"] == "UNKNOWN_SOURCE"


@pytest.mark.parametrize(("change", "field"), [
    ({"registry_url": "javascript:alert(1)"}, "plugin_system.registry_url"),
    ({"repository_api_url": 12}, "plugin_system.repository_api_url"),
    ({"store_sources": [{"kind": "registry", "url": "ftp://x"}]},
     "plugin_system.store_sources"),
    ({"store_sources": [{"kind": "registry", "url": "https://a.example/p.json",
                         "token": "x"}]}, "plugin_system.store_sources"),
    ({"store_sources": "https://a.example/p.json"}, "plugin_system.store_sources"),
])
def test_every_save_path_checks_the_store_settings(registry_web: RegistryWeb,
                                                   change: dict, field: str) -> None:
    answer = registry_web.client.post("/api/v3/config/main", json={"plugin_system": change})
    assert answer.status_code == 400, answer.get_json()
    assert answer.get_json()["details"]["field"] == field
    raw = json.loads(registry_web.paths.config_file.read_text())
    raw["plugin_system"].update(change)
    answer = registry_web.client.post("/api/v3/config/raw/main", json=raw)
    assert answer.status_code == 400, answer.get_json()


def test_a_saved_registry_url_is_used_when_the_environment_names_none(
        registry_web: RegistryWeb, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("LEDPANEL_REGISTRY_URL")
    repo = registry_web.host.repo_url("community", "plugins")
    url = registry_web.host.serve("mine.json", registry(registry_entry("mine", repo)))
    answer = registry_web.client.post("/api/v3/config/main",
                                      json={"plugin_system": {"registry_url": url}})
    assert answer.status_code == 200, answer.get_json()
    assert ids(registry_web.store_list()) == ["mine"]
    assert registry_web.client.get(SOURCES).get_json()["data"]["sources"][0]["origin"] == \
        "settings"


def test_the_web_daemon_serves_the_store_list_and_keeps_it_when_offline(
        tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:
    instance = Instance(tmp_path)
    with RepoHost() as host:
        repo = host.repo_url("community", "plugins")
        monkeypatch.setenv("LEDPANEL_REGISTRY_URL", host.serve(
            "plugins.json", registry(registry_entry("clock", repo))))
        monkeypatch.setenv("LEDPANEL_REPOSITORY_API_URL", host.api_url)
        daemon, url = start_web(instance)
        try:
            first = requests.get(f"{url}{LIST}", timeout=10).json()["data"]
            assert [e["id"] for e in first["plugins"]] == ["clock"]
            host.status["/plugins.json"] = 500
            answer = requests.get(f"{url}{LIST}?refresh=1", timeout=10).json()["data"]
            assert answer["stale"] is True and [e["id"] for e in answer["plugins"]] == ["clock"]
            assert requests.get(f"{url}/api/v3/plugins/installed", timeout=10).ok
            assert host.asked("/plugins.json") == 2
        finally:
            daemon.stop()
    assert (instance.cache_dir / "store" / "registry.json").is_file()


def test_an_offline_registry_is_one_warning_per_outage_and_never_an_error(
        registry_web: RegistryWeb, caplog: pytest.LogCaptureFixture) -> None:
    def outage_lines() -> list[logging.LogRecord]:
        return [r for r in caplog.records if r.levelno >= logging.WARNING]

    with caplog.at_level(logging.INFO):
        registry_web.host.status["/plugins.json"] = 503
        for _visit in range(3):  # no cache yet: each visit answers 503
            assert registry_web.client.get(LIST).status_code == 503
        community(registry_web)
        del registry_web.host.status["/plugins.json"]
        registry_web.store_list(refresh="1")
        registry_web.host.status["/plugins.json"] = 503
        for _visit in range(3):  # the cache is served stale
            assert registry_web.store_list(refresh="1")["stale"] is True
    warnings = outage_lines()
    assert [r.levelname for r in warnings] == ["WARNING", "WARNING"], \
        [r.getMessage() for r in warnings]
    assert all("store registry: unreachable" in r.getMessage() for r in warnings)
    assert "the store has no list" in warnings[0].getMessage()
    assert "the cached list is shown" in warnings[1].getMessage()
    assert any(r.getMessage() == "store registry: reachable again" for r in caplog.records)
