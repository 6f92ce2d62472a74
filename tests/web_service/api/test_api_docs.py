"""docs/API.md documents every route of the application, and GET /api/v3 lists them."""

from __future__ import annotations

import re
from pathlib import Path

DOCS = Path(__file__).resolve().parents[3] / "docs" / "API.md"
HEADING = re.compile(r"^### `(GET|POST|PUT|PATCH|DELETE) (/api/v3[^`?]*)(?:\?[^`]*)?`$",
                     re.MULTILINE)


def documented() -> dict[tuple[str, str], str]:
    text = DOCS.read_text(encoding="utf-8")
    found = list(HEADING.finditer(text))
    sections = {}
    for index, match in enumerate(found):
        end = found[index + 1].start() if index + 1 < len(found) else len(text)
        sections[(match.group(1), match.group(2))] = text[match.end():end]
    return sections


def test_every_route_is_documented_and_every_documented_route_exists(web) -> None:
    listed = web.client.get("/api/v3").get_json()["data"]["routes"]
    routes = {(r["method"], r["path"]) for r in listed}
    app_routes = {(method, rule.rule) for rule in web.app.url_map.iter_rules()
                  if rule.rule.startswith("/api/v3") and rule.rule != "/api/v3/"
                  for method in (rule.methods or set()) - {"HEAD", "OPTIONS"}}
    assert routes == app_routes
    assert set(documented()) == app_routes


def test_each_documented_route_names_its_errors_and_has_a_curl_example(web) -> None:
    for (method, path), section in documented().items():
        assert "Errors:" in section, (method, path)
        assert "curl " in section and path.split("<")[0].rstrip("/") in section, (method, path)
        if method != "GET":
            assert f"-X {method}" in section, (method, path)


def test_every_error_code_the_docs_name_is_in_the_code_table() -> None:
    text = DOCS.read_text(encoding="utf-8")
    table = text[text.index("### Error codes"):text.index("### Config saves")]
    named = set(re.findall(r"`([A-Z][A-Z_]+)`", text.replace(table, ""))) - {"LEDPANEL_WEB_PORT"}
    assert named <= set(re.findall(r"`([A-Z][A-Z_]+)`", table)), named


def test_the_index_answers_with_and_without_a_slash(web) -> None:
    for path in ("/api/v3", "/api/v3/"):
        answer = web.client.get(path)
        assert answer.status_code == 200
        routes = answer.get_json()["data"]["routes"]
        assert {"method": "GET", "path": "/api/v3/health",
                "summary": "Answer that the web service is up."} in routes
