"""The OpenAPI 3.1 document of /api/v3, built from the route tables and the app's own
route table (summaries are the views' first docstring lines), once per app."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from flask import Flask

from shared.version import CORE_VERSION
from web_service.access.sign_in import OPEN_PATHS
from web_service.openapi.answers import responses
from web_service.openapi.route_doc import RouteDoc
from web_service.openapi.schemas import INTEGER, STRING, Schema
from web_service.openapi.table import all_routes
from web_service.rate_limit.groups import ENDPOINT_GROUPS

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
API = "/api/v3"


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


def _tag(rule: str) -> str:
    """The resource a route belongs to: ``/api/v3/plugins/...`` is ``plugins``."""
    parts = rule.removeprefix(API).split("/")
    return parts[1] if len(parts) > 1 and parts[1] else "index"


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


def _operation(method: str, rule: str, route: RouteDoc, app_routes: AppRoutes) -> dict[str, Any]:
    group = app_routes.groups.get((method, rule))
    operation: dict[str, Any] = {
        "operationId": _NOT_ID.sub("_", f"{method.lower()}{rule.removeprefix(API)}").strip("_"),
        "summary": app_routes.summaries.get((method, rule), ""),
        "tags": [_tag(rule)],
        "responses": responses(route, limited=group is not None),
        "x-error-codes": sorted(route.codes()),  # the route's own, as docs/API.md names them
        "security": [{}] if rule in OPEN_PATHS else SIGNED_IN,
    }
    if group is not None:  # docs/API.md, "Rate limits"
        operation["x-rate-limit-group"] = group
    parameters = _path_parameters(rule) + [
        {"name": p.name, "in": "query", "required": p.required, "schema": p.schema,
         "description": p.description} for p in route.query]
    if parameters:
        operation["parameters"] = parameters
    body = _request_body(route)
    if body is not None:
        operation["requestBody"] = body
    return operation


@dataclass(frozen=True)
class AppRoutes:
    """What the app's own route table says of each registered (method, rule): its
    summary (the view's first docstring line) and its rate-limit group, if any."""

    summaries: dict[tuple[str, str], str]
    groups: dict[tuple[str, str], str]

    @classmethod
    def of(cls, app: Flask) -> AppRoutes:
        summaries, groups = {}, {}
        for rule in app.url_map.iter_rules():
            doc = (app.view_functions[rule.endpoint].__doc__ or "").strip().splitlines()
            for method in (rule.methods or set()) - {"HEAD", "OPTIONS"}:
                summaries[(method, rule.rule)] = doc[0] if doc else ""
                if rule.endpoint in ENDPOINT_GROUPS:
                    groups[(method, rule.rule)] = ENDPOINT_GROUPS[rule.endpoint]
        return cls(summaries, groups)


def build(app: Flask) -> dict[str, Any]:
    """The whole description (not cached: see ``description``)."""
    app_routes = AppRoutes.of(app)
    paths: dict[str, dict[str, Any]] = {}
    for (method, rule), route in all_routes().items():
        paths.setdefault(openapi_path(rule), {})[method.lower()] = _operation(
            method, rule, route, app_routes)
    return {"openapi": "3.1.0", "info": INFO, "servers": [{"url": "/"}],
            "paths": dict(sorted(paths.items())),
            "components": {"securitySchemes": SECURITY_SCHEMES}}


def _cached(app: Flask) -> tuple[dict[str, Any], bytes]:
    cached = app.extensions.get(EXTENSION_KEY)
    if cached is None:
        document = build(app)
        cached = app.extensions[EXTENSION_KEY] = (document, json.dumps(document).encode())
    return cached


def description(app: Flask) -> dict[str, Any]:
    """The description of ``app``'s API, built on first use and kept with the app."""
    return dict(_cached(app)[0])


def description_json(app: Flask) -> bytes:
    """The description as the JSON text served, made once."""
    return _cached(app)[1]
