"""A plugin's web-UI actions from its tab, in a real browser against real daemons.

The community plugin ``file-actions`` ships no config_schema.json: its tab still offers
its action, runs it through POST /plugins/action, shows the script's answer beside the
button, and the script's file appears in the plugin's folder.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser.test_web_ui_shell import PHONE, Watch
from tests.daemons import running
from tests.system.test_no_lost_changes import make_instance, running_state, stored
from tests.web_service.conftest import write_plugin

pytestmark = pytest.mark.timeout(240)

COMMUNITY = Path(__file__).parents[1] / "community_plugins"
WIDE = {"width": 1366, "height": 900}
ACTIONS = '.plugin-form[data-plugin="file-actions"] .pf-plugin-actions'
FAILING = '.plugin-form[data-plugin="failing"] .pf-plugin-actions'
MANAGED = '.plugin-form[data-plugin="managed"]'
ECHO = ("import json, sys\n"
        "params = json.load(sys.stdin)\n"
        "print(json.dumps({'message': 'echo: ' + str(params.get('message', 'none'))}))\n")


def with_actions(directory: Path, actions: list[dict[str, Any]],
                 scripts: dict[str, str]) -> None:
    manifest = json.loads((directory / "manifest.json").read_text())
    manifest["web_ui_actions"] = actions
    (directory / "manifest.json").write_text(json.dumps(manifest))
    (directory / "scripts").mkdir()
    for name, text in scripts.items():
        (directory / "scripts" / name).write_text(text)


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[Any, str]]:
    instance = make_instance(tmp_path)
    shutil.copytree(COMMUNITY / "file-actions", instance.plugins_dir / "file-actions")
    with_actions(write_plugin(instance.plugins_dir, "failing", schema=None), [{
        "id": "break", "type": "script", "script": "scripts/fail.py",
        "title": "Fail on purpose", "description": "Exits with status 3."}],
        {"fail.py": "import sys\nsys.exit(3)\n"})
    schema = {"type": "object", "properties": {
        "files": {"type": "object", "x-widget": "plugin-file-manager", "x-widget-config": {
            "actions": [{"id": "echo", "label": "Echo", "params": {"message": "widget"}}]}}}}
    with_actions(write_plugin(instance.plugins_dir, "managed", schema=schema), [
        {"id": "echo", "script": "scripts/echo.py", "title": "Echo"},
        {"id": "other", "script": "scripts/echo.py", "title": "Other echo"}],
        {"echo.py": ECHO})
    config = stored(instance)
    config["file-actions"] = {"enabled": True}
    instance.write_config(config)
    with running(instance) as (display, _web, url):
        running_state(instance, display)
        yield instance, url


def open_plugin(page: Any, url: str, plugin_id: str, selector: str) -> Any:
    page.goto(f"{url}/#plugin-{plugin_id}")
    found = page.locator(selector)
    found.wait_for(timeout=15_000)
    page.wait_for_function(
        f"document.querySelector('.plugin-form[data-plugin=\"{plugin_id}\"][data-ready]')")
    return found


def status_says(page: Any, selector: str, text: str) -> None:
    page.wait_for_function(
        "([s, t]) => (document.querySelector(s)?.textContent || '').includes(t)",
        arg=[f"{selector} .pf-status", text], timeout=30_000)


@pytest.mark.parametrize("viewport", [PHONE, WIDE], ids=["phone", "wide"])
def test_an_action_of_a_plugin_without_a_schema_runs_from_its_tab(
        browser: Any, served: tuple[Any, str], shoot: Any, viewport: dict[str, int]) -> None:
    instance, url = served
    context = browser.new_context(viewport=viewport)
    page = context.new_page()
    watch = Watch(page)
    actions = open_plugin(page, url, "file-actions", ACTIONS)
    note = page.locator('.plugin-form[data-plugin="file-actions"] .pf-no-schema')
    assert "Config Editor" in note.text_content() and '"file-actions"' in note.text_content()
    assert "config_schema.json" not in note.text_content()
    button = actions.locator('button.pf-action[data-action="set-message"]')
    assert button.text_content() == "Set message"
    assert button.is_visible()
    shoot(page, "before")

    button.click()
    status_says(page, ACTIONS, "message set to hello")
    status = actions.locator(".pf-plugin-action .pf-status")
    assert "error" not in (status.get_attribute("class") or "")
    # The script wrote its file in the plugin's folder (its default message).
    assert (instance.plugins_dir / "file-actions" / "message.txt").read_text() == "hello"
    assert not button.is_disabled()
    # Nothing of the status overflows a phone's width.
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= viewport["width"], width
    shoot(page, "after")
    assert watch.problems == []
    context.close()


def test_a_failing_action_shows_its_error_beside_its_button(
        page: Any, served: tuple[Any, str], shoot: Any) -> None:
    _instance, url = served
    watch = Watch(page)
    watch.expected_status.add(("/api/v3/plugins/action", 502))
    actions = open_plugin(page, url, "failing", FAILING)
    assert "Exits with status 3." in actions.text_content()
    actions.locator('button[data-action="break"]').click()
    status_says(page, FAILING, "exited with status 3")
    assert "error" in (actions.locator(".pf-status").get_attribute("class") or "")
    shoot(page, "failed")
    # The browser logs the refused request itself; nothing else went wrong.
    assert [p for p in watch.problems if "502" not in p] == []


def test_the_no_settings_note_opens_the_config_editor(
        page: Any, served: tuple[Any, str]) -> None:
    _instance, url = served
    open_plugin(page, url, "file-actions", ACTIONS)
    page.locator('.plugin-form[data-plugin="file-actions"] a.open-config-editor').click()
    editor = page.locator("#tab-config-editor")
    editor.locator("[data-partial], [data-partial-error]").first.wait_for(timeout=15_000)
    assert editor.is_visible()
    assert page.evaluate("location.hash") == "#config-editor"
    assert not page.locator("#tab-plugin-file-actions").is_visible()


def test_a_form_with_a_schema_offers_the_actions_its_widgets_do_not(
        page: Any, served: tuple[Any, str], shoot: Any) -> None:
    _instance, url = served
    watch = Watch(page)
    open_plugin(page, url, "managed", f"{MANAGED} .pf-plugin-actions")
    listed = page.locator(f"{MANAGED} .pf-plugin-actions button.pf-action")
    assert [listed.nth(i).get_attribute("data-action") for i in range(listed.count())] == [
        "other"]
    status_says(page, f"{MANAGED} .pf-file-manager", "file(s)")  # its list has loaded
    # The file manager's button sends its params and reports inside the widget.
    page.locator(f'{MANAGED} .pf-file-manager button[data-action="echo"]').click()
    status_says(page, f"{MANAGED} .pf-file-manager", "echo: widget")
    listed.first.click()
    status_says(page, f"{MANAGED} .pf-plugin-actions", "echo: none")
    assert page.locator(f"{MANAGED} .pf-file-manager .pf-status").text_content() == (
        "echo: widget")
    shoot(page, "managed")
    assert watch.problems == []
