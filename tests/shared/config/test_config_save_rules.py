"""Save rules 1-3 of POST /config/main, applied to dicts (nothing is written here)."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from shared.config import save_rules
from shared.config.raw_save import plan_raw_save
from shared.config.save_rules import (
    apply_form_body,
    apply_json_body,
    plan_main_save,
    prepare_and_validate_sections,
    split_plugin_sections,
)
from shared.config.template import load_template
from shared.errors import ValidationError

CLOCK_SCHEMA = {
    "type": "object",
    "properties": {
        "enabled": {"type": "boolean", "default": False},
        "interval": {"type": "integer", "minimum": 1, "default": 30},
        "show_seconds": {"type": "boolean", "default": True},
        "api_key": {"type": "string", "x-secret": True},
        "dynamic_duration": {
            "type": "object",
            "properties": {"enabled": {"type": "boolean", "default": False}},
        },
    },
    "required": ["api_key"],
}
SCHEMAS: dict[str, Any] = {"clock": CLOCK_SCHEMA, "weather": {"type": "object", "properties": {
    "units": {"enum": ["metric", "imperial"], "default": "metric"}}}}


def schema_for(plugin_id: str) -> dict[str, Any] | None:
    return SCHEMAS.get(plugin_id)


@pytest.fixture
def stored() -> dict[str, Any]:
    config = load_template()
    config["display"]["use_short_date_format"] = True
    config["display"]["hardware"]["inverse_colors"] = True
    config["dim_schedule"]["enabled"] = True
    config["plugin_system"]["auto_load_enabled"] = True
    config["clock"] = {"enabled": True, "interval": 30, "show_seconds": True}
    config["weather"] = {"units": "metric"}
    return config


SECRETS = {"clock": {"api_key": "stored-key"}}


# Rule 1: JSON bodies change only what they send.

def test_json_body_changes_only_the_keys_it_sends(stored: dict[str, Any]) -> None:
    new = apply_json_body(stored, {"display": {"hardware": {"rows": 16}}, "brightness": 40})
    expected = copy.deepcopy(stored)
    expected["display"]["hardware"]["rows"] = 16
    expected["brightness"] = 40
    assert new == expected


def test_json_body_missing_checkbox_is_not_unchecked(stored: dict[str, Any]) -> None:
    new, _, changed = plan_main_save(
        stored, SECRETS, {"display": {"hardware": {"rows": 16}}}, form=False, schema_for=schema_for
    )
    assert new["display"]["use_short_date_format"] is True
    assert new["display"]["hardware"]["inverse_colors"] is True
    assert changed == ["display"]


def test_json_body_values_are_typed_by_the_template(stored: dict[str, Any]) -> None:
    new = apply_json_body(stored, {"brightness": "42", "display": {"double_sided": "on"}})
    assert new["brightness"] == 42
    assert new["display"]["double_sided"] is True
    with pytest.raises(ValidationError) as caught:
        apply_json_body(stored, {"display": {"hardware": {"rows": "many"}}})
    assert "display.hardware.rows" in caught.value.message
    assert caught.value.details == {"field": "display.hardware.rows"}
    with pytest.raises(ValidationError, match="display"):
        apply_json_body(stored, {"display": 5})


# Rule 2: form bodies, where a missing checkbox means unchecked.

def test_form_section_unchecks_missing_booleans_of_that_section(stored: dict[str, Any]) -> None:
    form = {"__form_section": "display", "display.hardware.rows": "16",
            "display.hardware.show_refresh_rate": "on"}
    new = apply_form_body(stored, form)
    assert new["display"]["hardware"]["rows"] == 16
    assert new["display"]["hardware"]["show_refresh_rate"] is True
    assert new["display"]["use_short_date_format"] is False
    assert new["display"]["hardware"]["inverse_colors"] is False
    assert new["dim_schedule"]["enabled"] is True
    assert "__form_section" not in new


def test_form_without_section_field_covers_the_submitted_prefixes(stored: dict[str, Any]) -> None:
    new = apply_form_body(stored, {"dim_schedule.start_time": "21:30",
                                   "dim_schedule.days.monday.enabled": "true"})
    assert new["dim_schedule"]["start_time"] == "21:30"
    assert new["dim_schedule"]["enabled"] is False
    assert new["dim_schedule"]["days"]["monday"]["enabled"] is True
    assert new["dim_schedule"]["days"]["tuesday"]["enabled"] is False
    assert new["display"] == stored["display"]


def test_form_values_take_the_template_types(stored: dict[str, Any]) -> None:
    new = apply_form_body(stored, {
        "vegas_scroll.scroll_delay": "0.05",
        "vegas_scroll.scroll_speed": "80",
        "vegas_scroll.enabled": ["false", "on"],
        "vegas_scroll.separator_color": "255, 0, 0",
        "vegas_scroll.plugin_order": "clock,weather",
        "location.latitude": "52.5",
        "display_durations.clock": "15",
        "timezone": "Europe/Berlin",
    })
    vegas = new["vegas_scroll"]
    assert vegas["scroll_delay"] == 0.05 and vegas["scroll_speed"] == 80
    assert vegas["enabled"] is True
    assert vegas["separator_color"] == [255, 0, 0]
    assert vegas["plugin_order"] == ["clock", "weather"]
    assert new["location"]["latitude"] == 52.5
    assert new["display_durations"] == {"clock": 15}
    assert new["timezone"] == "Europe/Berlin"


def test_unparseable_form_number_names_the_field(stored: dict[str, Any]) -> None:
    with pytest.raises(ValidationError) as caught:
        apply_form_body(stored, {"display.hardware.rows": "sixteen"})
    assert "display.hardware.rows" in caught.value.message
    assert caught.value.details == {"field": "display.hardware.rows"}
    with pytest.raises(ValidationError, match="display.hardware.cols"):
        apply_form_body(stored, {"display.hardware.cols": "64.5"})
    with pytest.raises(ValidationError, match="display.double_sided"):
        apply_form_body(stored, {"display.double_sided": "maybe"})


def test_form_field_below_a_scalar_setting_is_refused(stored: dict[str, Any]) -> None:
    with pytest.raises(ValidationError, match="brightness.level"):
        apply_form_body(stored, {"brightness.level": "3"})


def test_blank_vegas_cycle_bounds_keep_the_stored_values(stored: dict[str, Any]) -> None:
    new = apply_form_body(stored, {"__form_section": "vegas_scroll",
                                   "vegas_scroll.vegas_min_cycle_duration": "",
                                   "vegas_scroll.vegas_max_cycle_duration": " "})
    assert new["vegas_scroll"]["vegas_min_cycle_duration"] == 60
    assert new["vegas_scroll"]["vegas_max_cycle_duration"] == 300


def test_legacy_toggle_alone_unchecks_nothing(stored: dict[str, Any]) -> None:
    new = apply_form_body(stored, {"plugin_system.auto_discover": "on"})
    expected = copy.deepcopy(stored)
    expected["plugin_system"]["auto_discover"] = True
    assert new == expected


def test_legacy_toggle_alone_with_a_section_field_unchecks_nothing(
    stored: dict[str, Any],
) -> None:
    new = apply_form_body(stored, {"__form_section": "display",
                                   "plugin_system.development_mode": "on"})
    assert new["display"] == stored["display"]
    assert new["plugin_system"]["auto_load_enabled"] is True


def test_general_save_leaves_legacy_toggles_alone(stored: dict[str, Any]) -> None:
    new = apply_form_body(stored, {"plugin_system.plugins_directory": "plugin-repos",
                                   "auto_update.day": "monday"})
    assert new["plugin_system"]["auto_load_enabled"] is True
    assert new["auto_update"] == {"enabled": False, "day": "monday", "time": "03:00"}


def test_unknown_form_section_is_refused(stored: dict[str, Any]) -> None:
    with pytest.raises(ValidationError, match="__form_section"):
        apply_form_body(stored, {"__form_section": "general", "brightness": "50"})


def test_json_body_marked_as_a_form_section_uses_form_semantics(stored: dict[str, Any]) -> None:
    body = {"__form_section": "display", "display": {"hardware": {"rows": 16}}}
    new, _, _ = plan_main_save(stored, {}, body, form=False, schema_for=schema_for)
    assert new["display"]["use_short_date_format"] is False
    assert new["display"]["hardware"]["rows"] == 16
    assert "__form_section" not in new


def test_form_fields_of_a_plugin_are_typed_by_its_schema(stored: dict[str, Any]) -> None:
    body = {"clock.interval": "45"}
    new, secrets, changed = plan_main_save(stored, SECRETS, body, form=True,
                                           schema_for=schema_for)
    assert new["clock"]["interval"] == 45
    assert new["clock"]["show_seconds"] is False
    assert changed == ["clock"]
    assert secrets == SECRETS


# Rule 3: plugin sections are prepared and validated, all or nothing.

def test_split_plugin_sections_uses_the_reserved_keys() -> None:
    core, plugins = split_plugin_sections(
        {"display": {"x": 1}, "brightness": 3, "clock": {"a": 1}, "__form_section": "x"}
    )
    assert core == {"display": {"x": 1}, "brightness": 3}
    assert plugins == {"clock": {"a": 1}}


def test_any_invalid_plugin_section_rejects_all_of_them(stored: dict[str, Any]) -> None:
    body = {"brightness": 10, "clock": {"interval": 0}, "weather": {"units": "kelvin"},
            "ticker": {"enabled": True}}
    with pytest.raises(ValidationError) as caught:
        plan_main_save(stored, SECRETS, body, form=False, schema_for=schema_for)
    error = caught.value
    assert error.error_code == "INVALID_PLUGIN_CONFIG"
    assert set(error.details["errors"]) == {"clock", "weather"}
    assert error.details["errors"]["clock"][0]["field"] == "interval"
    assert "clock (interval" in error.message and "weather (units" in error.message


def test_prepared_sections_merge_onto_stored_and_apply_defaults(stored: dict[str, Any]) -> None:
    prepared = prepare_and_validate_sections(
        {"clock": {"dynamic_duration": True}}, stored, schema_for, stored_secrets=SECRETS
    )
    assert prepared["clock"] == {
        "enabled": True, "interval": 30, "show_seconds": True, "api_key": "stored-key",
        "dynamic_duration": {"enabled": True},
    }


def test_required_secret_missing_everywhere_fails_validation(stored: dict[str, Any]) -> None:
    with pytest.raises(ValidationError) as caught:
        prepare_and_validate_sections({"clock": {"interval": 5}}, stored, schema_for)
    assert caught.value.details["errors"]["clock"][0]["field"] == "api_key"


def test_secrets_are_split_out_of_plugin_sections(stored: dict[str, Any]) -> None:
    body = {"clock": {"api_key": "new-key", "interval": 10}}
    new, secrets, changed = plan_main_save(stored, SECRETS, body, form=False,
                                           schema_for=schema_for)
    assert "api_key" not in new["clock"]
    assert new["clock"]["interval"] == 10
    assert secrets == {"clock": {"api_key": "new-key"}}
    assert SECRETS == {"clock": {"api_key": "stored-key"}}
    assert changed == ["clock"]


def test_a_plugin_section_cannot_be_replaced_by_a_scalar(stored: dict[str, Any]) -> None:
    with pytest.raises(ValidationError, match="clock"):
        plan_main_save(stored, SECRETS, {"clock": 5}, form=False, schema_for=schema_for)


def test_a_save_keeps_the_hardware_rules_and_returns_their_warnings(
        stored: dict[str, Any]) -> None:
    with pytest.raises(ValidationError) as refused:
        plan_main_save(stored, SECRETS, {"display": {"hardware": {"rows": 33}}}, form=False,
                       schema_for=schema_for)
    assert refused.value.error_code == "HARDWARE_SETTING_REFUSED"
    warnings: list[dict[str, str]] = []
    body = {"display": {"emulator": True, "hardware": {"rows": 33}}}  # emulator: warn only
    new, _, _ = plan_main_save(stored, SECRETS, body, form=False, schema_for=schema_for,
                               warnings=warnings)
    assert new["display"]["hardware"]["rows"] == 33
    assert [w["setting"] for w in warnings] == ["display.hardware.rows"]


def test_plan_does_not_modify_its_inputs(stored: dict[str, Any]) -> None:
    before, secrets = copy.deepcopy(stored), copy.deepcopy(SECRETS)
    plan_main_save(stored, secrets, {"clock": {"api_key": "x"}, "brightness": 1}, form=False,
                   schema_for=schema_for)
    assert stored == before and secrets == SECRETS


def test_raw_save_must_be_an_object_and_validates_plugin_sections(
    stored: dict[str, Any],
) -> None:
    with pytest.raises(ValidationError):
        plan_raw_save(stored, [1])
    bad = {**stored, "clock": {"interval": 0}}
    with pytest.raises(ValidationError, match="clock"):
        plan_raw_save(stored, bad, schema_for=schema_for, stored_secrets=SECRETS)
    good = {**stored, "brightness": 3}
    new, changed = plan_raw_save(stored, good, schema_for=schema_for, stored_secrets=SECRETS)
    # One setting under two keys: the hardware one follows (shared.config.brightness).
    assert new == {**good, "display": {**stored["display"], "hardware": {
        **stored["display"]["hardware"], "brightness": 3}}}
    assert changed == ["brightness", "display"]
    assert save_rules.needs_auto_update_setup(changed) is False


# Every non-reserved top-level key is a plugin section, and must be an object.

INSTALLED = {"clock", "weather", "ticker"}


def catalog_schema_for(plugin_id: str) -> dict[str, Any] | None:
    """Like the web's PluginCatalog.schema_for: an id nobody installed is refused."""
    if plugin_id not in INSTALLED:
        raise ValidationError(f"plugin {plugin_id!r} is not installed",
                              error_code="UNKNOWN_PLUGIN")
    return SCHEMAS.get(plugin_id)


