"""Schedule math: windows, overnight ranges, per-day values, time zones, DST, boundaries."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, tzinfo
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from shared.schedules import DAYS, Moment, Schedules, parse_time, section_problems, zone_for

NEW_YORK = ZoneInfo("America/New_York")


def at(year: int, month: int, day: int, hour: int, minute: int = 0,
       zone: tzinfo = UTC) -> datetime:
    return datetime(year, month, day, hour, minute, tzinfo=zone)


# The display reads a config once (``Schedules.from_config``) and asks it each boundary;
# these read it afresh per question, which is the same code.
def power_on(config: dict[str, Any], now: Moment) -> bool:
    return Schedules.from_config(config).power_on(now)


def dim_active(config: dict[str, Any], now: Moment) -> bool:
    return Schedules.from_config(config).dim_active(now)


def brightness_at(config: dict[str, Any], now: Moment, configured: int) -> int:
    return Schedules.from_config(config).brightness_at(now, configured)


def next_transition(config: dict[str, Any], now: Moment) -> float | None:
    return Schedules.from_config(config).next_transition(now)


def power(start: str, end: str, *, mode: str = "global", days: dict[str, Any] | None = None,
          timezone: str = "UTC", enabled: bool = True) -> dict[str, Any]:
    section = {"enabled": enabled, "mode": mode, "start_time": start, "end_time": end}
    if days is not None:
        section["days"] = days
    return {"timezone": timezone, "schedule": section}


def dim(start: str, end: str, level: int = 30, **extra: Any) -> dict[str, Any]:
    return {"timezone": extra.pop("timezone", "UTC"), "brightness": 80, "dim_schedule": {
        "enabled": True, "mode": "global", "start_time": start, "end_time": end,
        "dim_brightness": level, **extra}}


# 2024-06-03 is a Monday.
@pytest.mark.parametrize(("hour", "minute", "expected"), [
    (6, 59, False), (7, 0, True), (12, 0, True), (22, 59, True), (23, 0, False),
])
def test_power_window_starts_inclusive_and_ends_exclusive(hour: int, minute: int,
                                                          expected: bool) -> None:
    assert power_on(power("07:00", "23:00"), at(2024, 6, 3, hour, minute)) is expected


@pytest.mark.parametrize(("hour", "expected"), [(21, False), (22, True), (23, True),
                                                (0, True), (6, True), (7, False), (12, False)])
def test_overnight_dim_window_runs_past_midnight(hour: int, expected: bool) -> None:
    assert dim_active(dim("22:00", "07:00"), at(2024, 6, 3, hour)) is expected


def test_a_disabled_schedule_never_blanks_or_dims() -> None:
    assert power_on(power("07:00", "08:00", enabled=False), at(2024, 6, 3, 3)) is True
    config = dim("22:00", "07:00")
    config["dim_schedule"]["enabled"] = False
    assert dim_active(config, at(2024, 6, 3, 23)) is False
    assert next_transition(config, at(2024, 6, 3, 23)) is None


def test_equal_start_and_end_is_a_whole_day() -> None:
    config = power("00:00", "00:00")
    assert all(power_on(config, at(2024, 6, 3, hour)) for hour in range(24))
    assert next_transition(config, at(2024, 6, 3, 12)) is None


def test_per_day_mode_uses_each_days_window() -> None:
    days = {day: {"enabled": True, "start_time": "07:00", "end_time": "23:00"} for day in DAYS}
    days["saturday"] = {"enabled": True, "start_time": "09:00", "end_time": "23:00"}
    config = power("07:00", "23:00", mode="per-day", days=days)
    assert power_on(config, at(2024, 6, 8, 8)) is False  # Saturday 08:00
    assert power_on(config, at(2024, 6, 7, 8)) is True   # Friday 08:00


def test_a_disabled_day_has_no_window_but_yesterdays_overnight_one_reaches_into_it() -> None:
    days = {day: {"enabled": True, "start_time": "22:00", "end_time": "07:00"} for day in DAYS}
    days["tuesday"]["enabled"] = False
    config = {"timezone": "UTC", "dim_schedule": {"enabled": True, "mode": "per-day",
                                                   "dim_brightness": 20, "days": days}}
    assert dim_active(config, at(2024, 6, 4, 3)) is True    # Tuesday 03:00, from Monday
    assert dim_active(config, at(2024, 6, 4, 23)) is False  # Tuesday night: off
    assert dim_active(config, at(2024, 6, 5, 3)) is False   # Wednesday 03:00
    assert dim_active(config, at(2024, 6, 5, 22)) is True


def test_per_day_gaps_take_the_global_values_and_per_day_alias_is_read() -> None:
    config = power("07:00", "23:00", mode="per_day", days={"monday": {"end_time": "12:00"}})
    assert power_on(config, at(2024, 6, 3, 13)) is False  # Monday ends at 12:00
    assert power_on(config, at(2024, 6, 4, 13)) is True   # Tuesday: global window


def test_windows_follow_the_configured_time_zone() -> None:
    config = power("07:00", "23:00", timezone="America/New_York")
    # 12:00 UTC is 08:00 in New York (summer time): on. 05:00 UTC is 01:00 there: off.
    assert power_on(config, at(2024, 6, 3, 12)) is True
    assert power_on(config, at(2024, 6, 3, 5)) is False


def test_an_unknown_time_zone_falls_back_to_utc() -> None:
    assert zone_for({"timezone": "Mars/Olympus"}) == UTC
    assert zone_for({}) == UTC
    config = power("07:00", "23:00", timezone="Mars/Olympus")
    assert power_on(config, at(2024, 6, 3, 6)) is False


def test_windows_keep_their_wall_clock_times_across_daylight_saving_changes() -> None:
    config = dim("22:00", "07:00", timezone="America/New_York")
    # The night the clocks go forward (10 March 2024) and back (3 November 2024).
    for night in (at(2024, 3, 9, 23, zone=NEW_YORK), at(2024, 11, 2, 23, zone=NEW_YORK)):
        change = next_transition(config, night)
        assert change is not None
        ends = datetime.fromtimestamp(change, NEW_YORK)
        assert (ends.hour, ends.minute) == (7, 0)
        assert ends.date() == night.date() + timedelta(days=1)


def test_next_transition_is_the_nearest_boundary_of_either_schedule() -> None:
    config = {**power("07:00", "23:00"), **dim("22:00", "07:00")}
    noon = at(2024, 6, 3, 12)
    assert next_transition(config, noon) == at(2024, 6, 3, 22).timestamp()
    assert next_transition(config, at(2024, 6, 3, 22, 30)) == at(2024, 6, 3, 23).timestamp()


def test_next_transition_skips_boundaries_that_change_nothing() -> None:
    days = {day: {"enabled": True, "start_time": "00:00", "end_time": "00:00"} for day in DAYS}
    days["sunday"]["enabled"] = False
    config = power("07:00", "23:00", mode="per-day", days=days)
    # Monday to Saturday are on all day: the first change is Sunday 00:00.
    assert next_transition(config, at(2024, 6, 3, 12)) == at(2024, 6, 9, 0).timestamp()


def test_dim_brightness_lowers_but_never_raises() -> None:
    inside, outside = at(2024, 6, 3, 23), at(2024, 6, 3, 12)
    assert brightness_at(dim("22:00", "07:00", level=30), inside, 80) == 30
    assert brightness_at(dim("22:00", "07:00", level=30), outside, 80) == 80
    assert brightness_at(dim("22:00", "07:00", level=95), inside, 80) == 80


def test_dim_brightness_is_clamped_to_1_to_100_and_ignored_when_not_a_number() -> None:
    assert Schedules.from_config(dim("22:00", "07:00", level=0)).dim_level == 1
    assert Schedules.from_config(dim("22:00", "07:00", level=250)).dim_level == 100
    for level in (True, "30", None):
        config = dim("22:00", "07:00")
        config["dim_schedule"]["dim_brightness"] = level
        assert Schedules.from_config(config).brightness_at(at(2024, 6, 3, 23), 80) == 80


def test_an_unreadable_power_window_keeps_the_panel_on() -> None:
    assert power_on(power("25:00", "23:00"), at(2024, 6, 3, 3)) is True
    assert dim_active(dim("7pm", "07:00"), at(2024, 6, 3, 23)) is False


def test_naive_datetimes_and_timestamps_mean_utc() -> None:
    config = power("07:00", "23:00")
    assert power_on(config, datetime(2024, 6, 3, 6, 30)) is False
    assert power_on(config, at(2024, 6, 3, 8).timestamp()) is True


@pytest.mark.parametrize("text", ["25:00", "7pm", "", "12:60", "1200", " ", None, 700])
def test_bad_times_are_refused(text: Any) -> None:
    with pytest.raises(ValueError, match="HH:MM"):
        parse_time(text)


def test_short_hours_are_read() -> None:
    assert parse_time("7:05").strftime("%H:%M") == "07:05"


def test_section_problems_name_every_bad_field() -> None:
    section = {"enabled": "yes", "mode": "weekly", "start_time": "25:00",
               "days": {"monday": {"end_time": "7pm"}, "funday": {}}}
    fields = [field for field, _message in section_problems(section, "schedule")]
    assert fields == ["schedule.enabled", "schedule.mode", "schedule.start_time",
                      "schedule.days.monday.end_time", "schedule.days.funday"]
    assert section_problems({"mode": "per-day", "start_time": "07:00"}, "schedule") == []
