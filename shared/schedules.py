"""Schedule math: when the panel is on (``schedule``) and when it is dimmed (``dim_schedule``).

Pure: no I/O and no clock of its own; callers pass ``now`` as POSIX seconds or an aware
``datetime``. Used by the web (validation: ``section_problems``) and the display daemon
(applying them: ``Schedules.from_config(config)``, read once per config reload, then
``power_on``, ``dim_active``, ``brightness``/``brightness_at`` and ``next_transition``).

Both sections share one shape::

    {"enabled": bool, "mode": "global" | "per-day", "start_time": "HH:MM",
     "end_time": "HH:MM", "days": {"monday": {"enabled", "start_time", "end_time"}, ...}}

(``dim_schedule`` also has ``dim_brightness``.) In ``global`` mode every day has the
window ``start_time``-``end_time``; in ``per-day`` mode each day has its own, and a day
whose ``enabled`` is false has none. A window belongs to the day it starts on: an end
earlier than the start runs past midnight into the next day (22:00-07:00), and an end
equal to the start makes a whole day (24 hours). Times are local to the config's
``timezone`` (an IANA name; missing or unknown means UTC), resolved with ``zoneinfo``, so
daylight-saving changes move the windows with the wall clock. A local time that does not
exist on a spring-forward day (02:30) falls an hour later; one that occurs twice in the
autumn means the first occurrence.

For the power schedule the window is when the panel is on; for the dim schedule it is
when the panel is dimmed. A disabled schedule never turns the panel off or dims it.

The display reads a stored config leniently: in the power schedule a window with an
unreadable time keeps the panel on that whole day; in the dim schedule it dims nothing.
Saves are checked strictly (``section_problems``), so only a hand edit gets there.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta, tzinfo
from typing import Any

DAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
GLOBAL, PER_DAY = "global", "per-day"
MODES = (GLOBAL, PER_DAY)
MODE_ALIASES = {"per_day": PER_DAY, "perday": PER_DAY}

# How far ahead ``next_change`` looks: a week and a day covers every weekly pattern.
_LOOKAHEAD_DAYS = 8
_TIME_RE = re.compile(r"(\d{1,2}):(\d{2})")

Moment = float | datetime


def parse_time(text: Any) -> time:
    """Return the time of day in ``"HH:MM"`` (24-hour; ``"7:05"`` too), or raise ValueError."""
    match = _TIME_RE.fullmatch(text.strip()) if isinstance(text, str) else None
    if match is None or int(match[1]) > 23 or int(match[2]) > 59:
        raise ValueError("must be a time of day as HH:MM, 00:00 to 23:59")
    return time(int(match[1]), int(match[2]))


def format_time(value: time) -> str:
    """Return ``value`` as ``"HH:MM"``."""
    return f"{value.hour:02d}:{value.minute:02d}"


def normalize_mode(value: Any) -> str | None:
    """Return ``global`` or ``per-day`` for a mode name (``per_day`` accepted), else None."""
    if not isinstance(value, str):
        return None
    mode = value.strip().lower()
    mode = MODE_ALIASES.get(mode, mode)
    return mode if mode in MODES else None


def zone_for(config: dict[str, Any]) -> tzinfo:
    """Return the config's ``timezone``; UTC when it is missing or unknown."""
    name = config.get("timezone") if isinstance(config, dict) else None
    if isinstance(name, str) and name.strip() and name.strip() != "UTC":
        from zoneinfo import ZoneInfo, ZoneInfoNotFoundError  # UTC, the default, needs none

        try:
            return ZoneInfo(name.strip())
        except (ZoneInfoNotFoundError, ValueError):
            pass
    return UTC


@dataclass(frozen=True)
class DayWindow:
    """One day's window, starting that day; an end at or before the start is the next day."""

    start: time
    end: time


ALL_DAY = DayWindow(time(0), time(0))


@dataclass(frozen=True)
class Schedule:
    """A weekly schedule: an optional window per weekday (Monday first)."""

    enabled: bool
    windows: tuple[DayWindow | None, ...]

    @classmethod
    def from_section(cls, section: Any, unreadable: DayWindow | None = None) -> Schedule:
        """Read a stored section leniently: a window with a bad time becomes ``unreadable``."""
        if not isinstance(section, dict):
            return cls(False, (None,) * 7)
        if normalize_mode(section.get("mode")) == PER_DAY:
            windows = tuple(_day_window(day_values(section, day), unreadable) for day in DAYS)
        else:
            window = _window(section.get("start_time"), section.get("end_time"), unreadable)
            windows = (window,) * 7
        return cls(section.get("enabled") is True, windows)

    def active(self, now: Moment, zone: tzinfo) -> bool:
        """Return whether ``now`` falls inside one of the windows."""
        stamp = _stamp(now)
        today = datetime.fromtimestamp(stamp, zone).date()
        return any(start <= stamp < end for start, end in self._spans(today, -1, 1, zone))

    def next_change(self, now: Moment, zone: tzinfo) -> float | None:
        """Return the first moment after ``now`` (POSIX seconds) when ``active`` flips."""
        stamp = _stamp(now)
        today = datetime.fromtimestamp(stamp, zone).date()
        current = self.active(stamp, zone)
        edges = sorted({edge for span in self._spans(today, -1, _LOOKAHEAD_DAYS, zone)
                        for edge in span if edge > stamp})
        for edge in edges:
            if self.active(edge, zone) != current:
                return edge
        return None

    def _spans(self, today: date, first: int, last: int,
               zone: tzinfo) -> list[tuple[float, float]]:
        spans = []
        for offset in range(first, last):
            day = today + timedelta(days=offset)
            window = self.windows[day.weekday()]
            if window is None:
                continue
            end_day = day if window.end > window.start else day + timedelta(days=1)
            spans.append((_local(day, window.start, zone), _local(end_day, window.end, zone)))
        return spans


