"""Config saves that were answered 200 and should be 400 naming the field."""

from __future__ import annotations

import json
from typing import Any

import pytest

ROUTES = ("/api/v3/config/main", "/api/v3/config/raw/main", "/api/v3/plugins/config")


def _post(web, route: str, body: Any, raw: str | None = None):
    if raw is not None:
        return web.client.post(route, data=raw, content_type="application/json")
    return web.client.post(route, json=body)


def _refused(answer, field: str) -> None:
    assert answer.status_code == 400, answer.get_data(as_text=True)
    body = answer.get_json()
    assert body["status"] == "error" and body["error_code"], body
    assert field in body["message"], body


@pytest.mark.parametrize("value", ["../../x", "pygame", "", 3])
def test_an_unknown_emulator_adapter_is_refused_naming_the_field(web, value: Any) -> None:
    before = web.config()
    answer = _post(web, "/api/v3/config/main", {"display": {"emulator_adapter": value}})
    _refused(answer, "display.emulator_adapter")
    raw = {**before, "display": {**before["display"], "emulator_adapter": value}}
    _refused(_post(web, "/api/v3/config/raw/main", raw), "display.emulator_adapter")
    assert web.config() == before


def test_the_known_emulator_adapters_are_saved(web) -> None:
    for value in ("raw", "browser"):
        answer = _post(web, "/api/v3/config/main", {"display": {"emulator_adapter": value}})
        assert answer.status_code == 200, answer.get_data(as_text=True)
        assert web.config()["display"]["emulator_adapter"] == value


@pytest.mark.parametrize("value", [[], "x", 3, None])
def test_a_config_wrapper_that_is_no_object_is_refused(web, value: Any) -> None:
    before = web.config()
    _refused(_post(web, "/api/v3/plugins/config", {"plugin_id": "clock", "config": value}),
             "config")
    _refused(_post(web, "/api/v3/config/main", {"config": value}), "config")
    _refused(_post(web, "/api/v3/config/raw/main", {**before, "config": value}), "config")
    assert web.config() == before and "config" not in web.config().get("clock", {})


@pytest.mark.parametrize("literal", ["1e-400", "-1e-400", "2.5e-324"])
def test_a_number_that_underflows_to_zero_is_refused(web, literal: str) -> None:
    before = web.config()
    raw = f'{{"brightness": {literal}}}'
    _refused(_post(web, "/api/v3/config/main", None, raw), literal)
    whole = json.dumps(before).replace(f'"brightness": {before["brightness"]}',
                                       f'"brightness": {literal}', 1)
    assert literal in whole
    _refused(_post(web, "/api/v3/config/raw/main", None, whole), literal)
    assert web.config() == before


def test_zero_written_as_zero_is_still_a_number(web) -> None:
    answer = _post(web, "/api/v3/config/main", None,
                   '{"vegas_scroll": {"scroll_delay": 0.0e-400}}')
    assert answer.status_code != 500


@pytest.mark.parametrize("key", ["__proto__", "constructor", "prototype"])
def test_keys_a_browser_would_misread_are_refused_naming_them(web, key: str) -> None:
    before = web.config()
    for route, body in (
            ("/api/v3/config/main", {key: {"x": 1}}),
            ("/api/v3/config/main", {"display": {key: 1}}),
            ("/api/v3/config/raw/main", {**before, key: {"x": 1}}),
            ("/api/v3/plugins/config", {"plugin_id": "clock", "config": {key: 1}})):
        _refused(_post(web, route, body), key)
    assert web.config() == before


def test_a_form_field_named_like_object_machinery_is_refused(web) -> None:
    before = web.config()
    answer = web.client.post("/api/v3/config/main", data={"display.__proto__.x": "1"})
    _refused(answer, "display.__proto__.x")
    assert web.config() == before
