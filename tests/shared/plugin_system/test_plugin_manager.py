"""PluginManager: enabled rule, isolation of broken plugins, config preparation, hot reload."""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from shared.errors import PluginError, ValidationError
from shared.paths import Paths
from shared.plugin_system.manager import PluginManager
from shared.plugin_system.records import installed_records, plugin_icon
from shared.plugin_system.schema import find_schema_file, load_schema

MakePlugin = Callable[..., Path]

RECORDING_CODE = """
from shared.plugin_api.base_plugin import BasePlugin

EVENTS = []


class RecordingPlugin(BasePlugin):
    def __init__(self, *args):
        super().__init__(*args)
        self.events = EVENTS
        self.events.append(("init", self.config))

    def update(self):
        pass

    def display(self, force_clear=False):
        return True

    def on_config_change(self, new_config):
        self.events.append(("config", new_config))
        super().on_config_change(new_config)

    def cleanup(self):
        self.events.append(("cleanup", None))
"""

SCHEMA = {
    "type": "object",
    "properties": {
        "color": {"type": "string", "default": "red"},
        "dynamic_duration": {"type": "object", "properties": {"cap": {"type": "number"}}},
        "scroll": {"type": "object", "properties": {"speed": {"type": "integer", "default": 2}}},
    },
}


def manager(paths: Paths, config: dict[str, Any], **kwargs: Any) -> PluginManager:
    return PluginManager(paths, config, **kwargs)


def test_only_enabled_plugins_load_and_default_enabled_comes_from_the_manifest(
    paths: Paths, plugins_dir: Path, make_plugin: MakePlugin
) -> None:
    make_plugin(plugins_dir, "bundled", manifest_overrides={"enabled_by_default": True})
    make_plugin(plugins_dir, "bundled-off", manifest_overrides={"enabled_by_default": True})
    make_plugin(plugins_dir, "community")
    make_plugin(plugins_dir, "chosen")
    config = {"bundled-off": {"enabled": False}, "chosen": {"enabled": True}}

    loaded = manager(paths, config).load_enabled()

    assert sorted(loaded) == ["bundled", "chosen"]


def test_a_broken_plugin_among_good_ones_is_logged_and_skipped(
    paths: Paths, plugins_dir: Path, make_plugin: MakePlugin, caplog: pytest.LogCaptureFixture
) -> None:
    make_plugin(plugins_dir, "good-a")
    make_plugin(plugins_dir, "bad-json", manifest_text="{ not json")
    make_plugin(plugins_dir, "bad-manifest", manifest_overrides={"class_name": None})
    make_plugin(plugins_dir, "bad-import", code="raise RuntimeError('boom at import')\n")
    make_plugin(plugins_dir, "bad-class", manifest_overrides={"class_name": "Missing"})
    make_plugin(plugins_dir, "bad-init", code=RECORDING_CODE.replace(
        "self.events = EVENTS", "raise ValueError('bad settings')"),
        class_name="RecordingPlugin")
    make_plugin(plugins_dir, "good-b")
    ids = ["good-a", "bad-json", "bad-manifest", "bad-import", "bad-class", "bad-init", "good-b"]
    plugins = manager(paths, {i: {"enabled": True} for i in ids})

    with caplog.at_level(logging.WARNING):
        loaded = plugins.load_enabled()

    assert sorted(loaded) == ["good-a", "good-b"]
    errors = plugins.load_errors
    assert sorted(errors) == ["bad-class", "bad-import", "bad-init", "bad-json", "bad-manifest"]
    assert "is not valid JSON" in errors["bad-json"]
    assert errors["bad-manifest"] == "class_name: is required"
    assert errors["bad-import"] == (
        "bad-import: importing manager.py failed: RuntimeError: boom at import")
    assert "class 'Missing' not found in manager.py" in errors["bad-class"]
    assert errors["bad-init"] == "ValueError: bad settings"
    import_record = next(r for r in caplog.records if r.getMessage().startswith("bad-import: "))
    assert import_record.exc_info is not None
    assert "bad-json: skipped: " in "\n".join(caplog.messages)


