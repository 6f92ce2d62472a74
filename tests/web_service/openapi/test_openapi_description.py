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
from web_service.openapi.document import openapi_path

API_DOCS = document.__file__.rsplit("/web_service/", 1)[0] + "/docs/API.md"
HEADING = re.compile(r"^### `(GET|POST|PUT|PATCH|DELETE) (/api/v3[^`?]*)(?:\?[^`]*)?`$",
                     re.MULTILINE)
METHODS = {"get", "post", "put", "patch", "delete"}


def served(web: Any) -> dict[str, Any]:
    answer = web.client.get("/api/v3/openapi.json")
    assert answer.status_code == 200
    assert answer.mimetype == "application/json"
    body: dict[str, Any] = answer.get_json()
    return body


def registered(web: Any) -> set[tuple[str, str]]:
    return {(method, openapi_path(rule.rule)) for rule in web.app.url_map.iter_rules()
            if rule.rule.startswith("/api/v3") and rule.rule != "/api/v3/"
            for method in (rule.methods or set()) - {"HEAD", "OPTIONS"}}


def operations(doc: dict[str, Any]) -> Iterator[tuple[str, str, dict[str, Any]]]:
    for path, item in doc["paths"].items():
        for method, operation in item.items():
            if method in METHODS:
                yield method.upper(), path, operation


def test_every_registered_route_is_described_and_every_described_route_registered(
        web: Any) -> None:
    described = {(method, path) for method, path, _ in operations(served(web))}
    assert described == registered(web)
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
        paragraph = section[section.index("Errors:"):].split("\n\n")[0]
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
    assert set(documented) == set(described)
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
