"""The Plugin Store tab in a real browser against real daemons whose store points at a
loopback repository host: search and category, hostile registry text, the offline
answers, sources and the host's status line."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.browser.test_web_ui_shell import DESKTOP, PHONE, Watch, open_tab
from tests.daemons import Daemon, Instance, running
from tests.system.test_no_lost_changes import make_instance, running_state
from tests.web_service.store.repo_host import RepoHost
from tests.web_service.store.sample_plugins import plugin_files, registry, registry_entry

pytestmark = pytest.mark.timeout(300)

OWNER, MONO = "acme", "ledpanel-plugins"
HOSTILE_NAME = '<img src=x onerror="window.__pwned=1">'
HOSTILE_TEXT = "\"'><script>window.__pwned=2</script>"


@dataclass
class StoreStack:
    """Both daemons, their instance (with the local plugin ``still``) and the host."""

    instance: Instance
    host: RepoHost
    url: str
    display: Daemon

    def push(self, plugin_id: str, **kwargs: Any) -> str:
        """Put ``plugin_id`` in the monorepo at ``plugins/<id>``; return the head."""
        return self.host.push(OWNER, MONO, plugin_files(plugin_id, **kwargs),
                              under=f"plugins/{plugin_id}", replace=True)

    def serve_registry(self, *entries: dict[str, Any]) -> None:
        self.host.serve("plugins.json", registry(*entries))

    def entry(self, plugin_id: str, repo: str | None = None, **more: Any) -> dict[str, Any]:
        return registry_entry(plugin_id, repo or self.host.repo_url(OWNER, MONO),
                              plugin_path=f"plugins/{plugin_id}", **more)


@pytest.fixture
def store_stack(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[StoreStack]:
    """The daemons (inheriting the store URLs from the environment) and the host; the
    registry starts empty: each test serves its own."""
    with RepoHost() as host:
        host.serve("plugins.json", registry())
        monkeypatch.setenv("LEDPANEL_REGISTRY_URL", f"{host.url}/plugins.json")
        monkeypatch.setenv("LEDPANEL_REPOSITORY_API_URL", host.api_url)
        instance = make_instance(tmp_path)
        with running(instance) as (display, _web, url):
            running_state(instance, display)
            yield StoreStack(instance, host, url, display)


def open_store(page: Any, url: str, *, phone: bool = False) -> Any:
    page.goto(url)
    panel = open_tab(page, "plugin-store", phone=phone)
    panel.locator(".store-list, .store-unavailable").first.wait_for(state="attached")
    return panel


def card(panel: Any, plugin_id: str) -> Any:
    return panel.locator(f'.store-card[data-plugin="{plugin_id}"]')


def wait_cards(page: Any, count: int, what: str = ".store-card") -> None:
    """Wait until the store tab shows ``count`` of ``what``."""
    page.wait_for_function(
        f"document.querySelectorAll('#tab-plugin-store {what}').length === {count}")


def shown_ids(panel: Any) -> list[str]:
    return panel.locator(".store-card").evaluate_all(
        "cards => cards.map(c => c.dataset.plugin)")


def test_search_and_category_filter_the_list(page: Any, store_stack: StoreStack,
                                             shoot: Any) -> None:
    stack = store_stack
    stack.serve_registry(
        stack.entry("weather-now", category="weather", tags=["forecast"], stars=12,
                    downloads=340, description="Today's weather"),
        stack.entry("clock-face", category="time", verified=False, author="someone"),
        stack.entry("rain-radar", category="weather", description="Rain map"))
    watch = Watch(page)
    page.set_viewport_size(DESKTOP)
    panel = open_store(page, stack.url)
    wait_cards(page, 3)
    weather = card(panel, "weather-now")
    assert weather.locator(".name").inner_text() == "Weather Now"
    assert weather.locator(".badge.verified").is_visible()
    assert not card(panel, "clock-face").locator(".badge.verified").is_visible()
    assert weather.locator(".stars").inner_text() == "★ 12"
    assert weather.locator(".downloads").inner_text() == "340 downloads"
    assert weather.locator(".tag").all_inner_texts() == ["forecast"]
    assert weather.locator(".version").inner_text() == "v1.0.0"
    assert weather.locator(".store-act").inner_text() == "Install"
    assert weather.locator(".store-act").is_enabled()
    view = weather.locator("a.view")
    assert view.get_attribute("href") == stack.host.repo_url(OWNER, MONO)
    assert view.get_attribute("rel") == "noopener noreferrer"
    assert view.get_attribute("target") == "_blank"
    # The category select is filled from the answer; choosing one asks the server.
    assert panel.locator("select[name=category] option").all_inner_texts() == [
        "All", "time", "weather"]
    panel.locator("select[name=category]").select_option("weather")
    wait_cards(page, 2)
    assert sorted(shown_ids(panel)) == ["rain-radar", "weather-now"]
    # Typing searches (debounced) within the category.
    panel.locator("input[name=query]").fill("rain")
    wait_cards(page, 1)
    assert shown_ids(panel) == ["rain-radar"]
    assert stack.host.asked("plugins.json") >= 1
    shoot(page, "desktop")
    panel.locator("input[name=query]").fill("nothing-matches-this")
    panel.locator("text=No plugin matches.").wait_for()
    assert watch.problems == []
    page.set_viewport_size(PHONE)
    open_store(page, stack.url, phone=True)
    wait_cards(page, 3)
    shoot(page, "phone")


def test_registry_text_is_shown_literally_and_never_runs(page: Any, store_stack: StoreStack,
                                                         shoot: Any) -> None:
    stack = store_stack
    stack.serve_registry(
        stack.entry("hostile", name=HOSTILE_NAME, description=HOSTILE_TEXT,
                    author=HOSTILE_NAME + HOSTILE_TEXT, tags=[HOSTILE_TEXT],
                    category=HOSTILE_NAME),
        stack.entry("sneaky", repo="javascript:window.__pwned=3"))
    watch = Watch(page)
    panel = open_store(page, stack.url)
    hostile = card(panel, "hostile")
    hostile.wait_for()
    assert hostile.locator(".name").inner_text() == HOSTILE_NAME
    assert hostile.locator(".description").inner_text() == HOSTILE_TEXT
    assert hostile.locator(".author").inner_text() == f"by {HOSTILE_NAME}{HOSTILE_TEXT}"
    assert hostile.locator(".tag").inner_text() == HOSTILE_TEXT
    assert panel.locator("select[name=category] option").all_inner_texts()[1] == HOSTILE_NAME
    assert panel.locator("img, script:not([src])").count() == 0
    # The server already leaves out an entry whose repo is not http(s) ...
    assert card(panel, "sneaky").count() == 0
    # ... and the page draws no link for one even when an answer carries it.
    answer = page.request.get(f"{stack.url}/api/v3/plugins/store/list").json()
    answer["data"]["plugins"].append({**answer["data"]["plugins"][0], "id": "sneaky",
                                      "name": "Sneaky", "repo": "javascript:window.__pwned=3"})
    page.route("**/api/v3/plugins/store/list*", lambda route: route.fulfill(
        status=200, content_type="application/json", body=json.dumps(answer)))
    panel.locator(".store-refresh").click()
    card(panel, "sneaky").wait_for()
    assert card(panel, "sneaky").locator("a").count() == 0
    assert hostile.locator("a.view").count() == 1
    page.wait_for_timeout(300)
    assert page.evaluate("window.__pwned") is None
    shoot(page, "hostile")
    assert watch.problems == []


def test_an_unreachable_registry_says_so_and_retry_recovers(page: Any, store_stack: StoreStack,
                                                            shoot: Any) -> None:
    stack = store_stack
    stack.host.status["plugins.json"] = 500  # never fetched before: nothing cached
    watch = Watch(page)
    watch.expected_status.add(("/api/v3/plugins/store/list?query=&category=", 503))
    watch.expected_status.add(("/api/v3/plugins/store/list?query=&category=&refresh=1", 503))
    panel = open_store(page, stack.url)
    unavailable = panel.locator(".store-unavailable")
    unavailable.wait_for()
    assert "cannot be reached" in unavailable.inner_text()
    shoot(page, "unavailable")
    # The host is back: Retry fetches the list.
    del stack.host.status["plugins.json"]
    stack.serve_registry(stack.entry("weather-now"))
    panel.locator(".store-retry").click()
    card(panel, "weather-now").wait_for()
    assert not unavailable.is_visible()
    # Now the host goes away again: the cached list is shown, marked stale.
    stack.host.status["plugins.json"] = 500
    watch.expected_status.add(("/api/v3/plugins/store/list?query=&category=&refresh=1", 200))
    panel.locator(".store-refresh").click()
    stale = panel.locator(".store-stale")
    stale.wait_for()
    assert stale.inner_text().startswith("Showing the list from ")
    assert "could not reach" in stale.inner_text()
    assert card(panel, "weather-now").is_visible()
    shoot(page, "stale")
    # The browser logs each expected 503 to its console; nothing else went wrong.
    assert [p for p in watch.problems if "status of 503" not in p] == []


def test_sources_are_listed_added_and_removed_and_the_host_status_shown(
        page: Any, store_stack: StoreStack) -> None:
    stack = store_stack
    stack.serve_registry(stack.entry("weather-now"))
    extra_url = stack.host.serve("more.json", registry(stack.entry("extra-one")))
    watch = Watch(page)
    panel = open_store(page, stack.url)
    status = panel.locator(".host-status")
    page.wait_for_function("document.querySelector('#tab-plugin-store .host-status')"
                           ".textContent.includes('reachable')")
    assert "token configured: no" in status.inner_text()
    assert "requests left" in status.inner_text()
    sources = panel.locator(".store-sources li")
    sources.first.wait_for()
    assert sources.count() == 1 and not sources.first.locator(".remove-source").is_visible()
    panel.locator(".store-add-source input[name=url]").fill(extra_url)
    panel.locator(".store-add-source button[type=submit]").click()
    wait_cards(page, 2, ".store-sources li")
    card(panel, "extra-one").wait_for()  # the list was fetched again with the new source
    assert panel.locator(".sources-note").inner_text() == "Source added."
    # A refused URL shows the server's message and adds nothing.
    watch.expected_status.add(("/api/v3/plugins/store/sources", 400))
    panel.locator(".store-add-source input[name=url]").fill("ftp://example.invalid/x.json")
    panel.locator(".store-add-source button[type=submit]").click()
    page.wait_for_function(
        "document.querySelector('#tab-plugin-store .sources-note').classList.contains('error')")
    assert sources.count() == 2
    sources.nth(1).locator(".remove-source").click()
    wait_cards(page, 1, ".store-sources li")
    stored = json.loads((stack.instance.config_dir / "config.json").read_text())
    assert stored["plugin_system"]["store_sources"] == []
    assert [p for p in watch.problems if "status of 400" not in p] == []


def test_the_offline_message_wraps_its_long_url_on_a_narrow_phone(
        page: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, shoot: Any) -> None:
    """The unavailable note quotes the registry URL, one unbroken word: at 360 px it
    wraps instead of making the page scroll sideways."""
    long_path = "ChuckBuilds/ledmatrix_plugins/refs/heads/main/plugins.json"  # no hyphen
    with RepoHost() as host:
        host.status[long_path] = 500
        monkeypatch.setenv("LEDPANEL_REGISTRY_URL", f"{host.url}/{long_path}")
        monkeypatch.setenv("LEDPANEL_REPOSITORY_API_URL", host.api_url)
        instance = make_instance(tmp_path)
        with running(instance) as (display, _web, url):
            running_state(instance, display)
            page.set_viewport_size({"width": 360, "height": 780})
            panel = open_store(page, url, phone=True)
            hint = panel.locator(".store-unavailable .hint")
            hint.wait_for()
            assert long_path in hint.inner_text()
            shoot(page, "unavailable-360")
            widths = page.evaluate("[document.documentElement.scrollWidth, "
                                   "document.documentElement.clientWidth]")
            assert widths[0] <= widths[1], widths
