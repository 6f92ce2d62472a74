"""The OpenAPI description: complete both ways, valid OpenAPI 3.1, true to docs/API.md,
its examples valid, and served as a plain JSON document (errors still the envelope)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import jsonschema
import pytest
from openapi_spec_validator import validate
from openapi_spec_validator.validation import OpenAPIV31SpecValidator

from web_service.openapi import document
from web_service.openapi.answers import COMMON_CODES
from web_service.openapi.document import openapi_path
from web_service.rate_limit.groups import ENDPOINT_GROUPS

API_DOCS = document.__file__.rsplit("/web_service/", 1)[0] + "/docs/API.md"
HEADING = re.compile(r"^### `(GET|POST|PUT|PATCH|DELETE) (/[^`?]*)(?:\?[^`]*)?`$",
                     re.MULTILINE)
METHODS = {"get", "post", "put", "patch", "delete"}


def served(web: Any) -> dict[str, Any]:
    answer = web.client.get("/api/v3/openapi.json")
    assert answer.status_code == 200
    assert answer.mimetype == "application/json"
    body: dict[str, Any] = answer.get_json()
    return body


def registered(web: Any, api_only: bool = True) -> set[tuple[str, str]]:
    """The app's routes: those under /api/v3 (``api_only``), or all of them."""
    return {(method, openapi_path(rule.rule)) for rule in web.app.url_map.iter_rules()
            if (rule.rule.startswith("/api/v3") or not api_only) and rule.rule != "/api/v3/"
            for method in (rule.methods or set()) - {"HEAD", "OPTIONS"}}


def operations(doc: dict[str, Any]) -> Iterator[tuple[str, str, dict[str, Any]]]:
    for path, item in doc["paths"].items():
        for method, operation in item.items():
            if method in METHODS:
                yield method.upper(), path, operation


def test_every_registered_route_is_described_and_every_described_route_registered(
        web: Any) -> None:
    described = {(method, path) for method, path, _ in operations(served(web))}
    assert registered(web) <= described  # every /api/v3 route
    assert described <= registered(web, api_only=False)  # a route outside, such as /metrics
    assert len(described) > 100


def test_the_description_is_valid_openapi_3_1(web: Any) -> None:
    doc = served(web)
    assert doc["openapi"] == "3.1.0"
    validate(doc, cls=OpenAPIV31SpecValidator)


# "Errors: as the PATCH route." or "Errors: as `POST /api/v3/...`, and ...": that
# route's codes, plus any named after.
AS_ROUTE = re.compile(r"^Errors: as (?:the (\w+) route|`(\w+) (/api/v3[^`]*)`)")


def api_md_errors() -> dict[tuple[str, str], set[str]]:
    text = open(API_DOCS, encoding="utf-8").read()
    table = text[text.index("### Error codes"):text.index("### Config saves")]
    known = set(re.findall(r"`([A-Z][A-Z_]+)`", table))
    found = list(HEADING.finditer(text))
    errors, inherits = {}, {}
    for index, match in enumerate(found):
        end = found[index + 1].start() if index + 1 < len(found) else len(text)
        section = text[match.end():end]
        start = section.find("Errors:")  # the streams outside /api/v3 have no such line
        paragraph = section[start:].split("\n\n")[0] if start >= 0 else ""
        key = (match.group(1), openapi_path(match.group(2)))
        errors[key] = set(re.findall(r"`([A-Z][A-Z_]+)`", paragraph)) & known
        same = AS_ROUTE.match(paragraph)
        if same:
            inherits[key] = ((same.group(1), key[1]) if same.group(1)
                             else (same.group(2), openapi_path(same.group(3))))
    for key, source in inherits.items():
        errors[key] |= errors[source]
    return errors


def test_api_md_names_the_same_routes_and_error_codes_as_the_description(web: Any) -> None:
    described = {(method, path): set(operation["x-error-codes"])
                 for method, path, operation in operations(served(web))}
    documented = api_md_errors()
    assert set(described) <= set(documented)
    assert {key for key in documented if key[1].startswith("/api/v3")} <= set(described)
    differ = {key: (documented[key], described[key]) for key in described
              if documented[key] != described[key]}
    assert not differ, f"docs/API.md vs the description: {differ}"


def test_each_error_code_of_a_route_is_in_its_error_answers(web: Any) -> None:
    for method, path, operation in operations(served(web)):
        for status, answer in operation["responses"].items():
            if status.startswith(("4", "5")) or status == "default":
                schema = answer["content"]["application/json"]["schema"]
                codes = set(schema["properties"]["error_code"]["enum"])
                assert set(operation["x-error-codes"]) <= codes, (method, path, status)
                assert {"INVALID_JSON", "HOST_NOT_ALLOWED", "INTERNAL_ERROR"} <= codes


def examples(doc: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any], Any]]:
    for method, path, operation in operations(doc):
        media = [m for answer in operation["responses"].values()
                 for m in answer.get("content", {}).values()]
        media += list(operation.get("requestBody", {}).get("content", {}).values())
        for item in media:
            if "example" in item:
                yield f"{method} {path}", item["schema"], item["example"]


