"""A plugin tab offers its manifest's web-UI actions, with or without a settings schema."""

from __future__ import annotations

import json
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

from tests.web_service.conftest import WebEnv, write_plugin

HOSTILE = '"><script>alert(1)</script>'


class Actions(HTMLParser):
    """Collect the action rows of a plugin-config partial: button, help and status."""

    def __init__(self) -> None:
        super().__init__()
        self.rows: list[dict[str, Any]] = []
        self.links: list[str | None] = []
        self._in: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        classes = (found.get("class") or "").split()
        if tag == "a":
            self.links.append(found.get("href"))
        if "pf-plugin-action" in classes:
            self.rows.append({"id": None, "title": "", "help": "", "status": False})
        elif self.rows and tag == "button" and "pf-action" in classes:
            self.rows[-1]["id"] = found.get("data-action")
            self._in = "title"
        elif self.rows and "pf-help" in classes:
            self._in = "help"
        elif self.rows and "pf-status" in classes:
            self.rows[-1]["status"] = True

    def handle_endtag(self, tag: str) -> None:
        self._in = None

    def handle_data(self, data: str) -> None:
        if self._in:
            self.rows[-1][self._in] += data


def with_actions(plugins_dir: Path, plugin_id: str, actions: Any,
                 schema: dict[str, Any] | None = None) -> None:
    directory = write_plugin(plugins_dir, plugin_id, schema=schema)
    manifest = json.loads((directory / "manifest.json").read_text())
    manifest["web_ui_actions"] = actions
    (directory / "manifest.json").write_text(json.dumps(manifest))
    (directory / "scripts").mkdir()
    (directory / "scripts" / "run.py").write_text("print('{}')\n")


def rows(web: WebEnv, plugin_id: str) -> tuple[str, Actions]:
    answer = web.client.get(f"/v3/partials/plugin-config/{plugin_id}")
    assert answer.status_code == 200
    html = answer.get_data(as_text=True)
    parsed = Actions()
    parsed.feed(html)
    return html, parsed


def test_a_plugin_without_a_schema_offers_its_actions(web: WebEnv) -> None:
    with_actions(web.paths.plugins_dir(), "noschema", [
        {"id": "set-message", "type": "script", "script": "scripts/run.py",
         "title": "Set message", "description": "Writes the message the panel shows.",
         "success_message": "never shown"},
        {"id": "plain", "script": "scripts/run.py"},  # type defaults to script
        {"id": "set-message", "script": "scripts/run.py", "title": "Again"},  # repeated
        {"id": "link", "type": "url", "url": "https://example.com"},  # not runnable
        {"id": "", "script": "scripts/run.py"}, {"script": "scripts/run.py"}, "junk", 7,
    ])
    html, parsed = rows(web, "noschema")
    assert [(r["id"], r["title"], r["help"]) for r in parsed.rows] == [
        ("set-message", "Set message", "Writes the message the panel shows."),
        ("plain", "plain", "")]
    assert all(r["status"] for r in parsed.rows)  # each shows its own outcome
    assert "never shown" not in html
    assert "no settings form" in html and "config_schema.json" not in html
    assert 'section\n    "<code>noschema</code>")' in html
    assert parsed.links == ["#config-editor"]
    assert 'class="save-config"' not in html


def test_a_plugin_with_a_schema_offers_its_actions_below_the_form(web: WebEnv) -> None:
    schema = {"type": "object", "properties": {
        "title": {"type": "string", "default": "x"},
        "files": {"type": "object", "x-widget": "plugin-file-manager", "x-widget-config": {
            "actions": [{"id": "from-widget", "label": "Widget action"}]}}}}
    with_actions(web.paths.plugins_dir(), "withschema", [
        {"id": "from-widget", "script": "scripts/run.py", "title": "Shown by the widget"},
        {"id": "refresh", "script": "scripts/run.py", "title": "Refresh now"}], schema)
    html, parsed = rows(web, "withschema")
    # The file manager's own button keeps its params; the manifest list does not repeat it.
    assert [r["id"] for r in parsed.rows] == ["refresh"]
    assert html.index('class="save-config"') < html.index('data-action="refresh"')
    assert "#config-editor" not in html


def test_a_plugin_without_actions_shows_no_action_list(web: WebEnv) -> None:
    html, parsed = rows(web, "ticker")
    assert parsed.rows == [] and "pf-plugin-actions" not in html
    assert parsed.links == ["#config-editor"]


def test_action_titles_and_ids_from_the_manifest_are_escaped(web: WebEnv) -> None:
    with_actions(web.paths.plugins_dir(), "hostile", [
        {"id": 'x" onclick="alert(1)', "script": "scripts/run.py", "title": HOSTILE,
         "description": HOSTILE}])
    html, parsed = rows(web, "hostile")
    assert "<script>" not in html and 'onclick="' not in html
    assert [(r["id"], r["title"], r["help"]) for r in parsed.rows] == [
        ('x" onclick="alert(1)', HOSTILE, HOSTILE)]


def test_a_long_action_list_is_cut_short(web: WebEnv) -> None:
    with_actions(web.paths.plugins_dir(), "many", [
        {"id": f"a{n}", "script": "scripts/run.py"} for n in range(500)])
    _html, parsed = rows(web, "many")
    assert [r["id"] for r in parsed.rows] == [f"a{n}" for n in range(20)]
