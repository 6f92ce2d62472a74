"""A pixlet schema as the JSON Schema the plugin settings form draws."""

from __future__ import annotations

from web_service.starlark.schema_form import defaults, form_values, schema_form
from web_service.ui.plugin_form import WIDGET_TEMPLATES

PIXLET = {"version": "1", "schema": [
    {"type": "text", "id": "who", "name": "Name", "description": "Who to greet",
     "default": "World"},
    {"type": "onoff", "id": "blink", "name": "Blink", "default": "true"},
    {"type": "dropdown", "id": "speed", "name": "Speed", "default": "2", "options": [
        {"display": "Slow", "text": "Slow", "value": "1"},
        {"display": "Fast", "text": "Fast", "value": "2"}]},
    {"type": "color", "id": "fg", "name": "Colour", "default": "#ff0000"},
    {"type": "datetime", "id": "when", "name": "When"},
    {"type": "location", "id": "where", "name": "Where"},
    {"type": "radio", "id": "side", "name": "Side", "options": [
        {"display": "Left", "value": "l"}, {"display": "Right", "value": "r"}]},
    {"type": "oauth2", "id": "account", "name": "Account"},
    {"type": "png", "id": "photo", "name": "Photo"},
    {"type": "locationbased", "id": "stop", "name": "Stop", "handler": "stops"},
    {"type": "typeahead", "id": "team", "name": "Team", "handler": "teams"},
    {"type": "generated", "id": "more", "source": "who", "handler": "more"},
    {"type": "notification", "id": "ping", "name": "Ping"},
    {"type": "dropdown", "id": "empty", "name": "No options"},
    {"type": "text"}, "not a field", {"type": "text", "id": ""},
]}


def test_each_drawable_field_becomes_a_property_the_form_knows() -> None:
    form = schema_form(PIXLET)["schema"]
    props = form["properties"]
    assert form["type"] == "object"
    assert form["x-propertyOrder"] == ["who", "blink", "speed", "fg", "when", "where", "side"]
    assert props["who"] == {"title": "Name", "description": "Who to greet", "type": "string",
                            "default": "World", "x-widget": "text-input"}
    assert props["blink"]["type"] == "boolean" and props["blink"]["default"] is True
    assert props["blink"]["x-widget"] == "toggle-switch"
    assert props["speed"]["enum"] == ["1", "2"]
    assert props["speed"]["x-enum-labels"] == ["Slow", "Fast"]
    assert props["speed"]["default"] == "2"
    assert props["fg"]["x-widget"] == "color-picker"
    assert "RFC 3339" in props["when"]["description"]
    assert props["where"]["x-widget"] == "textarea" and "lat" in props["where"]["description"]
    assert props["side"]["x-widget"] == "radio-group" and props["side"]["enum"] == ["l", "r"]
    assert all(p["x-widget"] in WIDGET_TEMPLATES for p in props.values())


def test_fields_the_form_cannot_draw_are_listed_with_a_note() -> None:
    unsupported = schema_form(PIXLET)["unsupported"]
    by_id = {item["id"]: item for item in unsupported}
    assert list(by_id) == ["account", "photo", "stop", "team", "more", "ping", "empty"]
    assert by_id["account"]["type"] == "oauth2"
    assert "sign" in by_id["account"]["note"]
    assert by_id["empty"]["note"] == "a dropdown field cannot be drawn"
    assert all(item["note"] for item in unsupported)


def test_no_schema_or_garbage_is_an_empty_form() -> None:
    for garbage in (None, {}, {"schema": "x"}, {"schema": [1, None, []]}):
        assert schema_form(garbage) == {  # type: ignore[arg-type]
            "schema": {"type": "object", "properties": {}, "x-propertyOrder": []},
            "unsupported": []}


def test_stored_texts_become_the_form_types_and_defaults_stay_texts() -> None:
    assert form_values(PIXLET, {"blink": "false", "who": "Ann", "gone": "x"}) == {
        "blink": False, "who": "Ann", "gone": "x"}
    assert defaults(PIXLET) == {"who": "World", "blink": "true", "speed": "2",
                                "fg": "#ff0000"}
