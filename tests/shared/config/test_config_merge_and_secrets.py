"""Deep merge, secrets split and merge, and migration."""

from __future__ import annotations

import copy

from shared.config.merge import deep_merge
from shared.config.migrate import migrate
from shared.config.secrets import keep_secrets_secret, merge_secrets, split_secrets

SCHEMA = {
    "type": "object",
    "properties": {
        "api_key": {"type": "string", "x-secret": True},
        "units": {"type": "string"},
        "account": {
            "type": "object",
            "properties": {
                "user": {"type": "string"},
                "token": {"type": "string", "x-secret": True},
            },
        },
    },
}


def test_deep_merge_merges_nested_objects_and_replaces_lists() -> None:
    base = {"a": {"b": 1, "c": [1, 2]}, "d": 1}
    overlay = {"a": {"c": [3], "e": 2}}
    merged = deep_merge(base, overlay)
    assert merged == {"a": {"b": 1, "c": [3], "e": 2}, "d": 1}
    assert base == {"a": {"b": 1, "c": [1, 2]}, "d": 1}


def test_split_secrets_moves_x_secret_fields_out_including_nested_ones() -> None:
    section = {"api_key": "k", "units": "metric", "account": {"user": "u", "token": "t"}}
    public, secret = split_secrets(section, SCHEMA)
    assert public == {"units": "metric", "account": {"user": "u"}}
    assert secret == {"api_key": "k", "account": {"token": "t"}}
    assert section["api_key"] == "k"


def test_split_secrets_without_a_schema_keeps_everything_public() -> None:
    public, secret = split_secrets({"api_key": "k"}, None)
    assert public == {"api_key": "k"}
    assert secret == {}


def test_merge_secrets_fills_the_same_plugin_namespace() -> None:
    main = {"weather": {"units": "metric", "account": {"user": "u"}}, "brightness": 50}
    secrets = {"weather": {"api_key": "k", "account": {"token": "t"}}}
    merged = merge_secrets(main, secrets)
    assert merged["weather"] == {
        "units": "metric",
        "api_key": "k",
        "account": {"user": "u", "token": "t"},
    }
    assert "api_key" not in main["weather"]


def test_merge_secrets_leaves_reserved_secret_sections_out() -> None:
    merged = merge_secrets({"brightness": 1}, {"github": {"token": "g"}, "youtube": {"k": 1}})
    assert merged == {"brightness": 1}


def test_keep_secrets_secret_moves_known_secret_paths_back_out() -> None:
    secrets = {"weather": {"api_key": "old", "account": {"token": "t"}}}
    loaded = merge_secrets({"weather": {"units": "metric"}}, secrets)
    loaded["weather"]["api_key"] = "new"
    main, moved = keep_secrets_secret(loaded, secrets)
    assert main == {"weather": {"units": "metric", "account": {}}}
    assert moved == {"weather": {"api_key": "new", "account": {"token": "t"}}}


def test_migration_adds_missing_keys_recursively() -> None:
    template = {"a": 1, "b": {"c": 2, "d": {"e": 3}}, "f": []}
    config = {"b": {"d": {}}}
    migrated, added = migrate(config, template)
    assert migrated == {"a": 1, "b": {"c": 2, "d": {"e": 3}}, "f": []}
    assert sorted(added) == ["a", "b.c", "b.d.e", "f"]
    assert config == {"b": {"d": {}}}


def test_migration_never_alters_existing_values() -> None:
    template = {"a": 1, "b": {"c": 2}, "d": "x", "e": [1]}
    config = {"a": 99, "b": "not an object", "d": None, "e": [], "plugin": {"k": True}}
    before = copy.deepcopy(config)
    migrated, added = migrate(config, template)
    assert migrated == before
    assert added == []


def test_migration_keeps_legacy_keys() -> None:
    config = {"plugin_system": {"auto_discover": True}, "target_fps": 120}
    migrated, added = migrate(config, {"plugin_system": {"plugins_directory": "plugin-repos"}})
    assert migrated["plugin_system"] == {
        "auto_discover": True,
        "plugins_directory": "plugin-repos",
    }
    assert migrated["target_fps"] == 120
    assert added == ["plugin_system.plugins_directory"]
