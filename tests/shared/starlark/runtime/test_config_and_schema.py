"""The config object main receives, and get_schema in pixlet's schema JSON."""

from __future__ import annotations

from pathlib import Path

import pytest

from shared.starlark.runtime import AppError, app_schema, load_app, schema_handler
from tests.shared.starlark.runtime.app_builder import main_value, write_app

CONFIG_APP = ('def main(config):\n'
              '    return [config.get("name"), config.get("none", "dflt"), config.str("name"),\n'
              '            config.bool("on"), config.bool("off"), config.bool("odd"),\n'
              '            config.bool("missing"), config.bool("missing", True)]\n')


def test_config_reads_strings_and_go_booleans(tmp_path: Path) -> None:
    config = {"name": "Ada", "on": "true", "off": "false", "odd": "yes"}
    assert main_value(tmp_path, CONFIG_APP, config) == ["Ada", "dflt", "Ada", True, False,
                                                        False, None, True]


def test_main_without_parameters_is_called_without_config(tmp_path: Path) -> None:
    assert main_value(tmp_path, "def main():\n    return 7\n") == 7


SCHEMA_APP = '''load("schema.star", "schema")

def opts(location):
    return []

def main(config):
    return None

def get_schema():
    return schema.Schema(
        version = "1",
        fields = [
            schema.Text(id = "who", name = "Who", desc = "Your name", icon = "user",
                        default = "Ada"),
            schema.Toggle(id = "sec", name = "Seconds", desc = "Show seconds",
                          icon = "clock", default = False),
            schema.Dropdown(id = "size", name = "Size", desc = "Text size", icon = "text",
                            default = "s", options = [
                                schema.Option(display = "Small", value = "s"),
                                schema.Option(display = "Large", value = "l"),
                            ]),
            schema.Color(id = "c", name = "Colour", desc = "Text colour", icon = "brush",
                         default = "#ff0000", palette = ["#ff0000", "#00ff00"]),
            schema.Location(id = "loc", name = "Location", desc = "Where", icon = "place"),
            schema.LocationBased(id = "st", name = "Station", desc = "Nearby",
                                 icon = "train", handler = opts),
            schema.Generated(id = "gen", source = "size", handler = opts),
        ],
    )
'''


def test_schema_fields_in_pixlets_json_shape(tmp_path: Path) -> None:
    found = app_schema(load_app(write_app(tmp_path, SCHEMA_APP)))
    assert found == {"version": "1", "schema": [
        {"type": "text", "id": "who", "name": "Who", "description": "Your name",
         "icon": "user", "default": "Ada"},
        {"type": "onoff", "id": "sec", "name": "Seconds", "description": "Show seconds",
         "icon": "clock", "default": "false"},
        {"type": "dropdown", "id": "size", "name": "Size", "description": "Text size",
         "icon": "text", "default": "s", "options": [
             {"display": "Small", "text": "Small", "value": "s"},
             {"display": "Large", "text": "Large", "value": "l"}]},
        {"type": "color", "id": "c", "name": "Colour", "description": "Text colour",
         "icon": "brush", "default": "#ff0000", "palette": ["#ff0000", "#00ff00"]},
        {"type": "location", "id": "loc", "name": "Location", "description": "Where",
         "icon": "place"},
        {"type": "locationbased", "id": "st", "name": "Station", "description": "Nearby",
         "icon": "train", "handler": "opts"},
        {"type": "generated", "id": "gen", "source": "size", "handler": "opts"},
    ]}


def test_options_are_structs_apps_read(tmp_path: Path) -> None:
    source = ('load("schema.star", "schema")\n'
              'OPTS = [schema.Option(display = "North", value = "n")]\n'
              'def main(config):\n    return [OPTS[0].value, OPTS[0].display]\n')
    assert main_value(tmp_path, source) == ["n", "North"]


def test_an_app_without_get_schema_has_none(tmp_path: Path) -> None:
    assert app_schema(load_app(write_app(tmp_path, "def main(config):\n    return 1\n"))) \
        is None


HANDLER_APP = '''load("schema.star", "schema")

def stations(location):
    return [schema.Option(display = "Near " + location, value = "s1")]

def more(kind):
    if kind == "yes":
        return [schema.Text(id = "extra", name = "Extra", desc = "More", icon = "plus")]
    return []

def main(config):
    return None
'''


def test_a_handler_gives_options_as_pixlet_writes_them(tmp_path: Path) -> None:
    app = load_app(write_app(tmp_path, HANDLER_APP))
    assert schema_handler(app, "stations", "Paris") == [
        {"display": "Near Paris", "text": "Near Paris", "value": "s1"}]


def test_a_generated_handler_gives_fields(tmp_path: Path) -> None:
    app = load_app(write_app(tmp_path, HANDLER_APP))
    assert schema_handler(app, "more", "yes") == [
        {"type": "text", "id": "extra", "name": "Extra", "description": "More",
         "icon": "plus"}]


def test_an_unknown_handler_is_named(tmp_path: Path) -> None:
    app = load_app(write_app(tmp_path, HANDLER_APP))
    with pytest.raises(AppError, match="the app has no schema handler 'nope'"):
        schema_handler(app, "nope", "x")
