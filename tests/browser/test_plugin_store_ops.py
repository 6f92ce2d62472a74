"""Store operations from the browser against real daemons and a loopback repository
host: install from the Plugin Store tab, Update and Uninstall on a plugin's tab, and
Check & Update All in the Plugin Manager (with a network failure retried)."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path
from typing import Any

import pytest
import requests

from tests.browser.test_plugin_store import MONO, OWNER, StoreStack, card, open_store, store_stack
from tests.browser.test_web_ui_shell import DESKTOP, PHONE, Watch, open_tab
from tests.web_service.store.sample_plugins import plugin_files

__all__ = ["store_stack"]  # the fixture, imported for these tests
pytestmark = pytest.mark.timeout(300)


def install(stack: StoreStack, plugin_id: str) -> None:
    """Install through the API, waiting for the job (the state a test starts from)."""
    answer = requests.post(f"{stack.url}/api/v3/plugins/install",
                           json={"plugin_id": plugin_id, "wait": 60}, timeout=90)
    assert answer.status_code == 200, answer.text


def plugin_tab(page: Any, plugin_id: str) -> Any:
    button = page.locator(f'.tab-bar [data-tab="plugin-{plugin_id}"]')
    button.wait_for()
    return open_tab(page, f"plugin-{plugin_id}")


def test_install_from_the_store_shows_progress_and_adds_the_plugin_tab(
        browser: Any, store_stack: StoreStack, shoot: Any) -> None:
    stack = store_stack
    extra = {f"assets/part{n}.txt": f"part {n}".encode() for n in range(10)}
    stack.push("weather-now", extra=extra)
    stack.serve_registry(stack.entry("weather-now"))
    stack.host.delay[f"/{OWNER}/{MONO}/raw/"] = 0.4  # each raw file: a visible progress
    stack.host.delay[f"/{OWNER}/{MONO}/archive/"] = 2.0
    for name, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
        context = browser.new_context(viewport=viewport)
        page = context.new_page()
        watch = Watch(page)
        panel = open_store(page, stack.url, phone=name == "phone")
        entry = card(panel, "weather-now")
        entry.locator(".store-act").wait_for()
        if name == "phone":  # installed on the desktop pass: reinstalled here
            assert entry.locator(".installed-state").inner_text() == "Installed 1.0.0"
            assert entry.locator(".store-act").inner_text() == "Reinstall"
        else:
            assert page.locator('.tab-bar [data-tab="plugin-weather-now"]').count() == 0
        entry.locator(".store-act").click()
        bar = entry.locator(".store-job progress")
        bar.wait_for()
        page.wait_for_function(
            "document.querySelector('#tab-plugin-store .store-card .job-step').textContent"
            ".includes('files')", timeout=30_000)
        shoot(page, f"{name}-installing")
        outcome = entry.locator(".job-outcome")
        page.wait_for_function(
            "document.querySelector('#tab-plugin-store .store-card .job-outcome').textContent",
            timeout=60_000)
        assert "ok" in (outcome.get_attribute("class") or ""), outcome.inner_text()
        assert not bar.is_visible()
        entry.locator(".installed-state").wait_for()
        assert entry.locator(".installed-state").inner_text() == "Installed 1.0.0"
        assert outcome.inner_text() == ("weather-now 1.0.0 installed" if name == "desktop"
                                        else "Reinstalled 1.0.0")
        shoot(page, f"{name}-installed")
        if name == "desktop":
            # The new plugin's tab is in the bar now, without a reload, and opens.
            tab = plugin_tab(page, "weather-now")
            assert tab.locator("h2").inner_text().strip().startswith("Weather Now")
        assert watch.problems == []
        context.close()
    assert (stack.instance.plugins_dir / "weather-now" / "assets" / "part9.txt").is_file()
    record = json.loads((stack.instance.plugins_dir / "weather-now" / ".ledpanel-store.json")
                        .read_text())
    assert record["plugin_id"] == "weather-now" and record["source"] == "registry"


def test_install_from_a_repository_url(page: Any, store_stack: StoreStack) -> None:
    stack = store_stack
    stack.host.push("someone", "solo-plugin", plugin_files("solo-plugin"))
    watch = Watch(page)
    panel = open_store(page, stack.url)
    panel.locator(".store-repo input[name=repo_url]").fill("javascript:alert(1)")
    panel.locator(".store-repo button[type=submit]").click()
    outcome = panel.locator('[data-job="repo-url"] .job-outcome')
    outcome.wait_for()
    assert outcome.inner_text() == "Give the repository's http(s) address."
    panel.locator(".store-repo input[name=repo_url]").fill(
        stack.host.repo_url("someone", "solo-plugin"))
    panel.locator(".store-repo button[type=submit]").click()
    page.wait_for_function("document.querySelector('#tab-plugin-store [data-job=\"repo-url\"] "
                           ".job-outcome').classList.contains('ok')", timeout=60_000)
    page.locator('.tab-bar [data-tab="plugin-solo-plugin"]').wait_for()
    assert (stack.instance.plugins_dir / "solo-plugin" / "manifest.json").is_file()
    assert watch.problems == []


def test_install_from_an_uploaded_zip(page: Any, store_stack: StoreStack, tmp_path: Path,
                                      shoot: Any) -> None:
    """No repository at all: the plugin's folder, zipped, is uploaded and installed."""
    stack = store_stack
    good, bad = tmp_path / "offline-clock.zip", tmp_path / "notes.zip"
    with zipfile.ZipFile(good, "w") as archive:
        for name, data in plugin_files("offline-clock").items():
            archive.writestr(f"offline-clock/{name}", data)
    bad.write_bytes(b"these are notes, not a zip")
    watch = Watch(page)
    watch.expected_status.add(("/api/v3/plugins/install/upload", 400))
    panel = open_store(page, stack.url)
    form = panel.locator(".store-zip")
    outcome = panel.locator('[data-job="zip"] .job-outcome')
    form.locator("button[type=submit]").click()
    outcome.wait_for()
    assert outcome.inner_text() == "Choose the plugin's .zip file first."
    form.locator("input[name=plugin_zip]").set_input_files(str(bad))
    form.locator("button[type=submit]").click()
    page.wait_for_function("document.querySelector('#tab-plugin-store [data-job=\"zip\"] "
                           ".job-outcome').textContent.includes('notes.zip')")
    assert "not a ZIP archive" in outcome.inner_text()
    assert "error" in (outcome.get_attribute("class") or "")
    form.locator("input[name=plugin_zip]").set_input_files(str(good))
    form.locator("button[type=submit]").click()
    page.wait_for_function("document.querySelector('#tab-plugin-store [data-job=\"zip\"] "
                           ".job-outcome').textContent.includes('offline-clock')",
                           timeout=60_000)
    assert outcome.inner_text() == "offline-clock 1.0.0 installed"
    assert "ok" in (outcome.get_attribute("class") or "")
    shoot(page, "zip-installed")
    tab = plugin_tab(page, "offline-clock")
    assert tab.locator("h2").inner_text().strip().startswith("Offline Clock")
    record = json.loads((stack.instance.plugins_dir / "offline-clock" / ".ledpanel-store.json")
                        .read_text())
    assert record["source"] == "upload" and record["upload"] == "offline-clock.zip"
    assert [p for p in watch.problems if "status of 400" not in p] == []


