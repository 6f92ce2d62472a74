"""Hostile request bodies get one 400 naming the problem on every POST route: real
web daemon, real HTTP on loopback, and the config stays as it was."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
import requests

from shared.files.jsontext import MAX_DEPTH, MAX_INT_DIGITS
from tests.daemons import Daemon, Instance, start_web
from tests.web_service.conftest import write_plugin
from web_service.app import create_app

pytestmark = pytest.mark.timeout(180)

# body -> words the refusal must contain
HOSTILE = {
    "[" * 400 + "]" * 400: f"nested deeper than {MAX_DEPTH} levels",
    '{"a":' * 990 + "1" + "}" * 990: f"nested deeper than {MAX_DEPTH} levels",
    '{"plugin_id": "clock", "x": [' + "[" * 700 + "]" * 700 + "]}": "nested deeper",
    '{"brightness": ' + "7" * 4300 + "}": f"integer with more than {MAX_INT_DIGITS} digits",
    '{"brightness": -' + "1" * 5000 + "}": "digits",
    '{"plugin_id": "\\ud800"}': "lone surrogate \\ud800",
    '{"plugin_id": "clock", "config": {"\\udfff": 1}}': "lone surrogate \\udfff",
    '{"brightness": NaN}': "NaN is not a JSON number",
    '{"brightness": -Infinity}': "-Infinity is not a JSON number",
    '{"brightness": 1e999}': "too large",
}


def post_routes() -> list[str]:
    """Every POST route of the app, from its own route table; a path part (``<app_id>``)
    is given a plain value, as a client would send."""
    app = create_app()
    rules = [re.sub(r"<[^>]+>", "x", rule.rule) for rule in app.url_map.iter_rules()
             if "POST" in (rule.methods or ())]
    assert rules and all("<" not in rule for rule in rules), rules
    return sorted(rules)


@pytest.fixture(scope="module")
def web(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Instance, str]]:
    instance = Instance(Path(tmp_path_factory.mktemp("hostile")))
    write_plugin(instance.plugins_dir, "clock")
    daemon: Daemon
    daemon, url = start_web(instance)
    try:
        yield instance, url
    finally:
        daemon.stop()


def test_every_post_route_refuses_hostile_json_naming_the_problem(web) -> None:
    instance, url = web
    config_file = instance.config_dir / "config.json"
    before = config_file.read_bytes()
    routes = post_routes()
    assert "/api/v3/config/raw/main" in routes and "/api/v3/plugins/config" in routes
    for route in routes:
        for body, words in HOSTILE.items():
            answer = requests.post(url + route, data=body.encode(), timeout=10,
                                   headers={"Content-Type": "application/json"})
            assert answer.status_code == 400, (route, body[:40], answer.text[:300])
            envelope = answer.json()
            assert envelope["error_code"] == "INVALID_JSON", (route, envelope)
            assert words in envelope["message"], (route, envelope["message"])
    assert config_file.read_bytes() == before
    assert requests.get(f"{url}/api/v3/health", timeout=5).status_code == 200


def test_deeply_dotted_form_fields_are_refused(web) -> None:
    _, url = web
    # The raw editor reads any body as the file's JSON text, so a form is bad JSON there.
    for route in set(post_routes()) - {"/api/v3/config/raw/main"}:
        answer = requests.post(url + route, data={"x" + ".x" * 900: "1"}, timeout=10)
        assert answer.status_code == 400, (route, answer.text[:300])
        assert "nested deeper" in answer.json()["message"]


def test_a_latin_1_body_is_stored_as_sent(web) -> None:
    instance, url = web
    body = json.dumps({"plugin_id": "clock", "config": {"title": "Café"}}, ensure_ascii=False)
    answer = requests.post(f"{url}/api/v3/plugins/config", data=body.encode("latin-1"),
                           headers={"Content-Type": "application/json; charset=latin-1"},
                           timeout=10)
    assert answer.status_code == 200, answer.text
    stored = json.loads((instance.config_dir / "config.json").read_text(encoding="utf-8"))
    assert stored["clock"]["title"] == "Café"
    form = b"plugin_id=clock&title=%E9t%E9"
    answer = requests.post(
        f"{url}/api/v3/plugins/config", data=form, timeout=10,
        headers={"Content-Type": "application/x-www-form-urlencoded; charset=iso-8859-1"})
    assert answer.status_code == 200, answer.text
    stored = json.loads((instance.config_dir / "config.json").read_text(encoding="utf-8"))
    assert stored["clock"]["title"] == "été"


def test_bodies_that_are_not_text_in_their_charset_are_refused_not_mangled(web) -> None:
    instance, url = web
    config_file = instance.config_dir / "config.json"
    before = config_file.read_bytes()
    latin_1_sent_as_utf_8 = '{"plugin_id": "clock", "config": {"title": "Caf\xe9"}}'
    answer = requests.post(f"{url}/api/v3/plugins/config", timeout=10,
                           data=latin_1_sent_as_utf_8.encode("latin-1"),
                           headers={"Content-Type": "application/json"})
    assert answer.status_code == 400 and answer.json()["error_code"] == "INVALID_JSON"
    assert "byte 0xe9" in answer.json()["message"]
    answer = requests.post(f"{url}/api/v3/plugins/config", timeout=10,
                           data=b"plugin_id=clock&title=%E9",
                           headers={"Content-Type": "application/x-www-form-urlencoded"})
    assert answer.status_code == 400 and answer.json()["error_code"] == "INVALID_FORM"
    for charset in ("x-klingon", "hex"):
        answer = requests.post(f"{url}/api/v3/config/main", data=b"{}", timeout=10,
                               headers={"Content-Type": f"application/json; charset={charset}"})
        assert answer.status_code == 415, answer.text
        assert answer.json()["error_code"] == "UNSUPPORTED_CHARSET"
    assert config_file.read_bytes() == before
