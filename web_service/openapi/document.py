"""The OpenAPI 3.1 document of /api/v3, built from the route tables and the app's own
route table (summaries are the views' first docstring lines), once per app."""

from __future__ import annotations

import re
from typing import Any

from flask import Flask

from shared.version import CORE_VERSION
from web_service.access.sign_in import OPEN_PATHS
from web_service.openapi.answers import responses
from web_service.openapi.route_doc import RouteDoc
from web_service.openapi.schemas import INTEGER, STRING, Schema
from web_service.openapi.table import all_routes

EXTENSION_KEY = "ledpanel_openapi"
_PARAM = re.compile(r"<(?:(\w+)(?:\([^)]*\))?:)?(\w+)>")
_CONVERTED: dict[str, Schema] = {"int": INTEGER, "float": {"type": "number"}}
INFO = {
    "title": "ledpanel REST API",
    "version": CORE_VERSION,
    "description": ("The REST API of the LED panel's web service. Every answer is the "
                    "JSON envelope {status, data, message, error_code}; docs/API.md is "
                    "the readable guide. This document itself is plain JSON."),
}


# Sign-in is optional (off by default): a request needs nothing while it is off, a
# session cookie or an API token while it is on; the open routes never need one.
SECURITY_SCHEMES = {
    "apiToken": {"type": "http", "scheme": "bearer",
                 "description": "an API token (POST /api/v3/auth/tokens); its scope limits it"},
    "session": {"type": "apiKey", "in": "cookie", "name": "ledpanel_session",
                "description": "a browser session (POST /api/v3/auth/sign-in)"},
}
SIGNED_IN: list[dict[str, list[str]]] = [{}, {"apiToken": []}, {"session": []}]
_NOT_ID = re.compile(r"[^A-Za-z0-9]+")


def openapi_path(rule: str) -> str:
    """A Werkzeug rule as an OpenAPI path: ``<path:id>`` becomes ``{id}``."""
    return _PARAM.sub(lambda m: "{" + m.group(2) + "}", rule)


def _path_parameters(rule: str) -> list[dict[str, Any]]:
    params = []
    for converter, name in _PARAM.findall(rule):
        schema = dict(_CONVERTED.get(converter, STRING))
        note = " (may hold slashes)" if converter == "path" else ""
        params.append({"name": name, "in": "path", "required": True, "schema": schema,
                       "description": f"the {name.replace('_', ' ')}{note}"})
    return params


def _request_body(route: RouteDoc) -> dict[str, Any] | None:
    content: dict[str, Any] = {}
    if route.body is not None:
        content["application/json"] = {"schema": route.body}
        if route.body_example is not None:
            content["application/json"]["example"] = route.body_example
    if route.form is not None:
        content["multipart/form-data"] = {"schema": route.form}
    if not content:
        return None
    return {"required": route.body_required, "content": content}


def _operation(method: str, rule: str, route: RouteDoc,
               summaries: dict[tuple[str, str], str]) -> dict[str, Any]:
    operation: dict[str, Any] = {
        "operationId": _NOT_ID.sub("_", f"{method.lower()}{rule[len('/api/v3'):]}").strip("_"),
        "summary": summaries.get((method, rule), ""),
        "tags": [rule.split("/")[3] if rule.count("/") > 2 else "index"],
        "responses": responses(route),
        "x-error-codes": sorted(route.codes()),  # the route's own, as docs/API.md names them
        "security": [{}] if rule in OPEN_PATHS else SIGNED_IN,
    }
    parameters = _path_parameters(rule) + [
        {"name": p.name, "in": "query", "required": p.required, "schema": p.schema,
         "description": p.description} for p in route.query]
    if parameters:
        operation["parameters"] = parameters
    body = _request_body(route)
    if body is not None:
        operation["requestBody"] = body
    return operation


def summaries_of(app: Flask) -> dict[tuple[str, str], str]:
    """Each registered (method, rule)'s summary: its view's first docstring line."""
    found = {}
    for rule in app.url_map.iter_rules():
        doc = (app.view_functions[rule.endpoint].__doc__ or "").strip().splitlines()
        for method in (rule.methods or set()) - {"HEAD", "OPTIONS"}:
            found[(method, rule.rule)] = doc[0] if doc else ""
    return found


def build(app: Flask) -> dict[str, Any]:
    """The whole description (not cached: see ``description``)."""
    summaries = summaries_of(app)
    paths: dict[str, dict[str, Any]] = {}
    for (method, rule), route in all_routes().items():
        paths.setdefault(openapi_path(rule), {})[method.lower()] = _operation(
            method, rule, route, summaries)
    return {"openapi": "3.1.0", "info": INFO, "servers": [{"url": "/"}],
            "paths": dict(sorted(paths.items())),
            "components": {"securitySchemes": SECURITY_SCHEMES}}


def description(app: Flask) -> dict[str, Any]:
    """The description of ``app``'s API, built on first use and kept with the app."""
    cached = app.extensions.get(EXTENSION_KEY)
    if cached is None:
        cached = app.extensions[EXTENSION_KEY] = build(app)
    return dict(cached)
