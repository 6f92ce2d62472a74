"""The web UI shell in a real browser against real daemons: tabs, partials, the shared store."""

from __future__ import annotations

import shutil
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from shared.bus import core as keys
from shared.bus.core import Bus
from tests.daemons import running
from tests.system.test_no_lost_changes import make_instance, running_state, stored

pytestmark = pytest.mark.timeout(240)

TABS = ["overview", "general", "display", "durations", "schedule", "vegas", "mqtt",
        "plugin-manager",
        "starlark", "plugin-store", "plugin-still", "fonts", "logs", "cache", "history",
        "config-editor", "backup", "wifi"]
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}


class Watch:
    """What went wrong in a page: console errors, script errors, failed or refused requests."""

    def __init__(self, page: Any) -> None:
        self.problems: list[str] = []
        self.requests: list[str] = []
        self.expected_status: set[tuple[str, int]] = set()
        self.page = page
        self.navigations = 0  # the page's own navigations (the main frame's documents)
        self._made_in: dict[Any, int] = {}  # request -> navigations when it was made
        page.on("console", lambda m: m.type == "error" and self.problems.append(
            f"console: {m.text}"))
        page.on("pageerror", lambda err: self.problems.append(f"script: {err}"))
        page.on("requestfailed", self._failed)
        page.on("request", self._request)
        page.on("response", self._response)

    def _request(self, request: Any) -> None:
        self.requests.append(request.url)
        self._made_in[request] = self.navigations
        if request.is_navigation_request() and request.frame == self.page.main_frame:
            self.navigations += 1

    def _failed(self, request: Any) -> None:
        aborted = request.failure == "net::ERR_ABORTED"
        # A page closing its own event stream (a tab left, the page hidden) aborts it, and
        # leaving a page aborts what it still had in flight: neither is a failure.
        if aborted and ("/stream/" in request.url
                        or self._made_in.get(request, self.navigations) < self.navigations):
            return
        self.problems.append(f"failed: {request.url} {request.failure}")

    def _response(self, response: Any) -> None:
        path = "/" + response.url.split("/", 3)[3]
        if response.status >= 400 and (path, response.status) not in self.expected_status:
            self.problems.append(f"HTTP {response.status}: {path}")


@pytest.fixture
def instance(tmp_path: Path) -> Any:
    return make_instance(tmp_path)


@pytest.fixture
def served(instance: Any, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Any, str]]:
    # A quick heartbeat: the streams of a browser context that was closed are noticed
    # (their slots freed) at once, not up to 15 s later while the next context opens its own.
    monkeypatch.setenv("LEDPANEL_STREAM_HEARTBEAT", "0.3")
    with running(instance) as (display, _web, url):
        running_state(instance, display)
        yield display, url


def open_tab(page: Any, key: str, *, phone: bool = False) -> Any:
    """Open a tab the way a user does (the bar, or the select on a phone); return its panel."""
    if phone:
        page.select_option("#tab-select", key)
    else:
        page.click(f'.tab-bar [data-tab="{key}"]')
    panel = page.locator(f"#tab-{key}")
    panel.locator("[data-partial], [data-partial-error]").first.wait_for(timeout=15_000)
    return panel


def test_every_tab_opens_cleanly_at_phone_and_desktop_widths(
        browser: Any, served: tuple[Any, str], shoot: Any) -> None:
    _display, url = served
    for name, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
        context = browser.new_context(viewport=viewport)
        page = context.new_page()
        watch = Watch(page)
        page.goto(url)
        page.wait_for_selector("#display dt")
        assert page.is_visible(".tab-bar") is (name == "desktop")
        assert page.is_visible("#tab-select") is (name == "phone")
        for key in TABS:
            panel = open_tab(page, key, phone=name == "phone")
            assert panel.is_visible()
            assert panel.locator("[data-partial-error]").count() == 0, key
            assert page.locator(".tab-panel:not([hidden])").count() == 1
            page.wait_for_timeout(300)  # let the tab's own requests settle
            shoot(page, f"{name}-{key}")
        assert watch.problems == []
        # Each partial was fetched once: a tab opened again keeps what it loaded.
        open_tab(page, "overview", phone=name == "phone")
        partial_gets = [u for u in watch.requests if "/v3/partials/" in u]
        assert len(partial_gets) == len(set(partial_gets)), partial_gets
        context.close()


def test_nothing_is_fetched_from_another_host(page: Any, served: tuple[Any, str]) -> None:
    _display, url = served
    watch = Watch(page)
    page.goto(url)
    page.wait_for_selector("#display dt")
    assert watch.requests and all(u.startswith(url) for u in watch.requests), watch.requests


