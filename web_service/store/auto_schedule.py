"""When the weekly automatic plugin update runs: pure schedule math, no clock, no I/O.

The config's ``auto_update`` section (``{"enabled": bool, "day": "sunday", "time":
"03:00"}``) names one moment a week, a *slot*, local to the config's ``timezone``
(``shared.schedules.zone_for``: missing or unknown means UTC). Daylight-saving changes
follow the wall clock: a time that does not exist on a spring-forward day (02:30) falls
an hour later, one that occurs twice in the autumn means the first occurrence.

A stored section is read leniently: a day or time that cannot be read switches the
update off with a warning (``AutoSchedule.problem``), it never raises.

A slot is due (``due_slot``) when it has passed, was not handled yet, came after the
schedule was armed (enabling the update at 03:30 with time 03:00 waits for next week)
and is less than ``MISSED_LIMIT`` late (a run missed while the service was down runs at
its next start only then).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta, tzinfo
from typing import Any

from shared.schedules import DAYS, format_time, parse_time, zone_for

MISSED_LIMIT = timedelta(hours=24)


@dataclass(frozen=True)
class AutoSchedule:
    """The weekly update as configured: ``weekday`` is Monday 0; ``problem`` says why a
    stored value switched it off."""

    enabled: bool
    day: str
    at: time
    zone: tzinfo
    zone_name: str
    problem: str | None = None

    @property
    def weekday(self) -> int:
        return DAYS.index(self.day)

    @property
    def time_text(self) -> str:
        return format_time(self.at)

    @property
    def key(self) -> str:
        """Return what identifies the schedule: a change of it arms it anew."""
        return f"{self.enabled} {self.day} {self.time_text} {self.zone_name}"


def read_schedule(config: Any) -> AutoSchedule:
    """Return the ``auto_update`` schedule of ``config``; off when it cannot be read."""
    config = config if isinstance(config, dict) else {}
    section = config.get("auto_update")
    section = section if isinstance(section, dict) else {}
    zone = zone_for(config)
    zone_name = str(getattr(zone, "key", None) or "UTC")
    enabled = section.get("enabled") is True
    raw_day, raw_time = section.get("day", "sunday"), section.get("time", "03:00")
    day = raw_day.strip().lower() if isinstance(raw_day, str) else ""
    problem = None
    try:
        at = parse_time(raw_time)
    except ValueError as err:
        at, problem = time(3, 0), f"auto_update.time {_shown(raw_time)} {err}"
    if day not in DAYS:
        day = "sunday"
        problem = (f"auto_update.day {_shown(raw_day)} is not a day of the week "
                   f"({DAYS[0]} to {DAYS[-1]})")
    return AutoSchedule(enabled and problem is None, day, at, zone, zone_name,
                        problem if enabled else None)


def slot_on(schedule: AutoSchedule, day: date) -> datetime:
    """Return the slot on local date ``day`` (whatever its weekday), aware, in the zone."""
    wall = datetime.combine(day, schedule.at, tzinfo=schedule.zone)  # fold 0: the first
    # A wall time skipped by a spring-forward reads with the offset before the change;
    # the round trip through UTC turns it into the real moment, an hour later on the wall.
    return wall.astimezone(UTC).astimezone(schedule.zone)


def _slots_around(schedule: AutoSchedule, now: datetime) -> list[datetime]:
    today = now.astimezone(schedule.zone).date()
    days = (today + timedelta(days=offset) for offset in range(-8, 9))
    return sorted(slot_on(schedule, d) for d in days if d.weekday() == schedule.weekday)


def next_slot(schedule: AutoSchedule, now: datetime) -> datetime | None:
    """Return the first slot strictly after ``now`` (aware), None when the update is off."""
    if not schedule.enabled:
        return None
    return next(s for s in _slots_around(schedule, now) if s > now)


def last_slot(schedule: AutoSchedule, now: datetime) -> datetime | None:
    """Return the latest slot at or before ``now``, None when the update is off."""
    if not schedule.enabled:
        return None
    return [s for s in _slots_around(schedule, now) if s <= now][-1]


def due_slot(schedule: AutoSchedule, now: datetime, *, handled: float | None,
             armed_at: float) -> datetime | None:
    """Return the slot to run now, or None: see the module docstring.

    ``handled`` is the Unix time of the last slot run or given up (None: never);
    ``armed_at`` when this schedule was first seen, as Unix time.
    """
    slot = last_slot(schedule, now)
    if slot is None or slot.timestamp() < armed_at:
        return None
    if handled is not None and slot.timestamp() <= handled:
        return None
    return slot if now - slot < MISSED_LIMIT else None


def missed_slot(schedule: AutoSchedule, now: datetime, *, handled: float | None,
                armed_at: float) -> datetime | None:
    """Return a slot not handled and now too late to run (``MISSED_LIMIT``), else None."""
    slot = last_slot(schedule, now)
    if slot is None or slot.timestamp() < armed_at:
        return None
    if handled is not None and slot.timestamp() <= handled:
        return None
    return slot if now - slot >= MISSED_LIMIT else None


def describe(moment: datetime, schedule: AutoSchedule) -> str:
    """Return ``sunday 2026-11-29 03:00 (Europe/Berlin)`` for a slot."""
    local = moment.astimezone(schedule.zone)
    return f"{DAYS[local.weekday()]} {local:%Y-%m-%d %H:%M} ({schedule.zone_name})"


def next_update_line(config: Any, now: datetime | None = None) -> str:
    """Return the General tab's line: when the next automatic update runs, or why none."""
    schedule = read_schedule(config)
    upcoming = next_slot(schedule, now or datetime.now(UTC))
    if upcoming is not None:
        return f"Next automatic update: {describe(upcoming, schedule)}"
    if schedule.problem:
        return f"No automatic update: {schedule.problem}"
    return "Next automatic update: none (automatic updates are off)"


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."
