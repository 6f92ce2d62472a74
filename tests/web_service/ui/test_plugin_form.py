"""The plugin settings form: every widget drawn from a schema, hostile text escaped."""

from __future__ import annotations

import json
from html.parser import HTMLParser
from typing import Any

import pytest

from tests.web_service.conftest import WebEnv, write_plugin

HOSTILE = '"><script>alert(1)</script>'

# One property per widget name (and per type default), with values worth round-tripping.
EVERY_WIDGET_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "enabled": {"type": "boolean", "default": True},
        "title": {"type": "string", "x-widget": "text-input", "default": "Hello"},
        "blank": {"type": "string", "default": ""},
        "zip_code": {"type": "string", "default": "02134"},
        "notes": {"type": "string", "x-widget": "textarea", "default": "line one"},
        "long_text": {"type": "string", "maxLength": 500, "default": "long"},
        "count": {"type": "integer", "x-widget": "number-input", "minimum": 0,
                  "maximum": 99, "default": 7},
        "ratio": {"type": "number", "default": 1.5},
        "email": {"type": "string", "x-widget": "email-input", "default": "a@example.com"},
        "email_by_format": {"type": "string", "format": "email", "default": "b@example.com"},
        "homepage": {"type": "string", "x-widget": "url-input",
                     "default": "https://example.com/"},
        "api_key": {"type": "string", "x-secret": True, "default": ""},
        "password": {"type": "string", "x-widget": "password-input", "default": "pw"},
        "mode": {"type": "string", "x-widget": "select-dropdown",
                 "enum": ["fast", "slow", 'say "hi"'], "default": "slow"},
        "size": {"type": "integer", "enum": [1, 2, 3], "default": 2},
        "align": {"type": "string", "x-widget": "radio-group",
                  "enum": ["left", "center", "right"], "default": "center"},
        "show_seconds": {"type": "boolean", "x-widget": "toggle-switch", "default": True},
        "flag": {"type": "boolean", "default": False},
        "brightness": {"type": "integer", "x-widget": "slider", "minimum": 0,
                       "maximum": 100, "default": 40},
        "color": {"type": "array", "x-widget": "color-picker",
                  "items": {"type": "integer"}, "default": [255, 128, 0]},
        "hex_color": {"type": "string", "x-widget": "color-picker", "default": "#00ff00"},
        "font": {"type": "string", "x-widget": "font-selector", "default": "5x7"},
        "timezone": {"type": "string", "x-widget": "timezone-selector",
                     "default": "Europe/Paris"},
        "start_date": {"type": "string", "x-widget": "date-picker", "default": "2026-01-02"},
        "alarm": {"type": "string", "x-widget": "time-picker", "default": "07:30"},
        "days": {"type": "array", "x-widget": "day-selector", "items": {"type": "string"},
                 "default": ["monday", "friday"]},
        "leagues": {"type": "array", "x-widget": "checkbox-group",
                    "items": {"type": "string", "enum": ["nfl", "nba", "mlb"]},
                    "default": ["nba"]},
        "quiet_hours": {"type": "object", "x-widget": "time-range", "properties": {
            "start_time": {"type": "string", "default": "22:00"},
            "end_time": {"type": "string", "default": "06:30"}}},
        "schedule": {"type": "object", "x-widget": "schedule-picker", "properties": {
            "enabled": {"type": "boolean", "default": False},
            "start_time": {"type": "string", "default": "08:00"},
            "end_time": {"type": "string", "default": "18:00"},
            "days": {"type": "array", "items": {"type": "string"}, "default": ["sunday"]}}},
        "teams": {"type": "array", "x-widget": "array-table", "default": [
            {"abbr": "BOS", "rank": 1, "active": False}], "items": {
            "type": "object", "properties": {
                "abbr": {"type": "string"}, "rank": {"type": "integer"},
                "active": {"type": "boolean", "default": True}}}},
        "tags": {"type": "array", "items": {"type": "string"}, "default": ["a", ""]},
        "feeds": {"type": "array", "x-widget": "custom-feeds", "default": [
            {"name": "News", "url": "https://news.example/rss", "enabled": True}],
                  "items": {"type": "object", "properties": {
                      "name": {"type": "string"}, "url": {"type": "string"},
                      "enabled": {"type": "boolean", "default": True}}}},
        "calendars": {"type": "array", "x-widget": "vendor-calendar-picker",
                      "items": {"type": "string"}, "default": ["primary"]},
        "images": {"type": "array", "x-widget": "file-upload", "items": {"type": "object"},
                   "default": []},
        "logo": {"type": "string", "x-widget": "file-upload-single", "default": ""},
        "files": {"type": "object", "x-widget": "plugin-file-manager",
                  "x-widget-config": {"actions": [{"id": "refresh", "label": "Refresh files"}]},
                  "default": {}},
        "notice": {"type": "string", "x-widget": "notification",
                   "description": "Restart after changing the API key.", "default": ""},
        "generic": {"type": "string", "x-widget": "base-widget", "default": "plain"},
        "mystery": {"type": "string", "x-widget": "no-such-widget", "default": "kept"},
        "display": {"type": "object", "properties": {
            "scroll_speed": {"type": "number", "default": 2},
            "inner": {"type": "object", "properties": {
                "label": {"type": "string", "default": "12"},
                "visible": {"type": "boolean", "default": False}}}}},
        "extra": {"type": "object", "default": {"free": ["form", 1]}},
    },
}
WIDGETS = ["text-input", "textarea", "number-input", "email-input", "url-input",
           "password-input", "select-dropdown", "radio-group", "toggle-switch", "slider",
           "color-picker", "font-selector", "timezone-selector", "date-picker", "day-selector",
           "time-range", "schedule-picker", "array-table", "custom-feeds",
           "vendor-calendar-picker", "time-picker", "file-upload", "file-upload-single",
           "plugin-file-manager", "checkbox-group", "notification", "base-widget"]


