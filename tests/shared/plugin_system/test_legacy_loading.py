"""``src.plugin_system.testing.loading``: a plugin's files read as its tests expect."""

from __future__ import annotations

import importlib
import json
from pathlib import Path

import pytest

from shared.plugin_api import compat
from shared.plugin_system.testing import loading
from tests.shared.plugin_system.harness_plugins import FRAMED, make_plugin

SCHEMA = {"type": "object", "properties": {
    "enabled": {"type": "boolean", "default": False},
    "nhl": {"type": "object", "properties": {
        "enabled": {"type": "boolean", "default": False},
        "favorite_teams": {"type": "array", "default": ["TB"]}}},
    "live": {"type": "object", "properties": {"on": {"type": "boolean"}}},
}}


@pytest.fixture
def plugin(tmp_path: Path) -> Path:
    return make_plugin(tmp_path, "demo", FRAMED, schema=SCHEMA)


def test_manifest_schema_and_defaults(plugin: Path, tmp_path: Path) -> None:
    assert loading.load_manifest(plugin)["id"] == "demo"
    with pytest.raises(FileNotFoundError):
        loading.load_manifest(tmp_path)
    assert loading.load_schema(tmp_path) is None and loading.load_config_defaults(tmp_path) == {}
    assert loading.load_config_defaults(plugin) == {
        "enabled": False, "nhl": {"enabled": False, "favorite_teams": ["TB"]}}


def test_build_config_is_enabled_and_a_nested_override_keeps_its_siblings(plugin: Path) -> None:
    config = loading.build_config(plugin, {"nhl": {"enabled": True}, "live": True})
    assert config["enabled"] is True
    assert config["nhl"] == {"enabled": True, "favorite_teams": ["TB"]}
    assert config["live"] == {"enabled": True}  # the device's legacy-boolean rule
    assert loading.merge_config({"a": {"b": 1, "c": 2}}, {"a": {"b": 3}}) == {"a": {"b": 3, "c": 2}}


def test_harness_spec_reads_the_mock_data_and_builds_the_full_config(plugin: Path) -> None:
    assert loading.load_harness_spec(plugin) == {}
    (plugin / "test" / "fixtures").mkdir(parents=True)
    (plugin / "test" / "fixtures" / "mock.json").write_text(json.dumps({"scores": [1]}))
    spec = {"config": {"nhl": {"favorite_teams": ["NYR"]}}, "mock_data": "test/fixtures/mock.json"}
    (plugin / "test" / "harness.json").write_text(json.dumps(spec))
    loaded = loading.load_harness_spec(plugin)
    assert loaded["mock_data_contents"] == {"scores": [1]}
    full = loading.build_full_config(plugin, loaded, {"nhl": {"enabled": True}})
    assert full["nhl"] == {"enabled": True, "favorite_teams": ["NYR"]}
    spec["mock_data"] = "test/fixtures/gone.json"
    (plugin / "test" / "harness.json").write_text(json.dumps(spec))
    with pytest.raises(FileNotFoundError, match="gone.json"):
        loading.load_harness_spec(plugin)


def test_find_plugin_dir_by_folder_or_manifest_id(plugin: Path, tmp_path: Path) -> None:
    other = make_plugin(tmp_path / "more", "folder-name", FRAMED)
    manifest = json.loads((other / "manifest.json").read_text())
    (other / "manifest.json").write_text(json.dumps({**manifest, "id": "real-id"}))
    dirs = [tmp_path / "missing", tmp_path, tmp_path / "more"]
    assert loading.find_plugin_dir("demo", dirs) == plugin
    assert loading.find_plugin_dir("real-id", dirs) == other
    assert loading.find_plugin_dir("nothing", dirs) is None


def test_the_module_has_the_existing_systems_name() -> None:
    compat.install()
    assert importlib.import_module("src.plugin_system.testing.loading") is loading
