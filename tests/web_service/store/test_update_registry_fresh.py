"""An update the user asks for reads the registry afresh; the weekly run may use the cache.

The registry moves a plugin from 1.0.0 to 1.1.0 while its cached list (TTL 1 h) still
says 1.0.0: the installed ``clock`` was copied in by hand (no store record), so only the
registry's version tells whether an update exists.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.web_service.store.conftest import RegistryWeb
from tests.web_service.store.sample_plugins import plugin_files, registry, registry_entry
from web_service.store.registry import catalog as registry_module
from web_service.store.update import AUTO_SOURCE, update_all_plugins

UPDATE = "/api/v3/plugins/update"


@pytest.fixture(autouse=True)
def _no_retry_pause(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(registry_module, "RETRY_AFTER", 0.0)


def publish(web: RegistryWeb, version: str) -> None:
    repo = web.host.repo_url("acme", "clock")
    web.host.push("acme", "clock", plugin_files("clock", version=version), replace=True)
    web.host.serve("plugins.json", registry(registry_entry("clock", repo, version=version)))


def cached_at_1_0_0(web: RegistryWeb) -> None:
    publish(web, "1.0.0")
    listed = {e["id"]: e for e in web.store_list()["plugins"]}
    assert listed["clock"]["latest_version"] == "1.0.0"
    publish(web, "1.1.0")  # within the cache's hour
    listed = {e["id"]: e for e in web.store_list()["plugins"]}
    assert listed["clock"]["latest_version"] == "1.0.0"  # the list still shows the cache


def update(web: RegistryWeb) -> dict[str, Any]:
    answer = web.client.post(UPDATE, json={"plugin_id": "clock", "wait": 30})
    body = answer.get_json()
    assert answer.status_code == 200, body
    return body


def test_an_explicit_update_installs_what_the_registry_says_now(
        registry_web: RegistryWeb) -> None:
    cached_at_1_0_0(registry_web)
    body = update(registry_web)
    data = body["data"]
    assert (data["update_status"], data["previous_version"], data["version"]) == (
        "updated", "1.0.0", "1.1.0")
    assert "registry_note" not in data
    listed = {e["id"]: e for e in registry_web.store_list()["plugins"]}
    assert listed["clock"]["latest_version"] == "1.1.0"  # the fetch refreshed the cache


def test_an_unreachable_registry_falls_back_to_the_cache_and_says_so(
        registry_web: RegistryWeb) -> None:
    cached_at_1_0_0(registry_web)
    registry_web.host.status["/plugins.json"] = 503
    body = update(registry_web)
    data = body["data"]
    assert data["update_status"] == "up_to_date"
    assert data["registry_note"].startswith("the registry could not be reached, so its "
                                            "cached list of ")
    assert "HTTP 503" in data["registry_note"]
    assert body["message"].endswith(data["registry_note"])


def test_the_weekly_run_uses_the_fresh_cache(registry_web: RegistryWeb) -> None:
    cached_at_1_0_0(registry_web)
    asked = registry_web.host.asked("/plugins.json")
    outcomes = update_all_plugins(registry_web.app, source=AUTO_SOURCE)
    assert registry_web.host.asked("/plugins.json") == asked  # no fetch: the cache is young
    # clock was copied in by hand: the weekly run leaves it alone whatever the registry says
    assert {o["plugin_id"]: o["update_status"] for o in outcomes}["clock"] == "local_only"
    manual = update_all_plugins(registry_web.app, source="manual")
    assert registry_web.host.asked("/plugins.json") == asked + 1
    assert {o["plugin_id"]: o for o in manual}["clock"]["version"] == "1.1.0"
