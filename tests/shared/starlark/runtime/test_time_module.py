"""time.star: Go layouts, zones, and time arithmetic through the prelude."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.shared.starlark.runtime.app_builder import main_value

HEAD = 'load("time.star", "time")\n'


def _run(tmp_path: Path, body: str) -> Any:
    return main_value(tmp_path, HEAD + "def main(config):\n" + body)


def test_parse_and_format_with_go_layouts(tmp_path: Path) -> None:
    body = ('    t = time.parse_time("2024-03-05T14:07:09Z")\n'
            '    return [t.format("15:04"), t.format("3:04 PM"), t.format("Mon Jan 2 2006"),\n'
            '            t.hour, t.minute, t.year, t.unix]\n')
    assert _run(tmp_path, body) == ["14:07", "2:07 PM", "Tue Mar 5 2024", 14, 7, 2024,
                                    1709647629]


def test_in_location_moves_the_clock_not_the_instant(tmp_path: Path) -> None:
    body = ('    t = time.parse_time("2024-07-01T12:00:00Z").in_location("America/New_York")\n'
            '    return [t.hour, t.format("15:04 -07:00"), t.unix]\n')
    assert _run(tmp_path, body) == [8, "08:00 -04:00", 1719835200]


def test_parse_with_a_layout_and_location(tmp_path: Path) -> None:
    body = ('    t = time.parse_time("5/3/2024 20:00", "2/1/2006 15:04", "America/Sao_Paulo")\n'
            '    return t.in_location("UTC").format("2006-01-02 15:04")\n')
    assert _run(tmp_path, body) == "2024-03-05 23:00"


def test_subtracting_times_gives_a_duration(tmp_path: Path) -> None:
    body = ('    a = time.parse_time("2024-03-05T00:00:00Z")\n'
            '    b = time.parse_time("2024-03-07T06:00:00Z")\n'
            '    d = b - a\n'
            '    return [d.hours, d.minutes, int(d.seconds), (a - b).hours]\n')
    assert _run(tmp_path, body) == [54.0, 3240.0, 194400, -54.0]


def test_adding_a_duration_and_scaling_one(tmp_path: Path) -> None:
    body = ('    t = time.parse_time("2024-03-05T10:00:00Z")\n'
            '    later = t + time.parse_duration("1h30m")\n'
            '    n = 3\n'
            '    step = time.minute\n'
            '    again = later + (step * n)\n'
            '    earlier = t - time.parse_duration("24h")\n'
            '    return [later.format("15:04"), again.format("15:04"), earlier.day]\n')
    assert _run(tmp_path, body) == ["11:30", "11:33", 4]


def test_times_compare_in_order(tmp_path: Path) -> None:
    body = ('    a = time.parse_time("2024-03-05T00:00:00Z")\n'
            '    b = time.parse_time("2024-03-05T00:00:01Z").in_location("Asia/Tokyo")\n'
            '    return [a < b, b > a, a >= b, time.parse_duration("2m") > time.minute]\n')
    assert _run(tmp_path, body) == [True, True, False, True]


def test_time_built_from_fields_in_a_zone(tmp_path: Path) -> None:
    body = ('    t = time.time(year = 2024, month = 12, day = 25, hour = 7,\n'
            '                  location = "Europe/Berlin")\n'
            '    return [t.format("2006-01-02T15:04:05Z07:00"),\n'
            '            time.is_valid_timezone("Nope/x")]\n')
    assert _run(tmp_path, body) == ["2024-12-25T07:00:00+01:00", False]


def test_parse_duration_units(tmp_path: Path) -> None:
    body = ('    return [time.parse_duration(x).seconds for x in ["1h", "90s", "1.5m",\n'
            '            "-2s", "300ms"]]\n')
    assert _run(tmp_path, body) == [3600.0, 90.0, 90.0, -2.0, 0.3]


def test_now_is_in_the_local_zone(tmp_path: Path) -> None:
    body = '    return [time.tz(), time.now().unix > 1700000000]\n'
    assert main_value(tmp_path, HEAD + "def main(config):\n" + body,
                      local_zone="Europe/Paris") == ["Europe/Paris", True]


def test_times_are_equal_when_they_are_the_same_instant(tmp_path: Path) -> None:
    body = ('    a = time.parse_time("2024-03-05T00:00:00Z")\n'
            '    b = time.parse_time("2024-03-05T09:00:00+09:00")\n'
            '    c = time.parse_time("2024-03-05T00:00:01Z")\n'
            '    return [a == b, a != b, a <= b, a >= b, a < b, a > b,\n'
            '            a == c, a != c, a <= c, c >= a, a == None]\n')
    assert _run(tmp_path, body) == [True, False, True, True, False, False,
                                    False, True, True, True, False]


def test_durations_compare_by_length(tmp_path: Path) -> None:
    body = ('    hour, sixty = time.hour, time.parse_duration("60m")\n'
            '    minute = time.minute\n'
            '    return [hour == sixty, hour != sixty, hour <= sixty, minute < hour,\n'
            '            hour > minute, hour >= sixty, minute == hour]\n')
    assert _run(tmp_path, body) == [True, False, True, True, True, True, False]


def test_elapsed_time_compared_with_a_literal(tmp_path: Path) -> None:
    body = ('    now = time.parse_time("2024-03-05T12:00:00Z")\n'
            '    t, n = time.parse_time("2024-03-05T09:00:00Z"), 3\n'
            '    return [(now - t).hours > 2, (now - t).hours > 3, now - t >= time.hour * n]\n')
    assert _run(tmp_path, body) == [True, False, True]


def test_a_literal_number_of_duration_units(tmp_path: Path) -> None:
    body = ('    t = time.parse_time("2024-03-05T10:00:00Z")\n'
            '    yesterday = t - (24 * time.hour)\n'
            '    soon = t + (time.minute * 90)\n'
            '    return [yesterday.day, soon.format("15:04"), (2 * time.second).seconds]\n')
    assert _run(tmp_path, body) == [4, "11:30", 2.0]


def test_dividing_durations(tmp_path: Path) -> None:
    body = ('    a = time.parse_time("2024-03-05T10:00:00Z")\n'
            '    b = time.parse_time("2024-03-05T13:30:00Z")\n'
            '    d = b - a\n'
            '    unit = time.hour\n'
            '    two = 2\n'
            '    half = d / two\n'
            '    return [d / unit, d // time.minute, half.minutes, (time.hour / 4).minutes,\n'
            '            7 / 2]\n')
    assert _run(tmp_path, body) == [3.5, 210, 105.0, 15.0, 3.5]