@pytest.mark.parametrize("body", [{"web-ui-info": "x"}, {"nosuchplugin": [1, 2]},
                                  {"clock": None}, {"brightness": 10, "ticker": True}])
def test_json_body_with_a_non_object_plugin_section_is_refused(
    stored: dict[str, Any], body: dict[str, Any]
) -> None:
    key = next(k for k in body if k != "brightness")
    for schemas in (schema_for, catalog_schema_for):
        with pytest.raises(ValidationError) as caught:
            plan_main_save(stored, SECRETS, body, form=False, schema_for=schemas)
        assert caught.value.message == f"{key}: a plugin section must be a JSON object"
        assert caught.value.status == 400
        assert caught.value.details["field"] == key
    with pytest.raises(ValidationError, match=key):
        split_plugin_sections(body)
    with pytest.raises(ValidationError, match=key):
        apply_json_body(stored, body)


def test_json_body_for_a_plugin_that_is_not_installed_is_refused(
    stored: dict[str, Any],
) -> None:
    with pytest.raises(ValidationError) as caught:
        plan_main_save(stored, SECRETS, {"nosuchplugin": {"enabled": True}}, form=False,
                       schema_for=catalog_schema_for)
    assert caught.value.error_code == "UNKNOWN_PLUGIN"


def test_form_field_outside_core_and_installed_plugins_is_refused(
    stored: dict[str, Any],
) -> None:
    for form in ({"weird[]": "1"}, {"weird": ["1", "2"]}, {"weird.sub": "1"}):
        with pytest.raises(ValidationError) as caught:
            plan_main_save(stored, SECRETS, form, form=True, schema_for=catalog_schema_for)
        assert caught.value.status == 400
        assert caught.value.error_code == "UNKNOWN_FIELD"
        assert caught.value.details["field"] in ("weird", "weird.sub")
        assert caught.value.message.startswith(caught.value.details["field"])
    # Without a catalog only plugins with a stored section are known.
    with pytest.raises(ValidationError, match="weird"):
        apply_form_body(stored, {"weird": "1"})
    assert apply_form_body(stored, {"weather.units": "imperial"})["weather"]["units"] == "imperial"


