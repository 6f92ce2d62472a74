"""Over-long names never reach a client as a 500: every route of the app, walked with
segments and query values far past what a file name may be (real daemon, real HTTP)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
import requests

from tests.daemons import ROOT, Daemon, Instance, start_web
from tests.web_service.conftest import write_plugin
from web_service.app import create_app

pytestmark = pytest.mark.timeout(240)

LENGTHS = (300, 5000)
# Every query parameter a view reads, found in the views' own source.
_QUERY_READ = re.compile(r"""(?:args\.get|args\.getlist|query_int|query_choice)\(\s*["'](\w+)""")


def query_names() -> list[str]:
    names = {match for path in (ROOT / "web_service").rglob("*.py")
             for match in _QUERY_READ.findall(path.read_text())}
    assert {"plugin_id", "lines", "font"} <= names, names
    return sorted(names)


def routes() -> list[tuple[str, list[str], list[str]]]:
    """Each rule of the app's route table: (rule, its argument names, its methods)."""
    app = create_app()
    table = []
    for rule in app.url_map.iter_rules():
        methods = sorted((rule.methods or set()) - {"HEAD", "OPTIONS"})
        table.append((rule.rule, sorted(rule.arguments), methods))
    return sorted(table)


def fillings(rule: str, args: list[str], long: str) -> list[str]:
    """``rule`` with every argument ``long``, then with one argument ``long`` at a time and
    the others naming what exists (the plugin ``clock``), so a long name gets past the
    lookups before it to where the filesystem is asked."""
    if not args:
        return [rule]

    def fill(arg: str | None) -> str:
        return re.sub(r"<(?:[^>:]+:)?(\w+)>",
                      lambda match: long if arg in (None, match.group(1)) else "clock", rule)

    return [fill(None)] + [fill(arg) for arg in args]


@pytest.fixture(scope="module")
def web(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    instance = Instance(Path(tmp_path_factory.mktemp("long-names")))
    write_plugin(instance.plugins_dir, "clock")
    (instance.plugins_dir / "clock" / "static").mkdir()
    daemon: Daemon
    daemon, url = start_web(instance)
    try:
        yield url
    finally:
        daemon.stop()


def _ask(url: str, method: str, path: str, params: dict[str, str] | None = None) -> str | None:
    """Send one request; a problem with its answer in words (None when it is fine)."""
    body = {} if method in ("POST", "PUT", "PATCH", "DELETE") else None
    with requests.request(method, url + path, params=params, json=body, timeout=30,
                          stream=True) as answer:  # a stream route may answer for ever
        where = f"{method} {path[:80]}... ({answer.status_code})"
        if answer.status_code >= 500 and answer.status_code != 503:
            return f"{where}: {answer.raw.read(300, decode_content=True)!r}"
        if path.startswith("/api/") and answer.status_code >= 400:
            try:
                envelope = answer.json()
            except ValueError:
                return f"{where}: not JSON"
            if envelope.get("status") != "error" or not envelope.get("error_code"):
                return f"{where}: {envelope}"
            if len(envelope.get("message") or "") > 1000:
                return f"{where}: a message of {len(envelope['message'])} characters"
    return None


def test_the_static_route_refuses_a_segment_longer_than_a_file_name(web):
    answer = requests.get(f"{web}/api/v3/plugins/clock/static/{'a' * 300}", timeout=10)
    assert answer.status_code == 400, answer.text
    assert answer.json()["error_code"] == "INVALID_PATH"


def test_every_route_answers_over_long_segments_and_queries_without_a_500(web):
    problems = []
    names = query_names()
    table = routes()
    assert any(args for _, args, _ in table), "no route with arguments found"
    for rule, args, methods in table:
        for length in LENGTHS:
            long = "a" * length
            queries = ({name: long for name in names},  # and with a plugin that exists:
                       {name: "clock" if name == "plugin_id" else long for name in names})
            for path in fillings(rule, args, long):
                for method in methods:
                    if args:
                        problems.append(_ask(web, method, path))
                    problems.extend(_ask(web, method, path, query) for query in queries)
    found = [each for each in problems if each]
    assert not found, "\n".join(found)


@pytest.mark.parametrize("path", ["/api/v3/plugins/config?plugin_id={}",
                                  "/api/v3/errors/plugin/{}", "/api/v3/plugins/{}/static/x"])
def test_a_huge_input_is_not_echoed_back_whole(web, path):
    answer = requests.get(web + path.format("q" * 100_000), timeout=30)
    assert 400 <= answer.status_code < 500 and answer.json()["error_code"]
    assert len(answer.content) < 4096, len(answer.content)
