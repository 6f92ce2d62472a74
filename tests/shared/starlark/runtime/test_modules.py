"""The small modules: json, base64, math, humanize, re, random, secret, xpath, i18n, sunrise."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from shared.starlark.runtime import AppError
from tests.shared.starlark.runtime.app_builder import main_value


def test_json_encode_decode_indent(tmp_path: Path) -> None:
    source = ('load("encoding/json.star", "json")\n'
              'def main(config):\n'
              '    d = json.decode(\'{"a": [1, 2.5, "x"], "b": null}\')\n'
              '    return [d["a"], d["b"], json.encode({"k": [1, True]}),\n'
              '            json.indent(\'{"a":1}\', indent = "  ")]\n')
    assert main_value(tmp_path, source) == [[1, 2.5, "x"], None, '{"k":[1,true]}',
                                            '{\n  "a": 1\n}']


def test_json_decode_of_bad_text_names_it(tmp_path: Path) -> None:
    source = ('load("encoding/json.star", "json")\n'
              'def main(config):\n    return json.decode("{nope")\n')
    with pytest.raises(AppError, match=r"^app.star:3: json.decode: "):
        main_value(tmp_path, source)


def test_base64_round_trip_of_text(tmp_path: Path) -> None:
    source = ('load("encoding/base64.star", "base64")\n'
              'def main(config):\n'
              '    e = base64.encode("héllo")\n'
              '    return [e, base64.decode(e), base64.decode("aGk")]\n')
    assert main_value(tmp_path, source) == ["aMOpbGxv", "héllo", "hi"]


def test_base64_of_binary_data_is_opaque(tmp_path: Path) -> None:
    source = ('load("encoding/base64.star", "base64")\n'
              'def main(config):\n    return type(base64.decode("iVBORw0KGgo="))\n')
    assert main_value(tmp_path, source) == "opaque_python_object"


def test_math_follows_go(tmp_path: Path) -> None:
    source = ('load("math.star", "math")\n'
              'def main(config):\n'
              '    return [math.floor(2.7), math.ceil(2.1), math.round(2.5), math.round(-2.5),\n'
              '            math.sqrt(16), math.pow(2, 10), math.mod(7, 3), int(math.pi * 100),\n'
              '            math.sin(0)]\n')
    assert main_value(tmp_path, source) == [2, 3, 3.0, -3.0, 4.0, 1024.0, 1.0, 314, 0.0]


def test_humanize_numbers(tmp_path: Path) -> None:
    source = ('load("humanize.star", "humanize")\n'
              'def main(config):\n'
              '    return [humanize.comma(1234567), humanize.ordinal(22),\n'
              '            humanize.float("#,###.##", 1234.5678),\n'
              '            humanize.float("#.###,", 1234567.0), humanize.plural(2, "apple"),\n'
              '            humanize.bytes(1500000)]\n')
    assert main_value(tmp_path, source) == ["1,234,567", "22nd", "1,234.57", "1.234.567",
                                            "2 apples", "1.5 MB"]


def test_humanize_time_is_relative_to_now(tmp_path: Path) -> None:
    source = ('load("humanize.star", "humanize")\nload("time.star", "time")\n'
              'def main(config):\n'
              '    t = time.now() - time.parse_duration("3h")\n'
              '    return humanize.time(t)\n')
    assert main_value(tmp_path, source) == "3 hours ago"


def test_re_compile_match_and_sub(tmp_path: Path) -> None:
    source = ('load("re.star", "re")\n'
              'POSTCODE = re.compile("^([A-Z]{1,2}[0-9]) ?([0-9][A-Z]{2})$")\n'
              'def main(config):\n'
              '    return [POSTCODE.match("E8 1DY"), POSTCODE.match("nope"),\n'
              '            re.compile("\\\\s+").sub(" ", "a   b"),\n'
              '            re.findall("[0-9]+", "a1b22")]\n')
    assert main_value(tmp_path, source) == [[["E8 1DY", "E8", "1DY"]], [], "a b", ["1", "22"]]


def test_random_numbers_are_in_range_and_seedable(tmp_path: Path) -> None:
    source = ('load("random.star", "random")\n'
              'def main(config):\n'
              '    random.seed(7)\n'
              '    a = [random.number(0, 3) for i in range(50)]\n'
              '    random.seed(7)\n'
              '    b = [random.number(0, 3) for i in range(50)]\n'
              '    return [a == b, min(a), max(a)]\n')
    assert main_value(tmp_path, source) == [True, 0, 3]


RANDOM_APP = ('load("random.star", "random")\n'
              'def main(config):\n    return [random.number(0, 1000) for i in range(5)]\n')


def test_random_is_the_same_within_a_15_second_window(tmp_path: Path) -> None:
    first = main_value(tmp_path, RANDOM_APP, wall_clock=lambda: 1_699_999_995.0)
    assert main_value(tmp_path, RANDOM_APP, wall_clock=lambda: 1_700_000_009.0) == first
    assert main_value(tmp_path, RANDOM_APP, wall_clock=lambda: 1_700_000_010.0) != first


def test_random_refuses_a_negative_min(tmp_path: Path) -> None:
    source = ('load("random.star", "random")\n'
              'def main(config):\n    return random.number(-1, 3)\n')
    with pytest.raises(AppError, match="min has to be 0 or greater"):
        main_value(tmp_path, source)


def test_secret_decrypts_to_none(tmp_path: Path) -> None:
    source = ('load("secret.star", "secret")\n'
              'def main(config):\n    return secret.decrypt("AV6+xWcE...") or "fallback"\n')
    assert main_value(tmp_path, source) == "fallback"


def test_xpath_names_what_is_missing(tmp_path: Path) -> None:
    source = ('load("xpath.star", "xpath")\n'
              'def main(config):\n    return xpath.loads("<a/>")\n')
    with pytest.raises(AppError, match="xpath.star is not available in this runtime"):
        main_value(tmp_path, source)


def test_i18n_reads_the_apps_locale(tmp_path: Path) -> None:
    source = ('load("i18n.star", "tr")\n'
              'def main(config):\n    return [tr("Open"), tr("Unknown")]\n')
    files: dict[str, bytes | str] = {"locales/de.json": json.dumps({"Open": "Offen"})}
    assert main_value(tmp_path, source, files=files, language="de") == ["Offen", "Unknown"]


def test_sunrise_and_sunset_of_a_known_day(tmp_path: Path) -> None:
    # London, 2024-06-21: sunrise 03:43 UTC, sunset 20:21 UTC (published almanac times).
    source = ('load("sunrise.star", "sunrise")\nload("time.star", "time")\n'
              'def main(config):\n'
              '    day = time.parse_time("2024-06-21T12:00:00Z")\n'
              '    rise = sunrise.sunrise(51.5072, -0.1276, day)\n'
              '    fall = sunrise.sunset(51.5072, -0.1276, day)\n'
              '    return [rise.hour * 60 + rise.minute, fall.hour * 60 + fall.minute,\n'
              '            sunrise.sunrise(89.9, 0, day)]\n')
    rise, fall, polar = main_value(tmp_path, source)
    assert abs(rise - (3 * 60 + 43)) <= 2 and abs(fall - (20 * 60 + 21)) <= 2
    assert polar is None
