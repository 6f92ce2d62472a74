"""No tab scrolls sideways on a 360 px wide phone, in a real browser against real daemons.

Every tab of the bar is opened (the fixed sections and one per installed plugin), its
partial loaded and its script run, and then neither the page nor the main content box
may be wider than the screen. The plugins installed are the awkward ones: every settings
widget (tables included), long words and unbroken URLs in manifests and warnings, and a
Plugin Store whose registry cannot be reached at a long address.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser.test_plugin_tab_notes import WARNS, add_plugin
from tests.daemons import Instance, running
from tests.system.test_no_lost_changes import make_instance, running_state
from tests.web_service.conftest import write_plugin
from tests.web_service.ui.test_plugin_form import CLOCK_COLOURS_SCHEMA, EVERY_WIDGET_SCHEMA

pytestmark = pytest.mark.timeout(300)

NARROW = {"width": 360, "height": 740}
LONG_URL = "https://example.invalid/" + "averylongpathsegmentwithoutanybreaks" * 4
LONG_WORD = "Supercalifragilisticexpialidocious" * 3

# What each tab shows once its partial is in and its script has run (by tab key; the
# plugin tabs by their settings part). Tabs drawn by the server alone need only their
# partial.
READY = {
    "overview": "#display dt",
    "general": 'form[data-settings-form][data-ready]',
    "display": 'form[data-settings-form][data-ready]',
    "durations": 'form[data-settings-form][data-ready]',
    "schedule": 'select[data-schedule-mode][data-ready]',
    "vegas": 'form[data-settings-form][data-ready]',
    "plugin-manager": '.plugin-row[data-plugin="still"]',
    "plugin-store": ".store-unavailable:visible, .store-problem:visible",
    "starlark": '[data-partial="starlark"][data-ready] .sl-empty:visible',
    "fonts": '[data-partial="fonts"][data-wired]',
    "logs": '[data-partial="logs"][data-wired]',
    "cache": '[data-partial="cache"][data-wired]',
    "history": '[data-partial="history"][data-wired]',
    "config-editor": 'form[data-raw-editor][data-ready]',
    "backup": "[data-backup-kept] li:not(.loading)",
}
PLUGIN_READY = ".plugin-config .plugin-form[data-ready]"


@pytest.fixture
def served(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Instance, str]]:
    monkeypatch.setenv("LEDPANEL_STREAM_HEARTBEAT", "0.3")
    monkeypatch.setenv("LEDPANEL_ASSETS_DIR", str(tmp_path / "assets"))
    # Nothing listens on port 9: the store says the registry cannot be reached, naming it
    # (a loopback host the store may fetch from, as the tests' hosts are).
    monkeypatch.setenv("LEDPANEL_REGISTRY_URL",
                       "http://127.0.0.1:9/" + "registrypathwithoutanybreaks" * 5 + ".json")
    monkeypatch.setenv("LEDPANEL_STORE_ALLOW_HOSTS", "127.0.0.1:9")
    instance = make_instance(tmp_path)
    write_plugin(instance.plugins_dir, "widgets", schema=EVERY_WIDGET_SCHEMA)
    write_plugin(instance.plugins_dir, "clocky", schema=CLOCK_COLOURS_SCHEMA)
    add_plugin(instance, "warns", WARNS, compatible_versions=None, name=LONG_WORD,
               description=f"Reads {LONG_URL} every minute. {LONG_WORD}",
               author=LONG_WORD, homepage=LONG_URL, version=LONG_WORD,
               web_ui_actions=[{"id": "refresh", "title": LONG_WORD, "type": "script",
                                "script": "refresh.py", "description": LONG_URL}])
    with running(instance) as (display, _web, url):
        running_state(instance, display)
        yield instance, url


def widths(page: Any) -> dict[str, Any]:
    """Return how wide the page and the main box are against the screen, and the first
    elements sticking out on the right that no scroll box of their own holds (to say
    what is too wide)."""
    return page.evaluate("""() => {
        const root = document.documentElement, main = document.querySelector('main');
        const screen = root.clientWidth;
        const held = (el) => {
            for (let up = el.parentElement; up && up !== main; up = up.parentElement) {
                if (getComputedStyle(up).overflowX !== 'visible') return true;
            }
            return false;
        };
        const out = [...document.querySelectorAll('.tab-panel:not([hidden]) *')]
            .filter((el) => el.getClientRects().length
                     && el.getBoundingClientRect().right > screen + 0.5);
        const free = out.filter((el) => !held(el));
        const wide = (free.length ? free : out).slice(0, 6)
            .map((el) => `${el.tagName.toLowerCase()}.${[...el.classList].join('.')}`
                         + ` right=${Math.round(el.getBoundingClientRect().right)}`);
        return {page: root.scrollWidth, screen, main: main.scrollWidth,
                main_box: main.clientWidth, wide};
    }""")


def test_no_tab_scrolls_sideways_at_360_px(
        browser: Any, served: tuple[Instance, str], shoot: Any) -> None:
    _instance, url = served
    context = browser.new_context(viewport=NARROW)
    page = context.new_page()
    page.goto(url)
    page.wait_for_selector("#display dt")
    keys = page.eval_on_selector_all("#tab-select option", "os => os.map((o) => o.value)")
    plugin_tabs = [k for k in keys if k.startswith("plugin-") and k not in READY]
    assert sorted(plugin_tabs) == ["plugin-clocky", "plugin-still", "plugin-warns",
                                   "plugin-widgets"]
    too_wide = {}
    for key in keys:
        page.select_option("#tab-select", key)
        panel = page.locator(f"#tab-{key}")
        panel.locator("[data-partial]").first.wait_for(timeout=15_000)
        ready = READY.get(key, PLUGIN_READY if key in plugin_tabs else "[data-partial]")
        panel.locator(ready).first.wait_for(timeout=15_000)
        page.evaluate("() => document.fonts.ready")
        measured = widths(page)
        if measured["page"] > measured["screen"] or measured["main"] > measured["main_box"]:
            too_wide[key] = measured
        shoot(page, key)
    assert too_wide == {}, json.dumps(too_wide, indent=1)
    context.close()