def test_form_field_naming_a_whole_plugin_section_is_refused(stored: dict[str, Any]) -> None:
    with pytest.raises(ValidationError) as caught:
        plan_main_save(stored, SECRETS, {"clock": "on"}, form=True,
                       schema_for=catalog_schema_for)
    assert caught.value.details == {"field": "clock"}


@pytest.mark.parametrize("name", ["display.hardware.rows x", "display/hardware", "a b",
                                  "display..rows", "brightness.", "é", "display.hardware.<rows>"])
def test_form_field_names_with_odd_characters_are_refused(
    stored: dict[str, Any], name: str
) -> None:
    with pytest.raises(ValidationError) as caught:
        plan_main_save(stored, SECRETS, {name: "16"}, form=True, schema_for=catalog_schema_for)
    assert caught.value.status == 400
    assert caught.value.details == {"field": name}


def test_form_section_naming_an_uninstalled_plugin_is_refused(stored: dict[str, Any]) -> None:
    stored["gone"] = {"enabled": True}
    with pytest.raises(ValidationError) as caught:
        plan_main_save(stored, SECRETS, {"__form_section": "gone"}, form=True,
                       schema_for=catalog_schema_for)
    assert caught.value.details == {"field": "__form_section"}


def test_raw_save_refuses_non_object_plugin_sections(stored: dict[str, Any]) -> None:
    for value in ("x", [1, 2], 3, None, True):
        with pytest.raises(ValidationError) as caught:
            plan_raw_save(stored, {**stored, "web-ui-info": value},
                          schema_for=catalog_schema_for)
        assert caught.value.message == "web-ui-info: a plugin section must be a JSON object"
    with pytest.raises(ValidationError, match="nosuchplugin"):
        plan_raw_save(stored, {**stored, "nosuchplugin": [1, 2]})


