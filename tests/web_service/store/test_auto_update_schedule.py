"""The weekly automatic update's schedule math: next slot across the week, daylight-saving
changes, due and missed slots, and stored values that cannot be read."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from web_service.store.auto_schedule import (
    describe,
    due_slot,
    last_slot,
    missed_slot,
    next_slot,
    next_update_line,
    read_schedule,
)

BERLIN = ZoneInfo("Europe/Berlin")


def config(day: object = "sunday", at: object = "03:00", *, enabled: object = True,
           zone: object = "Europe/Berlin") -> dict:
    return {"timezone": zone, "auto_update": {"enabled": enabled, "day": day, "time": at}}


def local(*args: int) -> datetime:
    return datetime(*args, tzinfo=BERLIN)  # type: ignore[misc]


@pytest.mark.parametrize(("now", "expected"), [
    (local(2026, 11, 24, 10, 0), local(2026, 11, 29, 3, 0)),   # Tuesday: this Sunday
    (local(2026, 11, 29, 2, 59), local(2026, 11, 29, 3, 0)),   # Sunday, a minute before
    (local(2026, 11, 29, 3, 0), local(2026, 12, 6, 3, 0)),     # at the slot: the next one
    (local(2026, 11, 29, 23, 0), local(2026, 12, 6, 3, 0)),    # Sunday evening: next week
])
def test_next_run_is_the_next_configured_weekday_and_time(now: datetime,
                                                          expected: datetime) -> None:
    schedule = read_schedule(config())
    assert next_slot(schedule, now) == expected
    assert describe(expected, schedule) == (
        f"sunday {expected:%Y-%m-%d} 03:00 (Europe/Berlin)")


def test_slot_follows_the_wall_clock_across_daylight_saving_changes() -> None:
    schedule = read_schedule(config("sunday", "12:00"))
    before = next_slot(schedule, local(2026, 3, 27, 12, 0))  # DST starts 29 March
    assert before is not None and before.utcoffset() == timedelta(hours=2)
    assert (before.hour, before.minute) == (12, 0)
    after = next_slot(schedule, before)
    assert after is not None and after - before == timedelta(days=7)
    winter = next_slot(schedule, local(2026, 10, 24, 12, 0))  # DST ends 25 October
    assert winter is not None and winter.utcoffset() == timedelta(hours=1)
    assert winter.astimezone(UTC).hour == 11


def test_a_time_skipped_by_spring_forward_runs_an_hour_later_and_a_repeated_one_once(
        ) -> None:
    spring = next_slot(read_schedule(config("sunday", "02:30")), local(2026, 3, 28, 12, 0))
    assert spring is not None and (spring.day, spring.hour, spring.minute) == (29, 3, 30)
    autumn_schedule = read_schedule(config("sunday", "02:30"))
    autumn = next_slot(autumn_schedule, local(2026, 10, 24, 12, 0))
    assert autumn is not None and autumn.astimezone(UTC) == datetime(2026, 10, 25, 0, 30,
                                                                     tzinfo=UTC)
    # The second 02:30 of that night is not another slot.
    assert next_slot(autumn_schedule, autumn) == local(2026, 11, 1, 2, 30)


@pytest.mark.parametrize(("day", "at", "problem"), [
    ("funday", "03:00", "auto_update.day 'funday' is not a day of the week"),
    ("sunday", "25:00", "auto_update.time '25:00' must be a time of day"),
    (7, "03:00", "auto_update.day 7 is not a day of the week"),
    ("monday", None, "auto_update.time None must be a time of day"),
])
def test_a_stored_value_that_cannot_be_read_switches_it_off_with_a_warning(
        day: object, at: object, problem: str) -> None:
    schedule = read_schedule(config(day, at))
    assert not schedule.enabled
    assert schedule.problem is not None and schedule.problem.startswith(problem)
    assert next_slot(schedule, local(2026, 11, 24, 10, 0)) is None
    assert next_update_line(config(day, at)).startswith("No automatic update: " + problem)


@pytest.mark.parametrize("section", [None, "on", [], {"enabled": "true"}, {"enabled": 1}])
def test_a_section_that_is_not_switched_on_plainly_is_off_without_a_problem(
        section: object) -> None:
    schedule = read_schedule({"auto_update": section})
    assert not schedule.enabled and schedule.problem is None
    assert next_update_line({"auto_update": section}) == (
        "Next automatic update: none (automatic updates are off)")


def test_an_unknown_timezone_means_utc_and_day_names_ignore_case() -> None:
    schedule = read_schedule(config(" Monday ", "7:05", zone="Mars/Olympus"))
    assert schedule.enabled and schedule.zone_name == "UTC" and schedule.day == "monday"
    upcoming = next_slot(schedule, datetime(2026, 11, 24, tzinfo=UTC))
    assert upcoming == datetime(2026, 11, 30, 7, 5, tzinfo=UTC)


def test_a_slot_is_due_once_after_it_passes_only_if_armed_before_it() -> None:
    schedule = read_schedule(config())
    slot = local(2026, 11, 29, 3, 0)
    armed = slot.timestamp() - 3600
    assert due_slot(schedule, slot - timedelta(seconds=1), handled=None, armed_at=armed) is None
    assert due_slot(schedule, slot, handled=None, armed_at=armed) == slot
    assert due_slot(schedule, slot + timedelta(hours=5), handled=None, armed_at=armed) == slot
    # Handled: not again; enabled after the slot: next week.
    assert due_slot(schedule, slot + timedelta(hours=1), handled=slot.timestamp(),
                    armed_at=armed) is None
    assert due_slot(schedule, slot + timedelta(hours=1), handled=None,
                    armed_at=slot.timestamp() + 60) is None
    assert last_slot(schedule, slot + timedelta(days=6)) == slot


def test_a_slot_more_than_24_hours_late_is_missed_not_due() -> None:
    schedule = read_schedule(config())
    slot = local(2026, 11, 29, 3, 0)
    armed = slot.timestamp() - 3600
    late = slot + timedelta(hours=23, minutes=59)
    assert due_slot(schedule, late, handled=None, armed_at=armed) == slot
    assert missed_slot(schedule, late, handled=None, armed_at=armed) is None
    later = slot + timedelta(hours=24)
    assert due_slot(schedule, later, handled=None, armed_at=armed) is None
    assert missed_slot(schedule, later, handled=None, armed_at=armed) == slot
    assert missed_slot(schedule, later, handled=slot.timestamp(), armed_at=armed) is None