def test_every_example_validates_against_its_schema(web: Any) -> None:
    found = list(examples(served(web)))
    assert len(found) > 100
    for where, schema, example in found:
        errors = list(jsonschema.Draft202012Validator(schema).iter_errors(example))
        assert not errors, (where, [e.message for e in errors])


def test_the_description_is_built_once_and_served_as_a_plain_document(
        web: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    builds = []
    real = document.build
    monkeypatch.setattr(document, "build", lambda app: builds.append(1) or real(app))
    first, second = served(web), served(web)
    assert first == second and len(builds) == 1
    assert "status" not in first and first["info"]["title"]
    assert "/api/v3/openapi.json" in first["paths"]


def test_errors_of_the_description_route_are_the_envelope(web: Any) -> None:
    answer = web.client.post("/api/v3/openapi.json", json={})
    assert answer.status_code == 405
    assert answer.get_json()["error_code"] == "METHOD_NOT_ALLOWED"


def answer_schema(doc: dict[str, Any], method: str, path: str, status: int) -> Any:
    responses = doc["paths"][path][method.lower()]["responses"]
    answer = responses.get(str(status), responses["default"])
    return answer["content"]["application/json"]["schema"]


@pytest.mark.parametrize(("method", "path", "body", "status"), [
    ("GET", "/api/v3/health", None, 200),
    ("GET", "/api/v3/auth/status", None, 200),
    ("POST", "/api/v3/auth/sign-in", {}, 400),
    ("POST", "/api/v3/config/main", [1], 400),
    ("GET", "/api/v3/no-such-route", None, 404),
])
def test_real_answers_match_their_described_schema(web: Any, method: str, path: str,
                                                   body: Any, status: int) -> None:
    doc = served(web)
    answer = web.client.open(path, method=method, json=body)
    assert answer.status_code == status
    described = path if path in doc["paths"] else "/api/v3/health"
    jsonschema.validate(answer.get_json(), answer_schema(doc, method, described, status))


def test_sign_in_is_described_and_the_open_routes_need_none(web: Any) -> None:
    doc = served(web)
    assert set(doc["components"]["securitySchemes"]) == {"apiToken", "session"}
    for method, path, operation in operations(doc):
        open_route = path in {"/api/v3/health", "/api/v3/auth/status", "/api/v3/auth/sign-in",
                              "/api/v3/auth/sign-out"}
        assert (operation["security"] == [{}]) == open_route, (method, path)
        assert {} in operation["security"], (method, path)  # sign-in is off by default


def test_a_rate_limited_answer_says_when_to_try_again(web: Any) -> None:
    answer = served(web)["paths"]["/api/v3/auth/sign-in"]["post"]["responses"]["429"]
    assert answer["headers"]["Retry-After"]["schema"]["type"] == "integer"


def _limited_routes_of_the_app(web: Any) -> dict[tuple[str, str], str]:
    return {(method, openapi_path(rule.rule)): ENDPOINT_GROUPS[rule.endpoint]
            for rule in web.app.url_map.iter_rules() if rule.endpoint in ENDPOINT_GROUPS
            for method in (rule.methods or set()) - {"HEAD", "OPTIONS"}}


def test_exactly_the_rate_limited_routes_are_described_with_429_rate_limited(web: Any) -> None:
    limited = {key: group for key, group in _limited_routes_of_the_app(web).items()
               if key[1].startswith("/api/v3/")}
    described = {}
    for method, path, operation in operations(served(web)):
        if "x-rate-limit-group" not in operation:
            continue
        described[(method, path)] = operation["x-rate-limit-group"]
        answer = operation["responses"]["429"]
        assert "RATE_LIMITED" in answer["description"], (method, path)
        assert "Retry-After" in answer["headers"], (method, path)
        jsonschema.validate({"status": "error", "data": None, "message": "wait",
                             "error_code": "RATE_LIMITED"},
                            answer["content"]["application/json"]["schema"])
    assert described == limited
    assert set(limited.values()) == set(ENDPOINT_GROUPS.values())


def test_api_md_rate_limits_table_names_the_limited_routes_by_group(web: Any) -> None:
    text = open(API_DOCS, encoding="utf-8").read()
    section = text[text.index("## Rate limits"):]
    section = section[:section.index("\n## ", 3)]
    listed = {}
    for group, routes in re.findall(r"^\| `(\w+)` \| \d+ \| (.*) \|$", section, re.MULTILINE):
        for method, path in re.findall(r"`(GET|POST|PUT|DELETE) (/[^`?]+)(?:\?[^`]*)?`", routes):
            full = path if path.startswith("/v3/") else "/api/v3" + path
            listed[(method, openapi_path(full))] = group
    assert listed == _limited_routes_of_the_app(web)


def test_api_md_lists_the_codes_every_route_may_answer() -> None:
    text = open(API_DOCS, encoding="utf-8").read()
    start = text.index("the codes every route may answer (")
    listed = re.findall(r"`([A-Z][A-Z_]+)`", text[start:text.index(")", start)])
    assert sorted(listed) == sorted(COMMON_CODES)
