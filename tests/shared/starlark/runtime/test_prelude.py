"""The bridges for Go-Starlark habits: printf formats, set(), print, and plain arithmetic."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from tests.shared.starlark.runtime.app_builder import main_value


def test_printf_with_precision_and_width(tmp_path: Path) -> None:
    source = ('def main(config):\n'
              '    x = 3.14159\n'
              '    return ["%.2f" % x, "%5d|" % 42, "%-4s|%03d" % ("ab", 7), "%d%%" % 50]\n')
    assert main_value(tmp_path, source) == ["3.14", "   42|", "ab  |007", "50%"]


def test_printf_of_a_missing_argument_names_the_format(tmp_path: Path) -> None:
    source = 'def main(config):\n    return "%.1f %.1f" % (1.0,)\n'
    with pytest.raises(Exception, match=r"app.star:2: format '%.1f %.1f'"):
        main_value(tmp_path, source)


def test_set_membership_and_methods(tmp_path: Path) -> None:
    source = ('def main(config):\n'
              '    seen = set()\n'
              '    seen.add("a")\n'
              '    seen.add("a")\n'
              '    both = set(["a", "b"]).intersection(set(["b", "c"]))\n'
              '    return [len(seen), "a" in seen, "z" in seen, sorted(both),\n'
              '            sorted(set([1]).union([2, 3])), sorted(set([1, 2]).difference([2]))]\n')
    assert main_value(tmp_path, source) == [1, True, False, ["b"], [1, 2, 3], [1]]


def test_list_remove_still_works_beside_set_methods(tmp_path: Path) -> None:
    source = 'def main(config):\n    xs = [1, 2, 3]\n    xs.remove(2)\n    return xs\n'
    assert main_value(tmp_path, source) == [1, 3]


def test_plain_arithmetic_between_names_is_unchanged(tmp_path: Path) -> None:
    source = ('def main(config):\n'
              '    a, b, s, l = 7, 2, "x", [1]\n'
              '    return [a - b, a + b, a * b, s + s, l + l, s * b]\n')
    assert main_value(tmp_path, source) == [5, 9, 14, "xx", [1, 1], "xx"]


def test_print_goes_to_the_debug_log(tmp_path: Path, caplog: pytest.LogCaptureFixture,
                                     capfd: pytest.CaptureFixture[str]) -> None:
    caplog.set_level(logging.DEBUG, logger="ledpanel.starlark")
    source = 'def main(config):\n    print("hello", 42)\n    return 1\n'
    assert main_value(tmp_path, source) == 1
    assert "app: hello 42" in caplog.text
    assert "hello" not in capfd.readouterr().out


def test_top_level_if_and_for_run(tmp_path: Path) -> None:
    source = ('X = []\nfor i in range(3):\n    X.append(i)\nif len(X) == 3:\n    Y = "ok"\n'
              'def main(config):\n    return [X, Y]\n')
    assert main_value(tmp_path, source) == [[0, 1, 2], "ok"]


def test_a_range_past_32_bits_runs_until_break(tmp_path: Path) -> None:
    source = ('def main(config):\n'
              '    n = 0\n'
              '    for i in range(0, 10000000000):\n'
              '        n += 1\n'
              '        if i == 4:\n'
              '            break\n'
              '    return [n, len(range(3))]\n')
    assert main_value(tmp_path, source) == [5, 3]