def test_an_unknown_partial_answers_a_friendly_404(page: Any, served: tuple[Any, str],
                                                   instance: Any) -> None:
    _display, url = served
    answer = page.goto(f"{url}/v3/partials/no-such-tab")
    assert answer.status == 404
    assert "There is no tab named 'no-such-tab'" in page.text_content("body")

    # A plugin removed after the page loaded: its tab shows the friendly fragment.
    watch = Watch(page)
    watch.expected_status.add(("/v3/partials/plugin/still", 404))
    page.goto(url + "/#nope")  # an unknown tab in the address opens the Overview
    page.wait_for_selector("#display dt")
    assert page.is_visible("#tab-overview")
    shutil.rmtree(instance.plugins_dir / "still")
    panel = open_tab(page, "plugin-still")
    assert panel.locator('[data-partial-error="404"]').is_visible()
    assert "No plugin 'still' is installed." in panel.text_content()
    assert [p for p in watch.problems if not p.startswith("console:")] == []


def test_the_api_client_refuses_a_bad_endpoint_without_a_request(
        page: Any, served: tuple[Any, str]) -> None:
    _display, url = served
    page.goto(url)
    page.wait_for_selector("#display dt")
    page.evaluate("async () => { window.client = (await import('/static/api.js')).default; }")
    watch = Watch(page)
    codes = page.evaluate("""async () => {
        const out = [];
        for (const path of ["//evil.example/x", "/plugins/../config", "/a\\\\b", "/a b"]) {
            try { await window.client.get(path); out.push("sent"); }
            catch (err) { out.push(err.error_code); }
        }
        return out;
    }""")
    assert codes == ["INVALID_ENDPOINT"] * 4
    page.wait_for_timeout(300)
    polls = {f"{url}/api/v3/{p}" for p in ("system/status", "plugins/installed",
                                           "display/preview")} | {f"{url}/stream/preview"}
    assert [u for u in watch.requests if u not in polls] == []
    # A good path goes through, and a structured error keeps its code.
    answer = page.evaluate("""async () => {
        const ok = await window.client.get("/system/status");
        let refused;
        try { await window.client.post("/plugins/toggle", {plugin_id: "still"}); }
        catch (err) { refused = [err.error_code, err.status, err.details]; }
        return [ok.data.version, refused];
    }""")
    assert answer[1] == ["INVALID_FIELD", 400, {"field": "enabled"}]


def test_a_toggle_in_the_plugin_manager_round_trips_and_shows_in_another_tab(
        browser: Any, served: tuple[Any, str], instance: Any, shoot: Any) -> None:
    _display, url = served
    context = browser.new_context(viewport=DESKTOP)
    page, other = context.new_page(), context.new_page()
    watch = Watch(page)
    other.goto(f"{url}/#plugin-still")
    box_elsewhere = other.locator('[data-partial="plugin"] input.enabled')
    box_elsewhere.wait_for()
    assert box_elsewhere.is_checked()

    page.goto(f"{url}/#plugin-manager")
    row = page.locator('.plugin-row[data-plugin="still"]')
    row.wait_for()
    assert row.locator(".version").text_content() == "v1.0.0"
    row.locator("input.enabled").uncheck()
    page.wait_for_function(
        "document.getElementById('plugin-manager-message').textContent === 'still disabled'")
    assert stored(instance)["still"]["enabled"] is False
    shoot(page, "disabled")

    page.reload()  # the hash keeps the tab
    row.wait_for()
    assert page.is_visible("#tab-plugin-manager")
    page.wait_for_function("""() => {
        const box = document.querySelector('.plugin-row[data-plugin="still"] input.enabled');
        return box && !box.checked; }""")
    # The other browser tab polls the same state: it follows within a poll or two.
    other.wait_for_function(
        "!document.querySelector('[data-partial=\"plugin\"] input.enabled').checked",
        timeout=8_000)
    # "Open" goes to the plugin's own tab.
    page.click('.plugin-row[data-plugin="still"] a.open-tab')
    page.wait_for_selector('#tab-plugin-still [data-partial="plugin"]')
    assert watch.problems == []
    context.close()


def test_on_demand_from_a_plugin_tab_reaches_the_display(
        page: Any, served: tuple[Any, str], instance: Any, shoot: Any) -> None:
    _display, url = served
    watch = Watch(page)
    page.goto(f"{url}/#plugin-still")
    tab = page.locator('#tab-plugin-still [data-partial="plugin"]')
    tab.wait_for()
    assert tab.locator("select[name=mode] option").all_text_contents() == ["still"]
    tab.locator("input[name=duration]").fill("60")
    tab.locator("input[name=pinned]").check()
    tab.locator("button.run-on-demand").click()
    tab.locator(".note", has_text="on-demand started").wait_for()
    state = Bus(instance.cache_dir).read(keys.DISPLAY_STATE)
    assert state["on_demand"]["state"] == "active" and state["on_demand"]["plugin_id"] == "still"
    page.wait_for_function("document.getElementById('header-state').textContent"
                           ".includes('(on-demand)')", timeout=10_000)
    shoot(page, "on-demand")
    tab.locator("button.stop-on-demand").click()
    tab.locator(".note", has_text="on-demand stopped").wait_for()
    deadline = time.monotonic() + 10
    while Bus(instance.cache_dir).read(keys.DISPLAY_STATE)["on_demand"]["state"] == "active":
        assert time.monotonic() < deadline
        time.sleep(0.1)
    # The plugin's settings part loaded into the tab.
    tab.locator(".plugin-config > :not(.loading)").first.wait_for()
    assert watch.problems == []
