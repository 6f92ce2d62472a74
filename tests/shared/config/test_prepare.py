"""Plugin config preparation: legacy booleans first, then schema defaults; validation."""

from __future__ import annotations

from shared.config.prepare import prepare_plugin_config, validate_plugin_config

SCHEMA = {
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "enabled": {"type": "boolean", "default": False},
        "units": {"type": "string", "enum": ["metric", "imperial"], "default": "metric"},
        "scroll": {"type": "object", "properties": {
            "enabled": {"type": "boolean", "default": False},
            "speed": {"type": "integer", "minimum": 1, "default": 20}}},
        "colors": {"type": "object", "properties": {
            "text": {"type": "array", "default": [255, 255, 255]}}},
        "either": {"type": ["object", "boolean"], "default": False},
    },
}


def test_defaults_fill_missing_keys_and_nested_objects():
    prepared = prepare_plugin_config({}, SCHEMA)
    assert prepared["units"] == "metric"
    assert prepared["colors"] == {"text": [255, 255, 255]}
    assert prepared["scroll"] == {"enabled": False, "speed": 20}


def test_legacy_boolean_becomes_an_object_before_defaults_apply():
    prepared = prepare_plugin_config({"scroll": True}, SCHEMA)
    assert prepared["scroll"] == {"enabled": True, "speed": 20}


def test_legacy_dynamic_duration_true_means_enabled_without_a_schema():
    assert prepare_plugin_config({"dynamic_duration": True}, None) == {
        "dynamic_duration": {"enabled": True}}
    assert prepare_plugin_config({"dynamic_duration": False}, None) == {
        "dynamic_duration": {"enabled": False}}


def test_a_property_that_allows_booleans_keeps_its_boolean():
    assert prepare_plugin_config({"either": True}, SCHEMA)["either"] is True


def test_stored_values_win_over_defaults_and_input_is_not_modified():
    section = {"units": "imperial", "scroll": {"speed": 5}}
    prepared = prepare_plugin_config(section, SCHEMA)
    assert prepared["units"] == "imperial" and prepared["scroll"] == {"enabled": False, "speed": 5}
    assert section == {"units": "imperial", "scroll": {"speed": 5}}


def test_prepared_config_validates_and_core_keys_pass_a_strict_schema():
    prepared = prepare_plugin_config({"display_duration": 20, "live_priority": True}, SCHEMA)
    assert validate_plugin_config(prepared, SCHEMA) == []


def test_validation_names_each_failing_field_once():
    errors = validate_plugin_config(
        {"enabled": "yes", "units": "kelvin", "scroll": {"speed": 0}, "display_duration": 0},
        SCHEMA)
    fields = [error["field"] for error in errors]
    assert sorted(fields) == ["display_duration", "enabled", "scroll.speed", "units"]


def test_unknown_key_refused_by_a_strict_schema():
    errors = validate_plugin_config({"colour": "red"}, SCHEMA)
    assert len(errors) == 1 and "colour" in errors[0]["message"]


def test_non_object_section_is_an_error():
    assert validate_plugin_config(["x"], SCHEMA)[0]["message"] == (  # type: ignore[arg-type]
        "plugin config must be a JSON object")