def installed_tab(page: Any, stack: StoreStack, plugin_id: str) -> tuple[Any, Watch]:
    """Install ``plugin_id`` from the stand-in host, open the page on its tab."""
    stack.push(plugin_id)
    stack.serve_registry(stack.entry(plugin_id))
    install(stack, plugin_id)
    watch = Watch(page)
    page.goto(stack.url)
    return plugin_tab(page, plugin_id), watch


def test_update_from_the_plugin_tab_says_what_it_did(page: Any, store_stack: StoreStack,
                                                     shoot: Any) -> None:
    stack = store_stack
    tab, watch = installed_tab(page, stack, "weather-now")
    outcome = tab.locator(".store-actions .job-outcome")
    tab.locator(".store-update").click()
    page.wait_for_function("document.querySelector('#tab-plugin-weather-now .store-actions "
                           ".job-outcome').textContent !== ''", timeout=60_000)
    assert outcome.inner_text() == "Already up to date"
    stack.push("weather-now", version="1.1.0", colour=(0, 255, 0))
    stack.serve_registry(stack.entry("weather-now", version="1.1.0"))
    tab.locator(".store-update").click()
    page.wait_for_function("document.querySelector('#tab-plugin-weather-now .store-actions "
                           ".job-outcome').textContent.startsWith('Updated')", timeout=60_000)
    assert outcome.inner_text() == "Updated 1.0.0 → 1.1.0"
    page.wait_for_function("document.querySelector('#tab-plugin-weather-now h2 .version')"
                           ".textContent === 'v1.1.0'")  # the tab follows the new version
    shoot(page, "updated")
    # The local plugin (copied in by hand) is not the store's to update.
    still = plugin_tab(page, "still")
    still.locator(".store-update").click()
    page.wait_for_function("document.querySelector('#tab-plugin-still .store-actions "
                           ".job-outcome').textContent !== ''", timeout=60_000)
    assert still.locator(".store-actions .job-outcome").inner_text() == (
        "Installed locally: not from the store, nothing to update")
    assert watch.problems == []


