"""One scripted app's settings form: drawn by the plugin form renderer from the app's
schema (read by the worker), filled with the stored values or the schema's defaults."""

from __future__ import annotations

import json
import re
from pathlib import Path

from shared.starlark.installed.folder import AppsFolder, apps_root
from shared.starlark.installed.package import from_folder_files, from_star
from tests.web_service.conftest import WebEnv

APPS = Path(__file__).resolve().parents[2] / "shared" / "starlark" / "apps"


def install(web: WebEnv, name: str) -> None:
    folder = APPS / name
    files = {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*") if p.is_file()}
    AppsFolder(apps_root(web.paths)).install(from_folder_files(files))


def form_of(web: WebEnv, app_id: str) -> tuple[int, str]:
    answer = web.client.get(f"/v3/partials/starlark-app-config/{app_id}")
    return answer.status_code, answer.get_data(as_text=True)


def value_of(html: str, field: str) -> str:
    match = re.search(rf'value="([^"]*)"[^>]*data-path="{re.escape(json.dumps([field]))}"'
                      rf'|data-path="{re.escape(json.dumps([field]))}"[^>]*value="([^"]*)"',
                      html.replace("&#34;", '"').replace("&quot;", '"'))
    assert match, f"no input for {field}"
    return match.group(1) if match.group(1) is not None else match.group(2)


def test_an_apps_form_shows_its_schema_fields_with_defaults_then_stored_values(
        web: WebEnv) -> None:
    install(web, "cursive")
    status, html = form_of(web, "cursive")
    assert status == 200
    assert 'data-app="cursive"' in html and "data-own-save" in html
    assert value_of(html, "displaytext") == "What a Great App"
    assert 'data-widget="color-picker"' in html and 'data-widget="select-dropdown"' in html
    assert 'value="15"' in html  # the duration's default
    config = web.app.extensions["ledpanel"].store.load()
    config["starlark-apps"] = {"apps": {"cursive": {"duration": 40,
                                                    "config": {"displaytext": "Hi <b>"}}}}
    (web.paths.config_dir / "config.json").write_text(json.dumps(config))
    _, html = form_of(web, "cursive")
    assert value_of(html, "displaytext") == "Hi &lt;b&gt;"
    assert 'value="40"' in html


def test_an_app_without_settings_or_with_a_broken_schema_says_so(web: WebEnv) -> None:
    AppsFolder(apps_root(web.paths)).install(from_star(
        b"load('render.star', 'render')\ndef main(config):\n    return render.Root("
        b"child = render.Text('hi'))\n", "plain.star"))
    AppsFolder(apps_root(web.paths)).install(from_star(
        b"def main(config):\n    return []\ndef get_schema():\n    return 1 // 0\n",
        "broken.star"))
    status, html = form_of(web, "plain")
    assert status == 200 and "has no settings of its own" in html
    status, html = form_of(web, "broken")
    assert status == 200 and "could not be read" in html


def test_an_unknown_or_bad_app_id_answers_the_friendly_not_found(web: WebEnv) -> None:
    for app_id in ("missing", "Bad..Id", "..%2f..%2fetc"):
        status, html = form_of(web, app_id)
        assert status == 404
        assert "Traceback" not in html