def test_prepared_config_is_passed_at_load(
    paths: Paths, plugins_dir: Path, make_plugin: MakePlugin
) -> None:
    make_plugin(plugins_dir, "prep", class_name="RecordingPlugin", code=RECORDING_CODE,
                schema=SCHEMA)
    config = {"prep": {"enabled": True, "dynamic_duration": True, "scroll": {}}}

    instance = manager(paths, config).load_enabled()["prep"]

    assert instance.config == {
        "enabled": True,
        "dynamic_duration": {"enabled": True},
        "color": "red",
        "scroll": {"speed": 2},
    }


def test_apply_config_calls_on_config_change_with_the_prepared_config(
    paths: Paths, plugins_dir: Path, make_plugin: MakePlugin
) -> None:
    make_plugin(plugins_dir, "live", class_name="RecordingPlugin", code=RECORDING_CODE,
                schema=SCHEMA)
    plugins = manager(paths, {"live": {"enabled": True}})
    instance = plugins.load_enabled()["live"]
    instance.events.clear()

    assert plugins.apply_config({"live": {"enabled": True}}) == []
    changed = plugins.apply_config({"live": {"enabled": True, "color": "blue",
                                             "dynamic_duration": False}})

    assert changed == ["live"]
    expected = {"enabled": True, "color": "blue", "dynamic_duration": {"enabled": False},
                "scroll": {"speed": 2}}
    assert instance.events == [("config", expected)]
    assert instance.config == expected


def test_apply_config_loads_newly_enabled_and_unloads_disabled_plugins(
    paths: Paths, plugins_dir: Path, make_plugin: MakePlugin
) -> None:
    make_plugin(plugins_dir, "first", class_name="RecordingPlugin", code=RECORDING_CODE)
    make_plugin(plugins_dir, "second")
    plugins = manager(paths, {"first": {"enabled": True}})
    first = plugins.load_enabled()["first"]

    changed = plugins.apply_config({"first": {"enabled": False}, "second": {"enabled": True}})

    assert changed == ["first", "second"]
    assert list(plugins.instances) == ["second"]
    assert first.events[-1] == ("cleanup", None)
    assert first.enabled is False


def test_a_failing_on_config_change_does_not_stop_the_reload(
    paths: Paths, plugins_dir: Path, make_plugin: MakePlugin, caplog: pytest.LogCaptureFixture
) -> None:
    code = RECORDING_CODE.replace('self.events.append(("config", new_config))',
                                  "raise RuntimeError('cannot')")
    make_plugin(plugins_dir, "fragile", class_name="RecordingPlugin", code=code)
    make_plugin(plugins_dir, "steady", class_name="RecordingPlugin", code=RECORDING_CODE)
    plugins = manager(paths, {"fragile": {"enabled": True}, "steady": {"enabled": True}})
    plugins.load_enabled()

    with caplog.at_level(logging.ERROR):
        changed = plugins.apply_config({"fragile": {"enabled": True, "x": 1},
                                        "steady": {"enabled": True, "x": 1}})

    assert changed == ["fragile", "steady"]
    assert plugins.instances["steady"].config == {"enabled": True, "x": 1}
    assert any(m.startswith("fragile: on_config_change() failed") for m in caplog.messages)


def test_validate_config_false_keeps_a_plugin_out(
    paths: Paths, plugins_dir: Path, make_plugin: MakePlugin
) -> None:
    code = RECORDING_CODE + "\n    def validate_config(self):\n        return False\n"
    make_plugin(plugins_dir, "picky", class_name="RecordingPlugin", code=code)
    plugins = manager(paths, {"picky": {"enabled": True}})

    assert plugins.load_enabled() == {}
    assert plugins.load_errors == {"picky": "picky: validate_config() refused the config"}


def test_a_display_duration_the_plugin_refuses_is_named_in_the_load_error(
    paths: Paths, plugins_dir: Path, make_plugin: MakePlugin
) -> None:
    make_plugin(plugins_dir, "zero", class_name="RecordingPlugin", code=RECORDING_CODE)
    plugins = manager(paths, {"zero": {"enabled": True, "display_duration": 0}})

    assert plugins.load_enabled() == {}
    assert plugins.load_errors["zero"] == (
        "zero: validate_config() refused the config (display_duration must be a positive "
        "number of seconds, not 0; set it in the plugin's settings or remove it to use the "
        "default)")


