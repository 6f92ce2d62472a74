"""Manifest schema, strict and lenient validation, defaults and the store's rules."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from shared.errors import ManifestError, PluginError
from shared.ids import is_plain_segment
from shared.plugin_system.manifest import (
    check_manifest,
    load_manifest,
    manifest_errors,
    manifest_schema,
    resolve_enabled,
    store_errors,
    validate_manifest,
    with_defaults,
)

REQUIRED = ["id", "name", "version", "author", "entry_point", "class_name", "compatible_versions"]


def valid_manifest(**changes: Any) -> dict[str, Any]:
    manifest: dict[str, Any] = {
        "id": "clock",
        "name": "Clock",
        "version": "1.2.3",
        "author": "someone",
        "entry_point": "manager.py",
        "class_name": "ClockPlugin",
        "compatible_versions": [">=3.0.0"],
    }
    manifest.update(changes)
    return manifest


def test_schema_is_a_valid_draft_2020_12_schema_without_additional_properties_rule() -> None:
    schema = manifest_schema()
    Draft202012Validator.check_schema(schema)
    assert "additionalProperties" not in schema
    assert sorted(schema["required"]) == sorted(REQUIRED)


def test_complete_manifest_has_no_errors() -> None:
    manifest = valid_manifest(
        description="d", homepage="https://example.org", category="time", tags=["a"],
        icon="fas fa-clock", min_core_version="3.0.0", max_core_version="4.0.0",
        requires={"python": ">=3.11", "display_size": {"min_width": 32, "min_height": 16}},
        display={"design_size": {"width": 64, "height": 32}}, config_schema="config_schema.json",
        assets={}, update_interval=60, default_duration=15, display_modes=["clock"],
        api_requirements=[{"name": "k", "required": True, "url": "https://example.org"}],
        download_url_template="https://example.org/{version}.zip",
        versions=[{"released": "2024-01-31", "version": "1.2.3", "core_min_version": "3.0.0"}],
        last_updated="2024-01-31", stars=0, downloads=5, verified=True, screenshot="s.png",
        api_version="1", dependencies=["x"], requirements_file="requirements.txt",
        website="https://example.org", license="MIT", web_ui_actions=[{"id": "a"}],
        core_version="3.0.0",
    )
    assert manifest_errors(manifest) == []


@pytest.mark.parametrize("field", REQUIRED)
def test_each_missing_required_field_is_named(field: str) -> None:
    manifest = valid_manifest()
    del manifest[field]
    assert manifest_errors(manifest) == [f"{field}: is required"]


@pytest.mark.parametrize("version", ["1.0.0", "10.20.30", "1.2.3-beta.1", "1.2.3+build.5",
                                     "1.2.3-rc_1+sha.abc"])
def test_semver_versions_are_accepted(version: str) -> None:
    assert manifest_errors(valid_manifest(version=version)) == []


@pytest.mark.parametrize("version", ["1.0", "v1.0.0", "1.0.0.0", "x", "1.0.0-", "1.0.0 beta"])
def test_non_semver_versions_are_refused_naming_the_field(version: str) -> None:
    assert manifest_errors(valid_manifest(version=version)) == [
        f"version: {version!r} does not match semver"
    ]


@pytest.mark.parametrize(
    "constraint",
    [">=3.0.0", "<=3.8.0", ">3.0.0", "<4.0.0", "~3.1.0", "^3.1.0", "3.8.0", "3.0.0 - 3.9.9",
     ">=3.0.0-beta.1"],
)
def test_version_constraints_are_accepted(constraint: str) -> None:
    assert manifest_errors(valid_manifest(compatible_versions=[constraint])) == []


@pytest.mark.parametrize(
    "constraint", ["3.x", ">= 3.0.0", "=3.0.0", "*", "", "3.0.0 -3.9.9", "3.0", "!3.0.0"]
)
def test_bad_version_constraints_are_refused_with_their_index(constraint: str) -> None:
    errors = manifest_errors(valid_manifest(compatible_versions=[">=3.0.0", constraint]))
    assert len(errors) == 1
    assert errors[0].startswith(f"compatible_versions[1]: {constraint!r} does not match")


def test_compatible_versions_needs_at_least_one_item() -> None:
    assert manifest_errors(valid_manifest(compatible_versions=[])) == [
        "compatible_versions: must have at least 1 item(s)"
    ]


def test_unknown_keys_are_accepted() -> None:
    manifest = valid_manifest(fonts={"x": 1}, enabled_by_default=True, anything=[1, 2])
    assert manifest_errors(manifest) == []


@pytest.mark.parametrize(
    ("changes", "expected"),
    [
        ({"requires": {"display_size": {"min_width": 0}}},
         "requires.display_size.min_width: 0 is less than the minimum of 1"),
        ({"display": {"design_size": {"width": 64}}}, "display.design_size.height: is required"),
        ({"display": {"design_size": {"width": 4, "height": 32}}},
         "display.design_size.width: 4 is less than the minimum of 8"),
        ({"update_interval": 0}, "update_interval: 0 is less than the minimum of 1"),
        ({"update_interval": 1.5}, "update_interval: must be an integer"),
        ({"default_duration": 0.5}, "default_duration: 0.5 is less than the minimum of 1"),
        ({"versions": [{"version": "1.0.0"}]}, "versions[0].released: is required"),
        ({"versions": [{"released": "2024-1-1", "version": "1.0.0"}]},
         "versions[0].released: '2024-1-1' does not match a YYYY-MM-DD date"),
        ({"stars": -1}, "stars: -1 is less than the minimum of 0"),
        ({"downloads": -3}, "downloads: -3 is less than the minimum of 0"),
        ({"tags": "clock"}, "tags: must be a list"),
        ({"display_modes": ["a", 3]}, "display_modes[1]: must be a string"),
        ({"verified": "yes"}, "verified: must be a boolean"),
        ({"id": "a/b"}, "id: 'a/b' is not a plain name (one path segment)"),
        ({"entry_point": "../evil.py"},
         "entry_point: '../evil.py' must be a relative path inside the plugin"),
    ],
)
def test_field_constraints_are_reported_by_field(changes: dict[str, Any], expected: str) -> None:
    assert manifest_errors(valid_manifest(**changes)) == [expected]


def test_non_object_manifest_is_refused() -> None:
    assert manifest_errors(["not", "an", "object"]) == ["manifest: must be an object"]


def test_lenient_check_warns_on_missing_metadata_but_errors_on_runtime_fields() -> None:
    manifest = valid_manifest(version="1.0")
    del manifest["compatible_versions"], manifest["author"], manifest["entry_point"]
    errors, warnings = check_manifest(manifest)
    assert errors == []
    assert "compatible_versions: is required" in warnings
    assert "author: is required" in warnings
    assert "version: '1.0' does not match semver" in warnings
    assert "entry_point: is required (using manager.py)" in warnings

    manifest = valid_manifest(default_duration=0)
    del manifest["class_name"], manifest["id"]
    errors, _warnings = check_manifest(manifest)
    assert errors == [
        "id: is required",
        "class_name: is required",
        "default_duration: 0 is less than the minimum of 1",
    ]


def test_validate_manifest_names_plugin_and_fields() -> None:
    manifest = valid_manifest()
    del manifest["compatible_versions"]
    with pytest.raises(ManifestError) as caught:
        validate_manifest(manifest, "clock")
    assert caught.value.message == "clock: invalid manifest: compatible_versions: is required"
    assert caught.value.status == 400
    assert caught.value.error_code == "INVALID_MANIFEST"
    assert isinstance(caught.value, PluginError)
    assert validate_manifest(manifest, "clock", strict=False) == [
        "compatible_versions: is required"
    ]


def test_with_defaults_fills_entry_point_only_when_absent() -> None:
    manifest = valid_manifest()
    del manifest["entry_point"]
    assert with_defaults(manifest)["entry_point"] == "manager.py"
    assert "entry_point" not in manifest
    assert with_defaults(valid_manifest(entry_point="main.py"))["entry_point"] == "main.py"


def test_store_rules_require_id_name_class_name_and_display_modes_but_not_version() -> None:
    assert store_errors({"id": "a", "name": "A", "class_name": "A", "display_modes": ["a"]}) == []
    assert store_errors({"version": "1.0.0"}) == [
        "id: is required",
        "name: is required",
        "class_name: is required",
        "display_modes: is required",
    ]
    assert store_errors({"id": "a", "name": "", "class_name": "A", "display_modes": "a"}) == [
        "name: must be a non-empty string",
        "display_modes: must be a list of strings",
    ]


def test_load_manifest_reports_bad_json_with_dir_line_and_column(tmp_path: Path) -> None:
    (tmp_path / "manifest.json").write_text('{\n  "id": "x",\n  oops\n}', encoding="utf-8")
    with pytest.raises(ManifestError) as caught:
        load_manifest(tmp_path)
    message = caught.value.message
    assert str(tmp_path) in message
    assert "line 3, column 3" in message


def test_load_manifest_refuses_missing_file_and_non_objects(tmp_path: Path) -> None:
    with pytest.raises(ManifestError, match="manifest.json not found"):
        load_manifest(tmp_path)
    (tmp_path / "manifest.json").write_text(json.dumps([1]), encoding="utf-8")
    with pytest.raises(ManifestError, match="must hold a JSON object"):
        load_manifest(tmp_path)


def test_enabled_comes_from_config_then_manifest_default() -> None:
    assert resolve_enabled({"enabled": False}, {"enabled_by_default": True}) is False
    assert resolve_enabled({"enabled": True}, {}) is True
    assert resolve_enabled({}, {"enabled_by_default": True}) is True
    assert resolve_enabled(None, {}) is False
    assert resolve_enabled({"enabled": "yes"}, {}) is False


@pytest.mark.parametrize(
    ("value", "plain"),
    [("weather", True), ("web-ui-info", True), ("a_b.c", True), ("", False), (".", False),
     ("..", False), ("../x", False), ("a/b", False), ("a\\b", False), (".hidden", False),
     ("a\x00b", False), (None, False), (3, False)],
)
def test_plain_segment_rule(value: object, plain: bool) -> None:
    assert is_plain_segment(value) is plain


@pytest.mark.parametrize(("value", "code"), [
    (None, "MISSING_PLUGIN_ID"), ("", "MISSING_PLUGIN_ID"), (5, "MISSING_PLUGIN_ID"),
    ("../etc", "INVALID_PLUGIN_ID"), ("a/b", "INVALID_PLUGIN_ID"), (".hidden", "INVALID_PLUGIN_ID"),
])
def test_plugin_ids_are_refused_with_one_rule_and_one_set_of_codes(value: object,
                                                                   code: str) -> None:
    from shared.errors import ValidationError
    from shared.ids import require_plain_segment

    with pytest.raises(ValidationError) as caught:
        require_plain_segment(value)
    assert caught.value.error_code == code
    assert caught.value.status == 400
    assert caught.value.details == {"field": "plugin_id"}
