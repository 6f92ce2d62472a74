"""The system routes of /api/v3: what each takes and answers (docs/API.md has the prose)."""

from __future__ import annotations

from web_service.openapi.route_doc import RouteDoc
from web_service.openapi.schemas import ANY_OBJECT, obj

ROUTES: dict[tuple[str, str], RouteDoc] = {
    ("GET", "/api/v3/openapi.json"): RouteDoc(
        produces="application/json",
        data=obj({"openapi": {"const": "3.1.0"}, "info": ANY_OBJECT, "paths": ANY_OBJECT},
                 required=("openapi", "info", "paths")),
    ),
    ("GET", "/api/v3"): RouteDoc(),
    ("GET", "/api/v3/health"): RouteDoc(),
    ("GET", "/api/v3/system/status"): RouteDoc(),
    ("POST", "/api/v3/system/action"): RouteDoc(
        errors={
            400: ("UNKNOWN_ACTION",),
            409: (
                "NOT_ON_DEV_RUN",
                "NO_SUPERVISOR",
            ),
            501: ("NOT_IMPLEMENTED",),
            502: ("ACTION_FAILED",),
            504: ("SUPERVISOR_SILENT",),
        },
        body=ANY_OBJECT,
        success=(200, 202),
    ),
    ("GET", "/api/v3/system/version"): RouteDoc(),
    ("GET", "/api/v3/system/git-info"): RouteDoc(errors={502: ("GIT_ERROR",)}),
    ("GET", "/api/v3/system/check-update"): RouteDoc(
        errors={
            409: (
                "NOT_A_CHECKOUT",
                "NO_UPSTREAM",
            ),
            502: ("GIT_ERROR",),
        }
    ),
    ("GET", "/api/v3/system/update"): RouteDoc(),
    ("POST", "/api/v3/system/update"): RouteDoc(
        errors={
            400: ("INVALID_FIELD",),
            409: (
                "UPDATE_RUNNING",
                "NOT_A_CHECKOUT",
            ),
            503: ("UPDATE_NOT_STARTED",),
        },
        body=ANY_OBJECT,
        success=(200, 202),
    ),
}