@pytest.mark.parametrize("bad_id", ["../x", "a/b", "", ".", "..", "a\\b", ".hidden"])
def test_get_plugin_directory_refuses_ids_that_are_not_one_plain_segment(
    paths: Paths, bad_id: str
) -> None:
    with pytest.raises(ValidationError):
        manager(paths, {}).get_plugin_directory(bad_id)


def test_get_plugin_directory_finds_discovered_plugins(
    paths: Paths, plugins_dir: Path, make_plugin: MakePlugin
) -> None:
    plugin_dir = make_plugin(plugins_dir, "weather", dir_name="ledpanel-weather")
    plugins = manager(paths, {})

    assert plugins.get_plugin_directory("weather") == plugin_dir
    assert plugins.get_plugin_directory("unknown") is None


def test_plugins_directory_comes_from_the_config(
    paths: Paths, tmp_path: Path, make_plugin: MakePlugin
) -> None:
    make_plugin(tmp_path / "custom-dir", "elsewhere")
    config = {"plugin_system": {"plugins_directory": "custom-dir"}}

    plugins = manager(paths, config)

    assert plugins.plugins_dir == tmp_path / "custom-dir"
    assert [info.id for info in plugins.discover()] == ["elsewhere"]


def test_schema_lookup_prefers_the_dev_plugins_directory(
    paths: Paths, plugins_dir: Path, make_plugin: MakePlugin
) -> None:
    blue = {"type": "object", "properties": {"color": {"type": "string", "default": "blue"}}}
    make_plugin(plugins_dir, "colors", schema=SCHEMA)
    make_plugin(paths.dev_plugins_dir, "colors", schema=blue)
    search = [paths.dev_plugins_dir, plugins_dir]

    assert find_schema_file("colors", search) == paths.dev_plugins_dir / "colors" / (
        "config_schema.json")
    assert load_schema("colors", paths, plugins_dir) == blue
    assert manager(paths, {}).prepared_config("colors") == {"color": "blue"}
    assert find_schema_file("nothing", search) is None


def test_bad_schema_json_is_a_readable_plugin_error(
    paths: Paths, plugins_dir: Path, make_plugin: MakePlugin
) -> None:
    plugin_dir = make_plugin(plugins_dir, "badschema")
    (plugin_dir / "config_schema.json").write_text('{"type": "object",\n}', encoding="utf-8")

    with pytest.raises(PluginError) as caught:
        load_schema("badschema", paths, plugins_dir)

    assert "config_schema.json is not valid JSON" in caught.value.message
    assert "trailing comma before the end of the object (line 1, column 18)" in (
        caught.value.message)
    plugins = manager(paths, {"badschema": {"enabled": True}})
    assert plugins.load_enabled() == {}
    assert "is not valid JSON" in plugins.load_errors["badschema"]


def test_modes_prefer_the_instance_attribute(
    paths: Paths, plugins_dir: Path, make_plugin: MakePlugin
) -> None:
    code = RECORDING_CODE.replace("self.events = EVENTS", "self.events = EVENTS\n"
                                  "        self.modes = ['multi-live']")
    make_plugin(plugins_dir, "multi", class_name="RecordingPlugin", code=code,
                manifest_overrides={"display_modes": ["multi-live", "multi-recent"]})
    plugins = manager(paths, {"multi": {"enabled": True}})

    assert plugins.modes("multi") == ["multi-live", "multi-recent"]  # before loading
    plugins.load_enabled()
    assert plugins.modes("multi") == ["multi-live"]


def test_installed_records_read_manifests_without_the_icon(
    paths: Paths, plugins_dir: Path, make_plugin: MakePlugin
) -> None:
    make_plugin(plugins_dir, "shown", schema=SCHEMA, manifest_overrides={
        "icon": "fas fa-star", "tags": ["a", 1], "category": "custom", "description": "d"})
    make_plugin(plugins_dir, "broken", manifest_overrides={"class_name": None,
                                                            "enabled_by_default": True})

    records = {r["id"]: r for r in installed_records(paths, {"shown": {"enabled": True}})}

    assert sorted(records) == ["broken", "shown"]
    shown = records["shown"]
    assert "icon" not in shown
    assert shown == {
        "id": "shown", "name": "shown plugin", "version": "1.0.0", "author": "tests",
        "description": "d", "category": "custom", "tags": ["a"], "enabled": True,
        "display_modes": ["shown"], "entry_point": "manager.py", "class_name": "DemoPlugin",
        "path": str(plugins_dir / "shown"), "has_config_schema": True, "errors": [],
        "warnings": ["tags[1]: must be a string"],
    }
    assert records["broken"]["enabled"] is True
    assert records["broken"]["errors"] == ["class_name: is required"]
    assert records["broken"]["has_config_schema"] is False