def test_uninstall_asks_first_then_removes_the_tab_and_lands_on_the_manager(
        page: Any, store_stack: StoreStack, shoot: Any) -> None:
    stack = store_stack
    tab, watch = installed_tab(page, stack, "weather-now")
    confirm = tab.locator(".confirm-uninstall")
    assert not confirm.is_visible()
    tab.locator(".store-uninstall").click()
    confirm.wait_for()
    # Cancel leaves everything in place.
    confirm.locator(".cancel").click()
    confirm.wait_for(state="hidden")
    assert (stack.instance.plugins_dir / "weather-now").is_dir()
    tab.locator(".store-uninstall").click()
    confirm.locator("input[name=remove_config]").check()
    shoot(page, "confirm")
    confirm.locator(".confirm").click()
    page.wait_for_function("location.hash === '#plugin-manager'", timeout=60_000)
    page.locator('.tab-bar [data-tab="plugin-weather-now"]').wait_for(state="detached")
    assert page.locator("#tab-plugin-weather-now").count() == 0
    assert page.locator("#tab-plugin-manager").is_visible()
    page.locator('#plugin-list [data-plugin="weather-now"]').wait_for(state="detached")
    assert not (stack.instance.plugins_dir / "weather-now").exists()
    config = json.loads((stack.instance.config_dir / "config.json").read_text())
    assert "weather-now" not in config
    assert watch.problems == []


def _summary(page: Any) -> dict[str, str]:
    page.locator("#tab-plugin-manager .update-summary ul").wait_for(timeout=90_000)
    return {key: page.locator(f"#tab-plugin-manager .sum-{key}").inner_text()
            for key in ("updated", "up-to-date", "local-only", "failed")}


def _update_all_stack(stack: StoreStack) -> None:
    """weather-now (to be updated), clock-face (up to date), still (local only)."""
    for plugin_id in ("weather-now", "clock-face"):
        stack.push(plugin_id)
    stack.serve_registry(stack.entry("weather-now"), stack.entry("clock-face"))
    install(stack, "weather-now")
    install(stack, "clock-face")
    stack.push("weather-now", version="1.1.0")
    stack.serve_registry(stack.entry("weather-now", version="1.1.0"), stack.entry("clock-face"))


def test_check_and_update_all_summarises_each_plugin(browser: Any, store_stack: StoreStack,
                                                     shoot: Any) -> None:
    stack = store_stack
    _update_all_stack(stack)
    for name, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
        context = browser.new_context(viewport=viewport)
        page = context.new_page()
        watch = Watch(page)
        page.goto(stack.url)
        open_tab(page, "plugin-manager", phone=name == "phone")
        page.locator(".check-update-all").click()
        summary = _summary(page)
        if name == "desktop":
            assert summary["updated"].split("\n")[0] == "Updated: 1"
            assert "weather-now (Updated 1.0.0 → 1.1.0)" in summary["updated"]
            assert summary["up-to-date"].split("\n") == ["Up to date: 1", "clock-face"]
        else:  # the second pass: nothing left to update
            assert summary["updated"] == "Updated: 0"
            assert "Up to date: 2" in summary["up-to-date"]
        assert summary["local-only"].split("\n") == ["Local only: 1", "still"]
        assert summary["failed"] == "Failed: 0"
        shoot(page, f"{name}-summary")
        assert watch.problems == []
        context.close()
    manifest_path = stack.instance.plugins_dir / "weather-now" / "manifest.json"
    manifest = json.loads(manifest_path.read_text())
    assert manifest["version"] == "1.1.0"


def test_update_all_retries_a_request_the_network_dropped(page: Any, store_stack: StoreStack
                                                           ) -> None:
    stack = store_stack
    _update_all_stack(stack)
    dropped: list[str] = []

    def drop_first(route: Any) -> None:
        body = json.loads(route.request.post_data or "{}")
        if body.get("plugin_id") == "weather-now" and not dropped:
            dropped.append(body["plugin_id"])
            route.abort("connectionreset")
        else:
            route.continue_()

    watch = Watch(page)
    page.route("**/api/v3/plugins/update", drop_first)
    page.goto(stack.url)
    open_tab(page, "plugin-manager")
    page.locator(".check-update-all").click()
    retry = page.locator(".update-all-retry")
    retry.wait_for()
    assert "trying again in 1 s (retry 1 of 5)" in retry.inner_text()
    summary = _summary(page)
    assert dropped == ["weather-now"]
    assert "weather-now (Updated 1.0.0 → 1.1.0)" in summary["updated"]
    assert summary["failed"] == "Failed: 0"
    assert [p for p in watch.problems if "ERR_CONNECTION_RESET" not in p] == []
