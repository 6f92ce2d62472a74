"""The system routes of /api/v3: what each takes and answers (docs/API.md has the prose)."""

from __future__ import annotations

from web_service.openapi.route_doc import RouteDoc
from web_service.openapi.schemas import (
    ANY_OBJECT,
    BOOLEAN,
    STRING,
    array,
    enum,
    nullable,
    obj,
)

ROUTES: dict[tuple[str, str], RouteDoc] = {
    ("GET", "/api/v3/openapi.json"): RouteDoc(
        produces="application/json",
        data=obj(
            {"openapi": {"const": "3.1.0"}, "info": ANY_OBJECT, "paths": ANY_OBJECT},
            required=("openapi", "info", "paths"),
        ),
    ),
    ("GET", "/api/v3"): RouteDoc(
        data=obj(
            {
                "version": STRING,
                "routes": array(
                    obj(
                        {"method": STRING, "path": STRING, "summary": STRING},
                        required=("method", "path", "summary"),
                    )
                ),
                "documentation": STRING,
            },
            required=("version", "routes"),
        )
    ),
    ("GET", "/api/v3/health"): RouteDoc(
        data=obj({"status": {"const": "ok"}, "version": STRING}, required=("status", "version")),
        example={"status": "ok", "version": "3.8.0"},
    ),
    ("GET", "/api/v3/system/status"): RouteDoc(
        data=obj({"version": STRING, "display": ANY_OBJECT}, required=("version", "display"))
    ),
    ("POST", "/api/v3/system/action"): RouteDoc(
        body_example={"action": "restart_display_service"},
        body=obj({"action": STRING}, required=("action",)),
        body_required=True,
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
        success=(200, 202),
    ),
    ("GET", "/api/v3/system/version"): RouteDoc(
        data=obj(
            {"version": STRING, "commit": nullable(STRING), "supervisor": nullable(STRING)},
            required=("version",),
        ),
        example={"version": "3.8.0", "commit": "34a0ef4", "supervisor": "systemd"},
    ),
    ("GET", "/api/v3/system/git-info"): RouteDoc(
        data=obj({"is_checkout": BOOLEAN}, required=("is_checkout",)), errors={502: ("GIT_ERROR",)}
    ),
    ("GET", "/api/v3/system/check-update"): RouteDoc(
        errors={
            409: (
                "NOT_A_CHECKOUT",
                "NO_UPSTREAM",
            ),
            502: ("GIT_ERROR",),
        }
    ),
    ("GET", "/api/v3/system/update"): RouteDoc(
        data=obj({"running": BOOLEAN, "lost": BOOLEAN}, required=("running",))
    ),
    ("POST", "/api/v3/system/update"): RouteDoc(
        body=obj({"stash": BOOLEAN, "trigger": enum("button", "cli")}),
        errors={
            400: ("INVALID_FIELD",),
            409: (
                "UPDATE_RUNNING",
                "NOT_A_CHECKOUT",
            ),
            503: ("UPDATE_NOT_STARTED",),
        },
        success=(200, 202),
    ),
}