def test_raw_save_keeps_sections_of_uninstalled_plugins_unchecked(
    stored: dict[str, Any],
) -> None:
    # A backup taken before an uninstall can be restored as it is.
    backup = {**stored, "gone": {"enabled": "yes", "interval": -3}}
    new, changed = plan_raw_save(stored, backup, schema_for=catalog_schema_for,
                                 stored_secrets=SECRETS)
    assert new["gone"] == {"enabled": "yes", "interval": -3}
    assert changed == ["gone"]
    # Installed plugins are still validated.
    with pytest.raises(ValidationError, match="clock"):
        plan_raw_save(stored, {**backup, "clock": {"interval": 0}},
                      schema_for=catalog_schema_for, stored_secrets=SECRETS)


# Numbers: huge, not finite, or a list where one value belongs.

@pytest.mark.parametrize("body, field", [
    ({"brightness": 10**400}, "brightness"),
    ({"brightness": -(10**400)}, "brightness"),
    ({"vegas_scroll": {"scroll_delay": 10**400}}, "vegas_scroll.scroll_delay"),
    ({"location": {"latitude": 10**400}}, "location.latitude"),
    ({"display_durations": {"clock": 10**400}}, "display_durations.clock"),
    ({"vegas_scroll": {"separator_color": [10**400, 0, 0]}}, "vegas_scroll.separator_color[0]"),
    ({"vegas_scroll": {"scroll_delay": 10**5000}}, "vegas_scroll.scroll_delay"),
])
def test_huge_numbers_are_refused_naming_the_field(
    stored: dict[str, Any], body: dict[str, Any], field: str
) -> None:
    with pytest.raises(ValidationError) as caught:
        plan_main_save(stored, SECRETS, body, form=False, schema_for=schema_for)
    assert caught.value.status == 400
    assert caught.value.details["field"] == field
    assert field in caught.value.message and len(caught.value.message) < 200