def test_plugins_reach_font_cache_and_config_managers(
    paths: Paths, plugins_dir: Path, make_plugin: MakePlugin, display_manager: Any
) -> None:
    make_plugin(plugins_dir, "reader")
    fonts = object()
    config = {"reader": {"enabled": True}, "location": {"timezone": "Europe/Oslo"},
              "web": {"port": 8080}}
    plugins = manager(paths, config, display_manager=display_manager, font_manager=fonts)

    instance = plugins.load_enabled()["reader"]

    assert instance.display_manager is display_manager
    assert instance._get_font_manager() is fonts
    assert instance.plugin_manager.config_manager.get_timezone() == "Europe/Oslo"
    loaded = instance.plugin_manager.config_manager.load_config()
    assert loaded == config and loaded is not config
    instance.cache_manager.set("k", {"v": 1})
    assert json.loads((paths.cache_dir / "plugins" / "k.json").read_text())["data"] == {"v": 1}


def test_unload_all_cleans_up_every_plugin(
    paths: Paths, plugins_dir: Path, make_plugin: MakePlugin
) -> None:
    make_plugin(plugins_dir, "one", class_name="RecordingPlugin", code=RECORDING_CODE)
    plugins = manager(paths, {"one": {"enabled": True}})
    instance = plugins.load_enabled()["one"]

    plugins.unload_all()

    assert plugins.instances == {}
    assert instance.events[-1] == ("cleanup", None)


@pytest.mark.parametrize(("icon", "drawn"), [
    ("fas fa-clock", "fas fa-clock"), ("  fa-solid   fa-sun ", "fa-solid fa-sun"),
    (None, "fas fa-puzzle-piece"), ("", "fas fa-puzzle-piece"), (7, "fas fa-puzzle-piece"),
    ('fas" onmouseover="x', "fas fa-puzzle-piece"), ("fa-<b>", "fas fa-puzzle-piece"),
    ("a " * 10, "fas fa-puzzle-piece"), ("x" * 200, "fas fa-puzzle-piece")])
def test_a_plugin_icon_is_its_manifests_class_names_or_the_puzzle_piece(
        icon: Any, drawn: str) -> None:
    assert plugin_icon({} if icon is None else {"icon": icon}) == drawn


WARNING_CODE = """
import logging
import threading

from shared.plugin_api.base_plugin import BasePlugin

try:
    import ledpanel_tests_no_such_package as tz
except ImportError:
    tz = None
    logging.getLogger(__name__).warning("optional package missing: times are shown in UTC")


class WarningPlugin(BasePlugin):
    def __init__(self, *args):
        super().__init__(*args)
        # Another thread logging meanwhile is not this plugin's load.
        other = threading.Thread(target=lambda: logging.getLogger("plugin.other").warning("x"))
        other.start()
        other.join()
        self.logger.info("started")  # below WARNING: not kept

    def validate_config(self):
        self.logger.warning("colour %s is not a colour:\\n  using white", "pink")
        self.logger.warning("colour %s is not a colour:\\n  using white", "pink")
        return True

    def update(self):
        pass

    def display(self, force_clear=False):
        return True
"""


def test_warnings_a_plugin_logs_while_it_loads_are_kept_until_it_is_unloaded(
    paths: Paths, plugins_dir: Path, make_plugin: MakePlugin
) -> None:
    make_plugin(plugins_dir, "warns", class_name="WarningPlugin", code=WARNING_CODE)
    make_plugin(plugins_dir, "quiet")
    plugins = manager(paths, {"warns": {"enabled": True}, "quiet": {"enabled": True}})

    assert sorted(plugins.load_enabled()) == ["quiet", "warns"]

    assert plugins.load_warnings == {"warns": [
        "optional package missing: times are shown in UTC",
        "colour pink is not a colour: using white"]}
    plugins.apply_config({"warns": {"enabled": False}, "quiet": {"enabled": True}})
    assert plugins.load_warnings == {}