class Controls(HTMLParser):
    """Collect each field's controls and visible text from the form's HTML."""

    def __init__(self) -> None:
        super().__init__()
        self.fields: dict[str, dict[str, Any]] = {}
        self._stack: list[str] = []
        self.tags: list[tuple[str, dict[str, str | None]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        self.tags.append((tag, found))
        if tag == "div" and "pf-field" in (found.get("class") or ""):
            name = found.get("data-name") or ""
            self.fields[name] = {"widget": found.get("data-widget"), "controls": [],
                                 "group": "pf-w-group" in (found.get("class") or "")}
            self._stack.append(name)
        elif tag in ("input", "select", "textarea", "button") and self._stack:
            self.fields[self._stack[-1]]["controls"].append((tag, found))


def render(web: WebEnv, plugin_id: str = "widgets") -> str:
    answer = web.client.get(f"/v3/partials/plugin-config/{plugin_id}")
    assert answer.status_code == 200
    return answer.get_data(as_text=True)


@pytest.fixture
def widgets(web: WebEnv) -> WebEnv:
    write_plugin(web.paths.plugins_dir(), "widgets", schema=EVERY_WIDGET_SCHEMA)
    return web


def test_every_widget_name_draws_a_control(widgets: WebEnv) -> None:
    parsed = Controls()
    parsed.feed(render(widgets))
    drawn = {info["widget"] for info in parsed.fields.values()}
    assert set(WIDGETS) <= drawn
    for name, info in parsed.fields.items():
        if not info["group"]:  # a group's controls are its children's
            assert info["controls"], f"{name} ({info['widget']}) has no control"
    assert "enabled" not in parsed.fields  # the tab's own switch owns it


def test_values_show_the_prepared_config_with_types_kept(widgets: WebEnv) -> None:
    parsed = Controls()
    parsed.feed(render(widgets))

    def control(name: str) -> dict[str, str | None]:
        return parsed.fields[name]["controls"][0][1]

    assert control("title")["value"] == "Hello"
    assert control("zip_code")["value"] == "02134"
    assert control("zip_code")["data-kind"] == "string"
    assert control("count")["type"] == "number" and control("count")["data-kind"] == "integer"
    assert (control("count")["min"], control("count")["max"], control("count")["step"]) == (
        "0", "99", "1")
    assert control("email_by_format")["type"] == "email"
    assert control("alarm")["type"] == "time" and control("alarm")["value"] == "07:30"
    assert control("start_date")["type"] == "date"
    assert control("color")["value"] == "#ff8000" and control("color")["data-kind"] == "rgb"
    assert control("flag").get("checked") is None and control("show_seconds")["type"] == (
        "checkbox")
    assert "checked" in control("show_seconds")
    assert control("quiet_hours.start_time")["type"] == "time"
    assert parsed.fields["display.inner.label"]["controls"][0][1]["value"] == "12"
    assert json.loads(control("extra")["data-path"] or "") == ["extra"]


def test_an_unknown_widget_falls_back_with_a_note(widgets: WebEnv) -> None:
    html = render(widgets)
    parsed = Controls()
    parsed.feed(html)
    assert parsed.fields["mystery"]["widget"] == "text-input"
    assert parsed.fields["mystery"]["controls"][0][1]["value"] == "kept"
    assert "unknown widget &#39;no-such-widget&#39;: shown as text-input" in html


def test_a_widget_that_does_not_fit_the_type_falls_back(web: WebEnv) -> None:
    write_plugin(web.paths.plugins_dir(), "odd", schema={"type": "object", "properties": {
        "word": {"type": "string", "x-widget": "toggle-switch", "default": "yes"},
        "pick": {"type": "string", "x-widget": "select-dropdown", "default": "a"},
        "level": {"type": "integer", "x-widget": "slider", "default": 3}}})
    html = render(web, "odd")
    parsed = Controls()
    parsed.feed(html)
    assert parsed.fields["word"]["widget"] == "text-input"
    assert parsed.fields["word"]["controls"][0][1]["value"] == "yes"
    assert parsed.fields["pick"]["widget"] == "text-input"
    assert parsed.fields["level"]["widget"] == "slider"
    assert "widget &#39;toggle-switch&#39; does not fit a string: shown as text-input" in html


def test_a_font_selector_enum_holding_objects_or_lists_still_draws(web: WebEnv) -> None:
    write_plugin(web.paths.plugins_dir(), "odd", schema={"type": "object", "properties": {
        "font": {"type": "string", "x-widget": "font-selector", "default": "5x7",
                 "enum": ["5x7", {"name": "big"}, ["tiny"], None, 3]}}})
    answer = web.client.get("/v3/partials/plugin-config/odd")
    html = answer.get_data(as_text=True)
    assert answer.status_code == 200 and "data-partial-error" not in html, html
    parsed = Controls()
    parsed.feed(html)
    assert parsed.fields["font"]["widget"] == "font-selector"


def test_a_secret_shows_the_mask_never_the_value(widgets: WebEnv) -> None:
    answer = widgets.client.post("/api/v3/plugins/config",
                                 json={"plugin_id": "widgets", "api_key": "s3cr3t-value"})
    assert answer.status_code == 200, answer.get_json()
    html = render(widgets)
    assert "s3cr3t-value" not in html
    parsed = Controls()
    parsed.feed(html)
    secret = parsed.fields["api_key"]["controls"][0][1]
    assert (secret["type"], secret["value"]) == ("password", "********")


def test_hostile_schema_and_config_values_are_escaped(web: WebEnv) -> None:
    schema = {"type": "object", "properties": {
        "title": {"type": "string", "title": HOSTILE, "description": HOSTILE,
                  "default": HOSTILE},
        "choice": {"type": "string", "enum": ['a"b', "<b>x</b>"], "default": 'a"b'},
        "feeds": {"type": "array", "x-widget": "custom-feeds", "items": {
            "type": "object", "properties": {"name": {"type": "string"},
                                             "url": {"type": "string"}}}},
        "files": {"type": "object", "x-widget": "plugin-file-manager", "x-widget-config": {
            "actions": [{"id": "x\" onclick=\"alert(1)", "label": HOSTILE,
                         "params": {"q": "</script>\"'"}}]}},
        "images": {"type": "array", "x-widget": "file-upload", "items": {"type": "object"}},
    }}
    write_plugin(web.paths.plugins_dir(), "hostile", schema=schema)
    config = web.config()
    config["hostile"] = {"enabled": True, "feeds": [
        {"name": HOSTILE, "url": "javascript:alert(1)"},
        {"name": "ok", "url": "https://example.com/a?b=1&c=2"}],
        "images": [{"name": "x.png", "path": "assets/x.png", "original_name": HOSTILE}]}
    web.paths.config_file.write_text(json.dumps(config))
    html = render(web, "hostile")
    assert "<script>" not in html and "</script>\"'" not in html
    assert HOSTILE.replace('"', "&#34;").replace("<", "&lt;").replace(">", "&gt;") in html
    assert 'onclick="' not in html
    parsed = Controls()
    parsed.feed(html)
    links = [a.get("href") for tag, a in parsed.tags if tag == "a"]
    assert links == ["https://example.com/a?b=1&c=2"]
    options = [a.get("value") for tag, a in parsed.tags if tag == "option"]
    assert json.dumps('a"b') in options
    action = next(a for tag, a in parsed.tags if tag == "button" and "data-action" in a)
    assert action["data-action"] == 'x" onclick="alert(1)'
    assert json.loads(action["data-params"] or "") == {"q": "</script>\"'"}
    assert not [name for _, attrs in parsed.tags for name in attrs if name.startswith("on")]


def test_a_plugin_without_a_schema_says_so(web: WebEnv) -> None:
    html = render(web, "ticker")
    assert "no settings form" in html


def test_a_stored_value_outside_the_enum_stays_selected(widgets: WebEnv) -> None:
    config = widgets.config()
    config["widgets"] = {"enabled": True, "mode": "legacy"}
    widgets.paths.config_file.write_text(json.dumps(config))
    parsed = Controls()
    parsed.feed(render(widgets))
    selected = [a for tag, a in parsed.tags if tag == "option" and "selected" in a]
    assert {"value": '"legacy"', "selected": None} in selected


def test_a_value_the_browser_input_cannot_show_gets_a_text_input(web: WebEnv) -> None:
    write_plugin(web.paths.plugins_dir(), "odd", schema={"type": "object", "properties": {
        "unbounded": {"type": "integer", "x-widget": "slider", "default": 300},
        "over": {"type": "integer", "x-widget": "slider", "minimum": 0, "maximum": 100,
                 "default": 300},
        "fits": {"type": "integer", "x-widget": "slider", "minimum": 0, "maximum": 100,
                 "default": 40},
        "named": {"type": "string", "x-widget": "color-picker", "default": "red"},
        "hex": {"type": "string", "x-widget": "color-picker", "default": "#00ff00"},
        "rgb": {"type": "array", "x-widget": "color-picker", "items": {"type": "integer"},
                "default": [300, 0, 0]},
        "short_time": {"type": "string", "x-widget": "time-picker", "default": "7:00"},
        "time": {"type": "string", "x-widget": "time-picker", "default": "07:00"},
        "day": {"type": "string", "x-widget": "date-picker", "default": "1/2/2026"},
        "date": {"type": "string", "x-widget": "date-picker", "default": "2026-01-02"}}})
    parsed = Controls()
    parsed.feed(render(web, "odd"))

    def control(name: str) -> tuple[str | None, str | None]:
        attrs = parsed.fields[name]["controls"][0][1]
        return attrs.get("type"), attrs.get("value")

    assert control("unbounded") == ("number", "300")
    assert control("over") == ("number", "300")
    assert control("fits") == ("range", "40")
    assert control("named") == ("text", "red")
    assert control("hex") == ("color", "#00ff00")
    assert control("rgb") == ("text", "[300, 0, 0]")
    assert parsed.fields["rgb"]["controls"][0][1]["data-kind"] == "json"
    assert control("short_time") == ("text", "7:00")
    assert control("time") == ("time", "07:00")
    assert control("day") == ("text", "1/2/2026")
    assert control("date") == ("date", "2026-01-02")


def _rgb(default: Any, **overrides: Any) -> dict[str, Any]:
    """An RGB colour as community plugins declare one (clock-simple's ``text_color``);
    ``None`` leaves a key out."""
    prop = {"type": "array", "title": "Text Color", "description": "Text color (RGB)",
            "items": {"type": "integer", "minimum": 0, "maximum": 255},
            "minItems": 3, "maxItems": 3, "default": default, **overrides}
    return {k: v for k, v in prop.items() if v is not None}


# clock-simple's colours: one per text element, nested as its schema nests them.
CLOCK_COLOURS_SCHEMA = {
    "type": "object",
    "properties": {
        "enabled": {"type": "boolean", "default": False},
        "customization": {"type": "object", "title": "Display Customization", "properties": {
            "time_text": {"type": "object", "title": "Time Display", "properties": {
                "font_size": {"type": "integer", "minimum": 4, "maximum": 16, "default": 8},
                "text_color": _rgb([255, 255, 255])}, "additionalProperties": False},
            "date_text": {"type": "object", "title": "Date Display", "properties": {
                "text_color": _rgb([255, 128, 64])}, "additionalProperties": False},
        }, "additionalProperties": False},
    },
    "additionalProperties": False,
}


def test_a_list_of_three_integers_0_to_255_is_drawn_as_a_colour_picker(web: WebEnv) -> None:
    schema = json.loads(json.dumps(CLOCK_COLOURS_SCHEMA))
    schema["properties"].update({
        "four": _rgb([1, 2, 3, 4], minItems=4, maxItems=4),
        "percent": _rgb([1, 2, 3], items={"type": "integer", "minimum": 0, "maximum": 100}),
        "floats": _rgb([1, 2, 3], items={"type": "number", "minimum": 0, "maximum": 255}),
        "open_ended": _rgb([1, 2, 3], maxItems=None),
        "stored_wrong": _rgb([300, 0, 0]),
        "unset": _rgb(None),
        "named": _rgb([1, 2, 3], **{"x-widget": "color-picker"})})
    write_plugin(web.paths.plugins_dir(), "colours", schema=schema)
    parsed = Controls()
    parsed.feed(render(web, "colours"))

    def control(name: str) -> dict[str, Any]:
        field = parsed.fields[name]
        return {"widget": field["widget"], **{k: field["controls"][0][1].get(k)
                                              for k in ("type", "value", "data-kind")}}

    for name, shown in (("customization.time_text.text_color", "#ffffff"),
                        ("customization.date_text.text_color", "#ff8040"),
                        ("named", "#010203")):
        assert control(name) == {"widget": "color-picker", "type": "color", "value": shown,
                                 "data-kind": "rgb"}, name
    # Anything else stays a table of numbers: another length, other bounds, floats.
    for name in ("four", "percent", "floats", "open_ended"):
        assert parsed.fields[name]["widget"] == "array-table", name
    # A stored value a colour input cannot show is edited as the JSON it is.
    assert control("stored_wrong") == {"widget": "color-picker", "type": "text",
                                       "value": "[300, 0, 0]", "data-kind": "json"}
    assert control("unset")["data-kind"] == "json"
