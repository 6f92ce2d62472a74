"""The source rewrite: which Go-Starlark idioms become prelude calls, lines kept in place."""

from __future__ import annotations

from shared.starlark.runtime.source_rewrite import rewrite


def _body(text: str) -> list[str]:
    """The rewritten lines, less the prelude load put in front of the first."""
    lines = rewrite(text).splitlines()
    lines[0] = lines[0].split("; ", 1)[1] if lines[0].startswith("load(") else lines[0]
    return lines


def test_printf_formats_with_precision_become_calls() -> None:
    assert _body('x = 1\ns = "%.2f km" % dist\n')[1] == 's = ledpanel_percent("%.2f km" , dist)'


def test_plain_formats_are_left_to_the_interpreter() -> None:
    assert rewrite('s = "%s and %d" % (a, b)\n') == 's = "%s and %d" % (a, b)\n'


def test_a_parenthesised_format_is_rewritten_with_its_subscripted_argument() -> None:
    assert _body('x = 1\nt = ("%02d:00") % data["h"]\n')[1] == \
        't = ledpanel_percent(("%02d:00") , data["h"])'


def test_subtraction_of_two_names_goes_through_the_prelude() -> None:
    assert _body("x = 1\nd = (later - now).hours\n")[1] == \
        "d = (ledpanel_sub(later , now)).hours"


def test_arithmetic_with_a_literal_or_in_a_chain_is_left_alone() -> None:
    assert rewrite("a = x - 1\nb = x - y - z\nc = -x + y\n") == \
        "a = x - 1\nb = x - y - z\nc = -x + y\n"


def test_a_number_times_a_duration_unit_goes_through_the_prelude() -> None:
    got = _body("x = 1\na = 24 * time.hour\nb = time.minute * 1.5\n"
                "c = 2 * time.parse_duration(s)\nd = 24 * hours\ne = 3 * 4\n")
    assert got[1:] == ["a = ledpanel_mul(24 , time.hour)", "b = ledpanel_mul(time.minute , 1.5)",
                       "c = ledpanel_mul(2 , time.parse_duration(s))", "d = 24 * hours",
                       "e = 3 * 4"]


def test_nested_products_and_sums_are_both_rewritten() -> None:
    assert _body("x = 1\ne = elapsed + (delta * time.millisecond)\n")[1] == \
        "e = ledpanel_add(elapsed , (ledpanel_mul(delta , time.millisecond)))"


def test_comparisons_of_two_names_go_through_the_prelude() -> None:
    assert _body("x = 1\nsame = t1 == t2 or a.b != f(c)\nk = d <= e\n")[1:] == [
        "same = ledpanel_eq(t1 , t2) or ledpanel_ne(a.b , f(c))", "k = ledpanel_le(d , e)"]


def test_comparisons_with_a_literal_or_constant_or_arithmetic_are_left_alone() -> None:
    source = "a = x == 1\nb = x != None\nc = x < y + z\nd = (x).hours > 2\n"
    assert _body(source) == ["a = x == 1", "b = x != None", "c = x < ledpanel_add(y , z)",
                             "d = (x).hours > 2"]


def test_star_arguments_are_not_products() -> None:
    assert rewrite("f(*args, **kwargs)\n") == "f(*args, **kwargs)\n"


def test_set_methods_become_calls_and_set_is_loaded() -> None:
    text = rewrite("s = set()\ns.add(item)\n")
    assert text.startswith('load("@ledpanel/prelude", "ledpanel_m_add", "set"); ')
    assert text.splitlines()[1] == "ledpanel_m_add(s, item)"


def test_every_line_stays_where_it_was() -> None:
    source = '"""doc"""\nx = a - b\n\ny = "%.1f" % x\nz = 3\n'
    assert len(rewrite(source).splitlines()) == len(source.splitlines())
    assert rewrite(source).splitlines()[4] == "z = 3"


def test_a_first_line_that_opens_a_block_gets_the_load_after_the_last() -> None:
    text = rewrite("def f(a, b):\n    return a - b\n")
    assert text.splitlines() == ["def f(a, b):", "    return ledpanel_sub(a , b)",
                                 'load("@ledpanel/prelude", "ledpanel_sub")']


def test_source_without_idioms_is_unchanged() -> None:
    assert rewrite("x = [1, 2]\n") == "x = [1, 2]\n"


def test_a_set_method_split_over_lines_is_left_as_written() -> None:
    assert rewrite("s.\\\n    add(x)\n") == "s.\\\n    add(x)\n"


def test_a_set_method_with_no_argument_gets_no_comma() -> None:
    assert rewrite("x = 1\nu = a.union()\n").splitlines()[1] == "u = ledpanel_m_union(a)"
