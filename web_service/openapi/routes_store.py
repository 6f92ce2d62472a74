"""The store routes of /api/v3: what each takes and answers (docs/API.md has the prose)."""

from __future__ import annotations

from web_service.openapi.route_doc import Param, RouteDoc
from web_service.openapi.schemas import (
    ANY_OBJECT,
    BINARY,
    BOOLEAN,
    INTEGER,
    STRING,
    array,
    enum,
    nullable,
    obj,
)

ROUTES: dict[tuple[str, str], RouteDoc] = {
    ("POST", "/api/v3/plugins/install"): RouteDoc(
        errors={
            400: (
                "MISSING_PLUGIN_ID",
                "INVALID_PLUGIN_ID",
                "INVALID_FIELD",
            ),
            409: ("JOB_RUNNING",),
            503: ("REGISTRY_UNAVAILABLE",),
        },
        body=ANY_OBJECT,
        success=(200, 202),
    ),
    ("POST", "/api/v3/plugins/install/upload"): RouteDoc(
        errors={
            400: (
                "NO_FILES",
                "INVALID_FIELD",
                "NOT_A_ZIP",
            ),
            409: ("JOB_RUNNING",),
            413: ("PAYLOAD_TOO_LARGE",),
            422: (
                "UNSAFE_ARCHIVE",
                "TOO_LARGE",
                "BAD_PLUGIN",
            ),
        },
        form=obj({"plugin_zip": BINARY}),
        success=(200, 202),
    ),
    ("POST", "/api/v3/plugins/update"): RouteDoc(
        errors={
            400: (
                "MISSING_PLUGIN_ID",
                "INVALID_PLUGIN_ID",
                "INVALID_FIELD",
            ),
            404: ("NOT_INSTALLED",),
            409: ("JOB_RUNNING",),
        },
        body=ANY_OBJECT,
        success=(200, 202),
    ),
    ("POST", "/api/v3/plugins/uninstall"): RouteDoc(
        errors={
            400: (
                "MISSING_PLUGIN_ID",
                "INVALID_PLUGIN_ID",
                "INVALID_FIELD",
            ),
            404: ("NOT_INSTALLED",),
            409: (
                "BUSY",
                "LOCAL_CHECKOUT",
                "JOB_RUNNING",
            ),
        },
        body=ANY_OBJECT,
        success=(200, 202),
    ),
    ("GET", "/api/v3/plugins/store/jobs"): RouteDoc(
        data=obj({"jobs": array(ANY_OBJECT)}, required=("jobs",)),
        errors={
            400: (
                "INVALID_FIELD",
                "INVALID_PLUGIN_ID",
            )
        },
        query=(
            Param("plugin_id", STRING),
            Param("limit", INTEGER),
        ),
    ),
    ("GET", "/api/v3/plugins/store/jobs/<job_id>"): RouteDoc(errors={404: ("JOB_NOT_FOUND",)}),
    ("GET", "/api/v3/plugins/store/auto-update"): RouteDoc(
        data=obj(
            {
                "enabled": BOOLEAN,
                "day": STRING,
                "time": STRING,
                "timezone": STRING,
                "problem": nullable(STRING),
            },
            required=("enabled", "day", "time"),
        )
    ),
    ("GET", "/api/v3/plugins/store/list"): RouteDoc(
        errors={
            400: ("INVALID_FIELD",),
            409: ("CONFIG_INVALID_JSON",),
            503: ("REGISTRY_UNAVAILABLE",),
        },
        query=(
            Param("query", STRING),
            Param("category", STRING),
            Param("refresh", enum("0", "1")),
        ),
    ),
    ("GET", "/api/v3/plugins/store/github-status"): RouteDoc(
        data=obj(
            {"reachable": BOOLEAN, "api_url": STRING, "token_configured": BOOLEAN},
            required=("reachable", "api_url", "token_configured"),
        ),
        errors={409: ("CONFIG_INVALID_JSON",)},
    ),
    ("GET", "/api/v3/plugins/store/sources"): RouteDoc(
        data=obj(
            {
                "sources": array(
                    obj(
                        {"kind": STRING, "url": STRING, "origin": STRING, "removable": BOOLEAN},
                        required=("url", "removable"),
                    )
                ),
                "repository_api_url": STRING,
            },
            required=("sources",),
        ),
        errors={409: ("CONFIG_INVALID_JSON",)},
    ),
    ("POST", "/api/v3/plugins/store/sources"): RouteDoc(
        errors={
            400: (
                "INVALID_FIELD",
                "INVALID_JSON",
            ),
            409: (
                "SOURCE_EXISTS",
                "TOO_MANY_SOURCES",
                "CONFIG_INVALID_JSON",
            ),
            503: ("CONFIG_LOCKED",),
        },
        body=ANY_OBJECT,
    ),
    ("DELETE", "/api/v3/plugins/store/sources"): RouteDoc(
        errors={
            400: (
                "INVALID_FIELD",
                "SOURCE_NOT_REMOVABLE",
                "INVALID_JSON",
            ),
            404: ("UNKNOWN_SOURCE",),
            409: ("CONFIG_INVALID_JSON",),
            503: ("CONFIG_LOCKED",),
        }
    ),
}
