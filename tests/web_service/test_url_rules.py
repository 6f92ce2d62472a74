"""Every route of the web app builds the same URL as a stock Werkzeug rule would."""

from __future__ import annotations

from flask import url_for
from werkzeug.routing import Map, Rule

from tests.web_service.conftest import WebEnv
from web_service.url_rules import DeferredBuildRule

SAMPLES = {"IntegerConverter": 7, "PathConverter": "a/b c", "UnicodeConverter": "some id"}


def _values(rule: Rule) -> dict[str, object]:
    return {name: SAMPLES.get(type(conv).__name__, "x-1")
            for name, conv in rule._converters.items()}


def test_every_route_builds_as_a_stock_rule_would(web: WebEnv) -> None:
    rules = [rule for rule in web.app.url_map.iter_rules() if rule.endpoint != "static"]
    assert len(rules) > 50
    assert all(isinstance(rule, DeferredBuildRule) for rule in rules)
    stock = Map([Rule(r.rule, endpoint=r.endpoint, methods=r.methods, defaults=r.defaults)
                 for r in rules])
    ours = web.app.url_map.bind("panel.local")
    theirs = stock.bind("panel.local")
    for rule in rules:
        values = _values(rule)
        method = sorted(rule.methods or {"GET"})[0]
        for extra in ({}, {"page": "2", "q": "a b"}):
            expected = theirs.build(rule.endpoint, {**values, **extra}, method=method)
            assert ours.build(rule.endpoint, {**values, **extra}, method=method) == expected


def test_a_builder_is_compiled_on_first_use_and_kept(web: WebEnv, monkeypatch) -> None:
    compiled: list[bool] = []
    stock_compile = Rule._compile_builder

    def counting(rule: Rule, append_unknown: bool = True):  # type: ignore[no-untyped-def]
        compiled.append(append_unknown)
        return stock_compile(rule, append_unknown)

    monkeypatch.setattr(Rule, "_compile_builder", counting)
    rule = DeferredBuildRule("/things/<int:thing>", endpoint="thing")
    Map([rule])
    assert compiled == []
    adapter = rule.map.bind("panel.local")
    assert adapter.build("thing", {"thing": 3}) == "/things/3"
    assert adapter.build("thing", {"thing": 4}) == "/things/4"
    assert compiled == [True]
    assert adapter.build("thing", {"thing": 5, "page": 2}, append_unknown=False) == "/things/5"
    assert compiled == [True, False]
    with web.app.test_request_context():
        assert url_for("pages.index") == "/v3"
