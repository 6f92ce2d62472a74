"""Save rule 4 as a pure function: what counts as changed, what is reported."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from shared.config.hardware_rule import (
    changed_hardware_settings,
    check_hardware_save,
    restart_settings_changed,
)
from shared.config.template import load_template
from shared.errors import ValidationError


@pytest.fixture
def stored() -> dict[str, Any]:
    return load_template()


def with_hardware(config: dict[str, Any], **values: Any) -> dict[str, Any]:
    new = copy.deepcopy(config)
    new["display"]["hardware"].update(values)
    return new


def test_changed_settings_are_leaf_paths_that_differ(stored: dict[str, Any]) -> None:
    new = with_hardware(stored, parallel=2, rows=32)  # rows as stored
    new["display"]["runtime"]["gpio_slowdown"] = 2
    new["orientation"] = 90
    new["brightness"] = 10  # not a hardware setting
    assert changed_hardware_settings(stored, new) == {
        "display.hardware.parallel", "display.runtime.gpio_slowdown", "orientation"}


def test_a_type_change_counts_as_a_change(stored: dict[str, Any]) -> None:
    new = with_hardware(stored, parallel=True)  # True == 1, but not the stored value
    assert changed_hardware_settings(stored, new) == {"display.hardware.parallel"}


def test_an_unrelated_save_does_not_read_the_board(stored: dict[str, Any]) -> None:
    def board() -> str:
        raise AssertionError("board read for an unrelated save")

    bad = with_hardware(stored, hardware_mapping="nope")
    new = copy.deepcopy(bad)
    new["brightness"] = 5
    assert check_hardware_save(new, bad, board_reader=board) == []


def test_refusal_lists_every_problem_with_its_setting(stored: dict[str, Any]) -> None:
    new = with_hardware(stored, parallel=3, rows=7)
    with pytest.raises(ValidationError) as caught:
        check_hardware_save(new, stored, board_reader=lambda: None)
    err = caught.value
    assert err.status == 400 and err.error_code == "HARDWARE_SETTING_REFUSED"
    assert [p["setting"] for p in err.details["problems"]] == [
        "display.hardware.rows", "display.hardware.parallel"]
    assert err.details["field"] == "display.hardware.rows"


def test_emulator_mode_returns_warnings(stored: dict[str, Any]) -> None:
    new = with_hardware(stored, parallel=3)
    new["display"]["emulator"] = True
    warnings = check_hardware_save(new, stored, board_reader=lambda: None)
    assert [(w["setting"], w["severity"]) for w in warnings] == [
        ("display.hardware.parallel", "warning")]


# -- which saves need a display service restart ------------------------------------

@pytest.mark.parametrize(("path", "value"), [
    (("display", "hardware", "rows"), 16),
    (("display", "hardware", "limit_refresh_rate_hz"), 0),
    (("display", "runtime", "gpio_slowdown"), 1),
    (("display", "double_sided"), True),
    (("orientation",), 90),
    (("display", "emulator"), True),
    (("display", "emulator_adapter"), "browser"),
    (("display", "emulator_port"), 9000),  # every display.emulator* key
])
def test_panel_settings_need_a_restart(stored: dict[str, Any], path: tuple[str, ...],
                                       value: Any) -> None:
    new = copy.deepcopy(stored)
    node = new
    for part in path[:-1]:
        node = node[part]
    node[path[-1]] = value
    assert restart_settings_changed(stored, new) == [".".join(path)]


def test_settings_applied_while_running_need_no_restart(stored: dict[str, Any]) -> None:
    new = with_hardware(stored, brightness=20)  # the running display applies brightness
    new["brightness"] = 30
    new["display"]["use_short_date_format"] = not stored["display"]["use_short_date_format"]
    assert restart_settings_changed(stored, new) == []
    assert restart_settings_changed(stored, copy.deepcopy(stored)) == []


def test_a_removed_panel_setting_is_a_change(stored: dict[str, Any]) -> None:
    new = copy.deepcopy(stored)
    del new["display"]["hardware"]["pixel_mapper_config"]
    del new["orientation"]
    assert restart_settings_changed(stored, new) == [
        "display.hardware.pixel_mapper_config", "orientation"]
