"""The display hardware rules table, the mapping table and the board checks."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from shared.config.template import load_template
from shared.hardware import (
    DEFAULT_GEOMETRY,
    FIFTH_GENERATION_MAPPINGS,
    MAPPINGS,
    Problem,
    check_config,
    check_hardware_settings,
    geometry_replacements,
    is_fifth_generation,
    is_raspberry_pi,
    library_mapping_name,
    mapping_outputs,
    panel_geometry,
    read_board_model,
    requested_size,
    suggest_mapping,
)

PI4 = "Raspberry Pi 4 Model B Rev 1.4"
PI5 = "Raspberry Pi 5 Model B Rev 1.0"
VALID: dict[str, Any] = {"rows": 32, "cols": 64, "chain_length": 2, "parallel": 1,
                         "hardware_mapping": "regular", "pixel_mapper_config": ""}


def problems(board: str | None = None, runtime: dict[str, Any] | None = None,
             **hardware: Any) -> list[Problem]:
    return check_hardware_settings({**VALID, **hardware}, runtime or {}, board=board)


def settings(found: list[Problem], severity: str = "error") -> list[str]:
    return [p.setting for p in found if p.severity == severity]


# name, lowest allowed, highest allowed (None: no upper bound), under dotted section
BOUNDS = [
    ("rows", 8, 64), ("cols", 16, 128), ("chain_length", 1, 255),
    ("pwm_bits", 1, 11), ("brightness", 1, 100), ("scan_mode", 0, 1),
    ("pwm_lsb_nanoseconds", 50, 3000), ("pwm_dither_bits", 0, 2),
    ("row_address_type", 0, 5), ("multiplexing", 0, None), ("limit_refresh_rate_hz", 0, None),
]


@pytest.mark.parametrize(("name", "low", "high"), BOUNDS)
def test_each_bound_is_allowed_at_and_refused_beyond(name: str, low: int,
                                                     high: int | None) -> None:
    setting = f"display.hardware.{name}"
    assert problems(**{name: low}) == []
    assert settings(problems(**{name: low - 1})) == [setting]
    if high is not None:
        assert problems(**{name: high}) == []
        assert settings(problems(**{name: high + 1})) == [setting]


@pytest.mark.parametrize(("value", "ok"), [(-1, True), (10, True), (-2, False), (11, False)])
def test_gpio_slowdown_library_limits(value: int, ok: bool) -> None:
    found = problems(runtime={"gpio_slowdown": value})
    assert settings(found) == ([] if ok else ["display.runtime.gpio_slowdown"])


@pytest.mark.parametrize("rows", [9, 31, 63])
def test_rows_must_be_even(rows: int) -> None:
    found = problems(rows=rows)
    assert settings(found) == ["display.hardware.rows"] and "even" in found[0].message


@pytest.mark.parametrize("value", ["32", 32.0, True, None])
def test_numbers_must_be_whole_numbers(value: Any) -> None:
    assert settings(problems(rows=value)) == ["display.hardware.rows"]


@pytest.mark.parametrize(("mapping", "outputs"), [
    ("regular", 3), ("vendor-hat", 1), ("vendor-hat-pwm", 1), ("regular-gen1", 1),
    ("classic", 3), ("classic-gen1", 1), ("compute-module", 6),
])
def test_parallel_up_to_the_mappings_outputs(mapping: str, outputs: int) -> None:
    assert mapping_outputs(mapping) == outputs
    assert problems(hardware_mapping=mapping, parallel=outputs) == []
    found = problems(hardware_mapping=mapping, parallel=outputs + 1)
    assert settings(found) == ["display.hardware.parallel"]
    assert found[0].involves == ("display.hardware.parallel", "display.hardware.hardware_mapping")
    assert settings(problems(hardware_mapping=mapping, parallel=0)) == [
        "display.hardware.parallel"]


@pytest.mark.parametrize("parallel", [2, 3])
def test_two_or_three_on_a_single_output_mapping_is_refused(parallel: int) -> None:
    found = problems(hardware_mapping="vendor-hat", parallel=parallel)
    assert "has 1 output" in found[0].message


def test_mapping_table_translates_to_the_librarys_names() -> None:
    assert {name: library_mapping_name(name) for name in MAPPINGS} == {
        "regular": "regular", "vendor-hat": "adafruit-hat",
        "vendor-hat-pwm": "adafruit-hat-pwm", "regular-gen1": "regular-pi1",
        "classic": "classic", "classic-gen1": "classic-pi1", "compute-module": "compute-module",
    }
    with pytest.raises(ValueError, match="vendor-hat"):
        library_mapping_name("vendor_hat")


@pytest.mark.parametrize(("typed", "suggested"), [
    ("vendor-hatt", "vendor-hat"), ("Vendor-Hat", "vendor-hat"), ("regluar", "regular"),
    ("adafruit-hat", "vendor-hat"), ("regular-pi1", "regular-gen1"),
    ("compute_module", "compute-module"), ("zzz", None),
])
def test_misspelled_mappings_get_the_closest_name(typed: str, suggested: str | None) -> None:
    assert suggest_mapping(typed) == suggested
    found = problems(hardware_mapping=typed)
    assert settings(found) == ["display.hardware.hardware_mapping"]
    if suggested:
        assert f"'{suggested}'" in found[0].message


def test_orientation_right_angles_only() -> None:
    for value in (0, 90, 180, 270):
        assert check_config({"orientation": value}) == []
    for value in (45, -90, 360, "90"):
        assert settings(check_config({"orientation": value})) == ["orientation"]


def test_led_rgb_sequence_is_a_permutation() -> None:
    assert problems(led_rgb_sequence="BGR") == [] and problems(led_rgb_sequence="gbr") == []
    for value in ("RGG", "RG", "RGBW"):
        assert settings(problems(led_rgb_sequence=value)) == ["display.hardware.led_rgb_sequence"]


def test_types_of_switches_and_text() -> None:
    found = problems(inverse_colors="yes", panel_type=3)
    assert settings(found) == ["display.hardware.inverse_colors", "display.hardware.panel_type"]


def test_fifth_generation_supports_four_mappings() -> None:
    assert FIFTH_GENERATION_MAPPINGS == ("regular", "vendor-hat", "vendor-hat-pwm", "classic")
    for name in MAPPINGS:
        found = problems(board=PI5, hardware_mapping=name)
        assert bool(found) is (name not in FIFTH_GENERATION_MAPPINGS), name
        assert problems(board=PI4, hardware_mapping=name) == []


@pytest.mark.parametrize(("value", "warned"), [(0, True), (1, False), (3, False), (4, True)])
def test_fifth_generation_slowdown_guidance_is_a_warning(value: int, warned: bool) -> None:
    found = problems(board=PI5, runtime={"gpio_slowdown": value})
    assert settings(found) == []
    assert settings(found, "warning") == (["display.runtime.gpio_slowdown"] if warned else [])
    assert problems(board=PI4, runtime={"gpio_slowdown": 4}) == []


def test_non_object_sections_are_problems() -> None:
    found = check_hardware_settings("x", 3)
    assert settings(found) == ["display.hardware", "display.runtime"]


def test_emulator_downgrade_keeps_the_setting() -> None:
    problem = problems(parallel=9)[0]
    assert problem.as_warning().as_dict() == {
        "setting": "display.hardware.parallel", "message": problem.message,
        "severity": "warning"}


def test_board_model_is_read_from_the_device_tree(tmp_path: Path) -> None:
    model = tmp_path / "model"
    model.write_bytes(PI5.encode() + b"\x00")
    assert read_board_model(model) == PI5
    assert read_board_model(tmp_path / "missing") is None
    assert is_raspberry_pi(PI4) and not is_raspberry_pi(None) and not is_raspberry_pi("x86")
    assert is_fifth_generation(PI5) and is_fifth_generation("Raspberry Pi Compute Module 5")
    assert not is_fifth_generation(PI4) and not is_fifth_generation(None)


# -- the geometry that sizes a canvas ---------------------------------------------

def test_default_geometry_is_the_config_templates() -> None:
    hardware = load_template()["display"]["hardware"]
    assert DEFAULT_GEOMETRY == {name: hardware[name] for name in DEFAULT_GEOMETRY}


@pytest.mark.parametrize(("name", "value"), [
    ("rows", 7), ("rows", 100000), ("rows", 33), ("rows", 0), ("cols", 8), ("cols", 4096),
    ("chain_length", 0), ("chain_length", 10**9), ("parallel", 0), ("parallel", 7),
    ("rows", "32"), ("cols", True), ("chain_length", 2.0),
])
def test_a_value_breaking_its_range_sizes_with_the_default(name: str, value: Any) -> None:
    hardware = {**VALID, name: value}
    assert panel_geometry(hardware)[name] == DEFAULT_GEOMETRY[name]
    assert requested_size(hardware) == requested_size({**VALID, name: DEFAULT_GEOMETRY[name]})
    replaced = geometry_replacements(hardware)
    assert [(p.setting, p.severity) for p in replaced] == [
        (f"display.hardware.{name}", "warning")]
    assert f"default {name} {DEFAULT_GEOMETRY[name]}" in replaced[0].message


def test_values_in_range_size_the_canvas_and_missing_ones_are_not_warned() -> None:
    hardware = {"rows": 64, "cols": 128, "chain_length": 255, "parallel": 6}
    assert requested_size(hardware) == (128 * 255, 64 * 6)
    assert geometry_replacements(hardware) == []
    assert geometry_replacements({}) == [] and requested_size({}) == (128, 32)
