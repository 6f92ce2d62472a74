"""The skin picker in a scoreboard plugin's tab, in a real browser against real daemons.

The fixture plugin ``skin-scoreboard`` says ``supports_skins``; the skins come from
``tests/skin_fixture/skins`` through ``LEDPANEL_SKINS_DIR``. The picker offers the
usable skins that fit the plugin, and saves ``skin`` and ``skin_options`` with the
plugin's settings; a plugin without the flag shows no picker.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from shared.plugin_api.skins.manifest import SKINS_DIR_ENV
from tests.browser.test_plugin_actions_tab import open_plugin
from tests.browser.test_web_ui_shell import Watch
from tests.daemons import running
from tests.dev_run import wait_for
from tests.system.test_no_lost_changes import make_instance, running_state, stored

pytestmark = pytest.mark.timeout(240)

FIXTURE = Path(__file__).parents[1] / "skin_fixture"
FORM = '.plugin-form[data-plugin="skin-scoreboard"]'
PICKER = f"{FORM} select[data-skin-picker]"


@pytest.fixture
def served(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Any, str]]:
    monkeypatch.setenv(SKINS_DIR_ENV, str(FIXTURE / "skins"))
    instance = make_instance(tmp_path)
    shutil.copytree(FIXTURE / "plugins" / "skin-scoreboard",
                    instance.plugins_dir / "skin-scoreboard")
    config = stored(instance)
    config["skin-scoreboard"] = {"enabled": True, "skin": "half",
                                 "skin_options": {"upcoming_seconds": 0}}
    instance.write_config(config)
    with running(instance) as (display, _web, url):
        running_state(instance, display)
        yield instance, url


def test_the_picker_offers_fitting_skins_and_saves_the_choice(
        page: Any, served: tuple[Any, str], shoot: Any) -> None:
    instance, url = served
    watch = Watch(page)
    open_plugin(page, url, "skin-scoreboard", FORM)
    picker = page.locator(PICKER)
    labels = [o.strip() for o in picker.locator("option").all_text_contents()]
    assert labels == ["Built-in look", "Half 0.1.0", "Neon 1.0.0: A green bar and big scores"]
    assert picker.input_value() == "half"
    options = page.locator(f"{FORM} textarea[data-skin-options]")
    assert json.loads(options.input_value()) == {"upcoming_seconds": 0}
    shoot(page, "before")

    preview = page.locator(f"{FORM} img[data-skin-preview]")
    assert preview.is_hidden()  # half has no preview.png
    picker.select_option("neon")
    page.wait_for_function(
        f"document.querySelector('{FORM} img[data-skin-preview]')?.naturalWidth === 64")
    assert preview.is_visible()
    options.fill('{"glow": 2}')
    page.locator(f"{FORM} button.save-config").click()
    saved = wait_for(lambda: (s := stored(instance)["skin-scoreboard"]).get("skin") == "neon"
                     and s, "the chosen skin stored")
    assert saved["skin_options"] == {"glow": 2}
    assert saved["home"] == "HOM"  # the plugin's own settings saved beside it
    page.wait_for_function(f"document.querySelector('{PICKER}')?.value === 'neon'")
    shoot(page, "after")

    page.locator(PICKER).select_option("")
    page.locator(f"{FORM} button.save-config").click()
    wait_for(lambda: stored(instance)["skin-scoreboard"].get("skin", "x") is None,
             "the built-in look stored as skin null")
    assert watch.problems == []


def test_options_that_are_not_an_object_are_refused_in_the_form(
        page: Any, served: tuple[Any, str], shoot: Any) -> None:
    instance, url = served
    open_plugin(page, url, "skin-scoreboard", FORM)
    page.locator(f"{FORM} textarea[data-skin-options]").fill("[1, 2]")
    page.locator(f"{FORM} button.save-config").click()
    error = page.locator(f"{FORM} [data-skin-error]")
    error.wait_for(state="visible", timeout=15_000)
    assert error.text_content() == "Skin options must be a JSON object."
    assert "Not saved" in page.locator(f"{FORM} .pf-form-status").text_content()
    shoot(page, "refused")
    assert stored(instance)["skin-scoreboard"]["skin_options"] == {"upcoming_seconds": 0}


def test_a_plugin_without_the_flag_has_no_picker(
        page: Any, served: tuple[Any, str]) -> None:
    _instance, url = served
    open_plugin(page, url, "still", '.plugin-form[data-plugin="still"]')
    assert page.locator(".plugin-form[data-plugin=\"still\"] [data-skin-picker]").count() == 0
