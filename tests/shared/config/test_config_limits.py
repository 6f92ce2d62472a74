"""Ranges of numeric core settings: one table, used by JSON, form and raw-editor saves."""

from __future__ import annotations

from typing import Any

import pytest

from shared.config.limits import LIMITS, check_config_limits, limit_for
from shared.config.raw_save import plan_raw_save
from shared.config.save_rules import plan_main_save
from shared.config.template import load_template
from shared.errors import ValidationError

# (dotted path, lowest allowed, highest allowed, a value just below, a value just above)
RANGES: list[tuple[str, Any, Any, Any, Any]] = [
    ("brightness", 1, 100, 0, 101),
    ("display.hardware.brightness", 1, 100, 0, 101),
    ("web.port", 1, 65535, 0, 65536),
    ("web.sign_in.session_days", 1, 365, 0, 366),
    ("web.rate_limits.per_minute.store", 1, 10000, 0, 10001),
    ("notifications.max_wait_seconds", 10, 86400, 9, 86401),
    ("display_durations.clock", 1, None, 0.999, None),
    ("display.runtime.gpio_slowdown", -1, 10, -2, 11),
    ("display.hardware.limit_refresh_rate_hz", 0, None, -1, None),
    ("display.hardware.pwm_bits", 1, 11, 0, 12),
    ("display.hardware.pwm_lsb_nanoseconds", 50, 3000, 49, 3001),
    ("display.hardware.pwm_dither_bits", 0, 2, -1, 3),
    ("display.hardware.row_address_type", 0, 5, -1, 6),
    ("display.hardware.scan_mode", 0, 1, -1, 2),
    ("display.hardware.multiplexing", 0, None, -1, None),
    ("vegas_scroll.scroll_speed", 1, 1000, 0, 1001),
    ("vegas_scroll.scroll_delay", 0.001, 1, 0, 1.5),
    ("vegas_scroll.vegas_min_cycle_duration", 1, 86400, 0, 86401),
    ("vegas_scroll.vegas_max_cycle_duration", 1, 86400, 0, 86401),
    ("vegas_scroll.separator_padding", 0, 256, -1, 257),
    ("vegas_scroll.default_panel_count", 1, 16, 0, 17),
    ("vegas_scroll.static_hold_duration", 0, 3600, -1, 3601),
    ("vegas_scroll.buffer_ahead", 0, 16, -1, 17),
    ("vegas_scroll.content_refresh_interval", 1, 86400, 0, 86401),
    ("vegas_scroll.live_poll_interval", 1, 3600, 0, 3601),
    ("vegas_scroll.live_hold_duration", 0, 86400, -1, 86401),
]


def _nested(path: str, value: Any) -> dict[str, Any]:
    body: Any = value
    for part in reversed(path.split(".")):
        body = {part: body}
    return body


def _plan(body: dict[str, Any], *, form: bool) -> dict[str, Any]:
    new, _, _ = plan_main_save(load_template(), {}, body, form=form, schema_for=lambda _: None)
    return new


def _at(config: dict[str, Any], path: str) -> Any:
    for part in path.split("."):
        config = config[part]
    return config


def test_the_table_covers_every_range_tested_here() -> None:
    assert {limit_for(path) for path, *_ in RANGES} == set(LIMITS.values())
    assert limit_for("display.hardware.rows") is None


@pytest.mark.parametrize("path, low, high, below, above", RANGES)
def test_json_and_form_saves_refuse_values_outside_the_range(
    path: str, low: Any, high: Any, below: Any, above: Any
) -> None:
    for bad in (below, above):
        if bad is None:
            continue
        for body, form in ((_nested(path, bad), False), ({path: str(bad)}, True)):
            with pytest.raises(ValidationError) as caught:
                _plan(body, form=form)
            error = caught.value
            assert error.status == 400 and error.error_code == "OUT_OF_RANGE"
            assert error.details["field"] == path
            assert error.message.startswith(f"{path} must be ")
            assert str(low) in error.message
            if high is not None:
                assert str(high) in error.message


@pytest.mark.parametrize("path, low, high, below, above", RANGES)
def test_values_at_the_ends_of_the_range_are_saved(
    path: str, low: Any, high: Any, below: Any, above: Any
) -> None:
    for good in (low, high):
        if good is None:
            continue
        assert _at(_plan(_nested(path, good), form=False), path) == good
        assert _at(_plan({path: str(good)}, form=True), path) == good


def test_brightness_out_of_range_names_the_range() -> None:
    with pytest.raises(ValidationError) as caught:
        _plan({"brightness": 500}, form=False)
    assert caught.value.message == "brightness must be between 1 and 100 (got 500)"
    assert caught.value.details == {"field": "brightness", "minimum": 1, "maximum": 100,
                                    "exclusive_minimum": False}
    with pytest.raises(ValidationError, match="must be at least 1 "):
        _plan({"display_durations": {"clock": 0}}, form=False)


@pytest.mark.parametrize("path, low, high, below, above", RANGES)
def test_raw_saves_refuse_changed_values_outside_the_range(
    path: str, low: Any, high: Any, below: Any, above: Any
) -> None:
    stored = load_template()
    replacement = load_template()
    parent = _at(replacement, path.rsplit(".", 1)[0]) if "." in path else replacement
    parent[path.rsplit(".", 1)[-1]] = below
    with pytest.raises(ValidationError) as caught:
        plan_raw_save(stored, replacement)
    assert caught.value.details["field"] == path


def test_raw_save_does_not_trip_over_an_unchanged_stored_value() -> None:
    stored = {**load_template(), "brightness": 0}
    replacement = {**stored, "timezone": "Europe/Berlin"}
    new, changed = plan_raw_save(stored, replacement)
    assert changed == ["timezone"] and new["brightness"] == 0
    with pytest.raises(ValidationError, match="brightness"):
        check_config_limits(replacement)


def test_values_that_are_not_numbers_are_left_to_the_type_checks() -> None:
    check_config_limits({"brightness": "loud", "display_durations": {"clock": None}})