def day_values(section: dict[str, Any], day: str) -> dict[str, Any]:
    """Return one day's ``enabled``, ``start_time`` and ``end_time``; gaps take the global ones."""
    days = section.get("days")
    own = days.get(day) if isinstance(days, dict) else None
    values = {"enabled": True, "start_time": section.get("start_time"),
              "end_time": section.get("end_time")}
    if isinstance(own, dict):
        values.update({k: own[k] for k in values if k in own})
    return values


@dataclass(frozen=True)
class Schedules:
    """A config's power and dim schedules, read once (``from_config``) and asked many times."""

    power: Schedule
    dim: Schedule
    zone: tzinfo
    dim_level: int | None

    @classmethod
    def from_config(cls, config: dict[str, Any]) -> Schedules:
        """Read both schedules, the time zone and ``dim_schedule.dim_brightness`` (1-100).

        In the power schedule a window with a bad time keeps the panel on all that day; in
        the dim schedule it dims nothing.
        """
        if not isinstance(config, dict):
            config = {}
        section = config.get("dim_schedule")
        level = section.get("dim_brightness") if isinstance(section, dict) else None
        if isinstance(level, bool) or not isinstance(level, int | float):
            level = None
        return cls(
            power=Schedule.from_section(config.get("schedule"), unreadable=ALL_DAY),
            dim=Schedule.from_section(section),
            zone=zone_for(config),
            dim_level=None if level is None else max(1, min(100, int(level))),
        )

    @property
    def enabled(self) -> bool:
        """Return whether either schedule is on (otherwise nothing ever changes)."""
        return self.power.enabled or self.dim.enabled

    def power_on(self, now: Moment) -> bool:
        """Return whether the power schedule lets the panel show content at ``now``."""
        return not self.power.enabled or self.power.active(now, self.zone)

    def dim_active(self, now: Moment) -> bool:
        """Return whether the dim schedule dims the panel at ``now``."""
        return self.dim.enabled and self.dim.active(now, self.zone)

    def brightness(self, configured: int, dimmed: bool) -> int:
        """Return the brightness to show: the dim level when ``dimmed``, never raised."""
        if not dimmed or self.dim_level is None:
            return configured
        return min(configured, self.dim_level)

    def brightness_at(self, now: Moment, configured: int) -> int:
        """Return the brightness to show at ``now``."""
        return self.brightness(configured, self.dim_active(now))

    def next_transition(self, now: Moment) -> float | None:
        """Return when the power or dim state next changes (POSIX seconds), if ever."""
        changes = [change for schedule in (self.power, self.dim) if schedule.enabled
                   and (change := schedule.next_change(now, self.zone)) is not None]
        return min(changes) if changes else None


def section_problems(section: Any, name: str) -> list[tuple[str, str]]:
    """Return ``(field, message)`` for every value a save must refuse in a schedule section.

    ``name`` prefixes the field names (``"schedule"`` gives ``schedule.start_time``).
    """
    if not isinstance(section, dict):
        return [(name, "must be an object")]
    problems: list[tuple[str, str]] = []
    if "enabled" in section and not isinstance(section["enabled"], bool):
        problems.append((f"{name}.enabled", "must be true or false"))
    if "mode" in section and normalize_mode(section["mode"]) is None:
        problems.append((f"{name}.mode", f"must be one of {', '.join(MODES)}"))
    problems += _time_problems(section, name)
    days = section.get("days", {})
    if not isinstance(days, dict):
        return [*problems, (f"{name}.days", "must be an object")]
    for day, value in days.items():
        field = f"{name}.days.{day}"
        if day not in DAYS:
            problems.append((field, f"is not a day; days are {', '.join(DAYS)}"))
        elif not isinstance(value, dict):
            problems.append((field, "must be an object"))
        else:
            if "enabled" in value and not isinstance(value["enabled"], bool):
                problems.append((f"{field}.enabled", "must be true or false"))
            problems += _time_problems(value, field)
    return problems


def _time_problems(node: dict[str, Any], prefix: str) -> list[tuple[str, str]]:
    problems = []
    for key in ("start_time", "end_time"):
        if key in node:
            try:
                parse_time(node[key])
            except ValueError as err:
                problems.append((f"{prefix}.{key}", f"{err} (got {node[key]!r})"))
    return problems


def _day_window(value: Any, unreadable: DayWindow | None) -> DayWindow | None:
    if not isinstance(value, dict) or value.get("enabled") is False:
        return None
    return _window(value.get("start_time"), value.get("end_time"), unreadable)


def _window(start: Any, end: Any, unreadable: DayWindow | None) -> DayWindow | None:
    try:
        return DayWindow(parse_time(start), parse_time(end))
    except ValueError:
        return unreadable


def _local(day: date, at: time, zone: tzinfo) -> float:
    return datetime.combine(day, at, tzinfo=zone).timestamp()


def _stamp(now: Moment) -> float:
    if isinstance(now, datetime):
        return (now if now.tzinfo else now.replace(tzinfo=UTC)).timestamp()
    return float(now)
