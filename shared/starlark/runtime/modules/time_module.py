"""time.star: times and durations as structs of numbers with bound methods.

A time is a struct whose first field (by name order, which decides comparisons) is
``_0ns``, nanoseconds since the epoch, so ``<`` and ``>`` between different instants
work natively. Its bound methods differ from one time to another, so ``==``, ``!=``
and ordering two equal instants go through the prelude's comparisons (see
source_rewrite.py), as ``t1 - t2``, ``t + d`` and ``d * n`` go through its arithmetic.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, tzinfo
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from shared.starlark.runtime.modules import go_time_layout
from shared.starlark.runtime.modules.base import ModuleSource

NS = 1_000_000_000
DEFAULT_LAYOUT = "2006-01-02T15:04:05Z07:00"
_UNITS = {"ns": 1, "us": 1000, "µs": 1000, "ms": 10**6, "s": NS, "m": 60 * NS,
          "h": 3600 * NS}

TEXT = '''
def _time(f):
    return struct(
        _0ns = f["unix_nano"], _kind = "time", year = f["year"], month = f["month"],
        day = f["day"], hour = f["hour"], minute = f["minute"], second = f["second"],
        nanosecond = f["nanosecond"], unix = f["unix"], unix_nano = f["unix_nano"],
        weekday = f["weekday"], yday = f["yday"], location = f["location"],
        format = partial(_format, f["unix_nano"], f["location"]),
        in_location = partial(_in_location, f["unix_nano"]),
        is_zero = partial(_is_zero, f["unix_nano"]),
    )

def _format(ns, loc, layout):
    return _py_format(ns, loc, layout)

def _in_location(ns, loc):
    return _time(_py_fields(ns, loc))

def _is_zero(ns):
    return ns == _py_zero()

def duration_value(ns):
    return struct(
        _0ns = ns, _kind = "duration", hours = ns / 3600e9, minutes = ns / 60e9,
        seconds = ns / 1e9, milliseconds = ns // 1000000, microseconds = ns // 1000,
        nanoseconds = ns,
    )

def time_value(ns, loc):
    return _time(_py_fields(ns, loc))

def _now():
    return _time(_py_now())

def _parse_time(x, format = None, location = None):
    return _time(_py_parse(x, format, location))

def _parse_duration(d):
    return duration_value(_py_parse_duration(d))

def _make(year = 0, month = 1, day = 1, hour = 0, minute = 0, second = 0, nanosecond = 0,
          location = "UTC"):
    return _time(_py_make(year, month, day, hour, minute, second, nanosecond, location))

def _from_timestamp(sec, nsec = 0):
    return _time(_py_fields(sec * 1000000000 + nsec, "Local"))

time = struct(
    now = _now, parse_time = _parse_time, parse_duration = _parse_duration, time = _make,
    from_timestamp = _from_timestamp, tz = _py_tz, is_valid_timezone = _py_valid_zone,
    nanosecond = duration_value(1), microsecond = duration_value(1000),
    millisecond = duration_value(1000000), second = duration_value(1000000000),
    minute = duration_value(60000000000), hour = duration_value(3600000000000),
)
'''


def zone(name: str | None, local: str) -> tzinfo:
    """The time zone ``name`` ("Local" and "" are the runtime's ``local`` zone)."""
    wanted = local if name in (None, "", "Local") else str(name)
    if wanted.upper() == "UTC":
        return UTC
    try:
        return ZoneInfo(wanted)
    except (ZoneInfoNotFoundError, ValueError) as err:
        raise ValueError(f"unknown location {wanted!r}") from err


def _moment(ns: int, loc: str, local: str) -> datetime:
    return datetime.fromtimestamp(ns // NS, zone(loc, local)) + timedelta(
        microseconds=(ns % NS) // 1000)


def _fields(moment: datetime, loc: str, extra_ns: int = 0) -> dict[str, Any]:
    seconds = int(moment.timestamp())
    nanos = moment.microsecond * 1000 + extra_ns
    return {"unix_nano": seconds * NS + nanos, "unix": seconds, "year": moment.year,
            "month": moment.month, "day": moment.day, "hour": moment.hour,
            "minute": moment.minute, "second": moment.second, "nanosecond": nanos,
            "weekday": (moment.weekday() + 1) % 7, "yday": moment.timetuple().tm_yday,
            "location": loc}


def parse_duration(text: str) -> int:
    """Go's ``time.ParseDuration``: "1h30m", "-1.5s", "300ms" in nanoseconds."""
    import re

    parts = re.findall(r"([0-9]*\.?[0-9]+)(ns|us|µs|ms|s|m|h)", text.lstrip("+-"))
    rebuilt = "".join(a + b for a, b in parts)
    if not parts or rebuilt != text.lstrip("+-"):
        if text.lstrip("+-") == "0":
            return 0
        raise ValueError(f"invalid duration {text!r}")
    total = sum(round(float(n) * _UNITS[u]) for n, u in parts)
    return -total if text.startswith("-") else total


def module(local_zone: str = "UTC", clock: Any = None) -> ModuleSource:
    """time.star for a runtime whose local zone is ``local_zone``; ``clock`` for tests."""
    now = clock or (lambda: datetime.now(UTC))

    def fields(ns: int, loc: str) -> dict[str, Any]:
        return _fields(_moment(ns, loc, local_zone), loc, ns % 1000)

    def parse(text: str, layout: str | None, location: str | None) -> dict[str, Any]:
        loc = location or "UTC"
        moment = go_time_layout.parse_time(text, layout or DEFAULT_LAYOUT, zone(loc, local_zone))
        return _fields(moment, loc)

    def make(year: int, month: int, day: int, hour: int, minute: int, second: int,
             nanosecond: int, location: str) -> dict[str, Any]:
        base = datetime(year, 1, 1, tzinfo=zone(location, local_zone))
        moment = (base.replace(month=month, day=day) if 1 <= month <= 12 else base) + \
            timedelta(hours=hour, minutes=minute, seconds=second)
        return _fields(moment + timedelta(microseconds=nanosecond // 1000), location)

    return ModuleSource(TEXT, {
        "_py_now": lambda: _fields(now().astimezone(zone(local_zone, local_zone)), "Local"),
        "_py_fields": fields,
        "_py_format": lambda ns, loc, layout: go_time_layout.format_time(
            _moment(ns, loc, local_zone), layout),
        "_py_parse": parse, "_py_make": make, "_py_parse_duration": parse_duration,
        "_py_zero": lambda: -62135596800 * NS,
        "_py_tz": lambda: local_zone, "_py_valid_zone": lambda name: _valid(name, local_zone),
    })


def _valid(name: str, local: str) -> bool:
    try:
        zone(name, local)
    except ValueError:
        return False
    return True