@pytest.mark.parametrize("value", [float("nan"), float("inf"), float("-inf"), "NaN",
                                   "Infinity", "1e400"])
def test_nan_and_infinity_are_refused_for_numeric_keys(
    stored: dict[str, Any], value: Any
) -> None:
    for body in ({"vegas_scroll": {"scroll_delay": value}}, {"location": {"latitude": value}}):
        with pytest.raises(ValidationError, match="finite"):
            plan_main_save(stored, SECRETS, body, form=False, schema_for=schema_for)
    with pytest.raises(ValidationError, match="finite"):
        apply_form_body(stored, {"vegas_scroll.scroll_delay": str(value)})


def test_non_finite_numbers_are_refused_inside_plugin_sections(stored: dict[str, Any]) -> None:
    schemas = {"gauge": {"type": "object", "properties": {"level": {"type": "number"}}}}
    with pytest.raises(ValidationError) as caught:
        plan_main_save(stored, {}, {"gauge.level": "1e400"}, form=True,
                       schema_for=schemas.get)
    assert caught.value.details == {"field": "gauge.level"}
    with pytest.raises(ValidationError, match="gone.ratio"):
        plan_raw_save(stored, {**stored, "gone": {"ratio": float("nan")}})


def test_whole_numbers_keep_every_digit(stored: dict[str, Any]) -> None:
    new = apply_json_body(stored, {"display": {"hardware": {"multiplexing":
                                                            "12345678901234567891"}}})
    assert new["display"]["hardware"]["multiplexing"] == 12345678901234567891


@pytest.mark.parametrize("body, field", [
    ({"brightness": [5]}, "brightness"),
    ({"display": {"double_sided": [True]}}, "display.double_sided"),
    ({"timezone": ["UTC"]}, "timezone"),
    ({"display_durations": {"clock": [15]}}, "display_durations.clock"),
    ({"display_durations": [{"clock": 15}]}, "display_durations"),
    ({"location": {"latitude": []}}, "location.latitude"),
])
def test_json_list_where_the_template_has_a_single_value_is_refused(
    stored: dict[str, Any], body: dict[str, Any], field: str
) -> None:
    with pytest.raises(ValidationError) as caught:
        plan_main_save(stored, SECRETS, body, form=False, schema_for=schema_for)
    assert caught.value.details == {"field": field}
    assert "not a list" in caught.value.message


def test_form_may_still_collapse_a_repeated_field(stored: dict[str, Any]) -> None:
    new, _, _ = plan_main_save(stored, SECRETS, {"brightness": ["40", "50"],
                                                 "display.double_sided": ["off", "on"]},
                               form=True, schema_for=schema_for)
    assert new["brightness"] == 50 and new["display"]["double_sided"] is True
    marked = {"__form_section": "display", "display": {"double_sided": ["false", "on"]}}
    new, _, _ = plan_main_save(stored, SECRETS, marked, form=False, schema_for=schema_for)
    assert new["display"]["double_sided"] is True
