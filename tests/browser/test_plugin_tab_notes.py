"""What a plugin's tab says about the plugin itself, in a real browser against real
daemons: its icon (the vendored icon font, offline) and its warnings (the manifest's, and
what the display logged while loading it)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser.test_web_ui_shell import DESKTOP, Watch
from tests.daemons import Instance, running
from tests.hostile_plugins import STILL
from tests.system.test_no_lost_changes import make_instance, running_state, stored

pytestmark = pytest.mark.timeout(180)

# A plugin written like the community's clock: an optional package it can run without.
WARNS = '''
import logging

from shared.plugin_api.base_plugin import BasePlugin

try:
    import ledpanel_tests_no_such_tz_package as tz
except ImportError:
    tz = None


class Plugin(BasePlugin):
    def __init__(self, *args):
        super().__init__(*args)
        if tz is None:
            self.logger.warning("tz package not available, using UTC timezone only")

    def update(self):
        pass

    def display(self, force_clear=False):
        self.display_manager.update_display()
        return True
'''


def add_plugin(instance: Instance, plugin_id: str, code: str = STILL,
               **manifest: Any) -> None:
    """Install and enable a plugin (``None`` in ``manifest`` drops that key)."""
    directory = instance.plugins_dir / plugin_id
    directory.mkdir(parents=True)
    fields = {"id": plugin_id, "name": plugin_id.title(), "version": "1.0.0",
              "author": "tests", "entry_point": "manager.py", "class_name": "Plugin",
              "display_modes": [plugin_id], "compatible_versions": [">=3.0.0"], **manifest}
    (directory / "manifest.json").write_text(
        json.dumps({k: v for k, v in fields.items() if v is not None}))
    (directory / "manager.py").write_text(code)
    config = stored(instance)
    config[plugin_id] = {"enabled": True}
    instance.write_config(config)


@pytest.fixture
def served(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Instance, str]]:
    monkeypatch.setenv("LEDPANEL_STREAM_HEARTBEAT", "0.3")
    instance = make_instance(tmp_path)  # "still": a manifest without an icon
    add_plugin(instance, "sunny", icon="fas fa-sun")
    add_plugin(instance, "warns", WARNS, compatible_versions=None, icon="fa-solid fa-clock")
    with running(instance) as (display, _web, url):
        running_state(instance, display)
        yield instance, url


def offline(page: Any, url: str) -> list[str]:
    """Refuse every request to another host, as on a Pi without internet; return them.
    Requests to this server are not intercepted at all."""
    refused: list[str] = []

    def refuse(route: Any) -> None:
        refused.append(route.request.url)
        route.abort()

    page.route(re.compile(rf"^(?!{re.escape(url)}/)"), refuse)
    return refused


def glyph(page: Any, selector: str) -> dict[str, Any]:
    """Return how an icon element is drawn: its classes, font and glyph, and its width."""
    return page.eval_on_selector(selector, """el => {
        const before = getComputedStyle(el, '::before');
        return {classes: el.className, font: before.fontFamily, content: before.content,
                width: el.getBoundingClientRect().width};
    }""")


def test_plugin_icons_are_drawn_with_the_vendored_font_offline(
        browser: Any, served: tuple[Instance, str], shoot: Any) -> None:
    _instance, url = served
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    refused = offline(page, url)
    watch = Watch(page)
    page.goto(f"{url}/#plugin-manager")
    page.wait_for_selector('.plugin-row[data-plugin="warns"] .plugin-icon')
    # The font is loaded from this server (document.fonts), not looked up elsewhere.
    page.wait_for_function("""async () => {
        await document.fonts.ready;
        return [...document.fonts].some((f) => f.family.includes('Font Awesome 6 Free')
                                        && f.status === 'loaded');
    }""", timeout=15_000)
    rows = {p: glyph(page, f'.plugin-row[data-plugin="{p}"] .plugin-icon')
            for p in ("still", "sunny", "warns")}
    assert rows["still"]["classes"] == "plugin-icon fas fa-puzzle-piece"
    assert rows["sunny"]["classes"] == "plugin-icon fas fa-sun"
    assert rows["warns"]["classes"] == "plugin-icon fa-solid fa-clock"
    for row in rows.values():
        assert "Font Awesome 6 Free" in row["font"] and row["content"] not in ("none", '""')
        assert row["width"] > 0
    assert rows["sunny"]["content"] == '"\uf185"'  # the sun glyph, not a fallback box
    shoot(page, "plugin-manager")

    # The plugin's own tab and its button in the bar.
    page.click('.tab-bar [data-tab="plugin-sunny"]')
    page.wait_for_selector('#tab-plugin-sunny [data-partial="plugin"] h2 .plugin-icon')
    assert glyph(page, "#tab-plugin-sunny h2 .plugin-icon")["classes"] == "plugin-icon fas fa-sun"
    assert glyph(page, '.tab-bar [data-tab="plugin-still"] .plugin-icon')["classes"] == (
        "plugin-icon fas fa-puzzle-piece")
    shoot(page, "plugin-tab")
    assert refused == [] and watch.problems == []
    context.close()


def test_a_plugins_manifest_and_load_warnings_show_in_its_tab(
        page: Any, served: tuple[Instance, str], shoot: Any) -> None:
    _instance, url = served
    watch = Watch(page)
    page.goto(f"{url}/#plugin-warns")
    tab = page.locator('#tab-plugin-warns [data-partial="plugin"]')
    tab.wait_for()
    assert tab.locator(".manifest-warning").all_text_contents() == [
        "manifest: compatible_versions: is required (the plugin still loads)"]
    # Read from the running display's status, which the page polls.
    tab.locator(".load-warning").first.wait_for(timeout=15_000)
    assert tab.locator(".load-warning").all_text_contents() == [
        "warned while loading: tz package not available, using UTC timezone only"]
    shoot(page, "warns-tab")

    # The Plugin Manager shows both on the plugin's row; a plugin without any, none.
    page.goto(f"{url}/#plugin-manager")
    row = page.locator('.plugin-row[data-plugin="warns"]')
    row.locator(".load-warning").wait_for(timeout=15_000)
    assert row.locator(".manifest-warning").count() == 1
    still = page.locator('.plugin-row[data-plugin="still"]')
    assert still.locator(".manifest-warning, .load-warning").count() == 0
    assert watch.problems == []
