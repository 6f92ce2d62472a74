"""The store routes of /api/v3: what each takes and answers (docs/API.md has the prose)."""

from __future__ import annotations

from web_service.openapi.route_doc import Param, RouteDoc
from web_service.openapi.schemas import (
    ANY_OBJECT,
    ANYTHING,
    BINARY,
    BOOLEAN,
    NUMBER,
    STRING,
    array,
    enum,
    nullable,
    obj,
    text,
)
from web_service.store.jobs_file import KINDS, STATES

# The store's sources, as listed and as a change of them answers.
SOURCES = obj(
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
)

# A plugin store job (install, update, uninstall), as listed and followed.
JOB = obj(
    {
        "id": STRING,
        "kind": enum(*KINDS),
        "plugin_id": nullable(STRING),
        "state": enum(*STATES),
        "description": STRING,
        "step": STRING,
        "progress": ANYTHING,
        "message": STRING,
        "result": nullable(ANY_OBJECT),
        "error_code": nullable(STRING),
        "created_at": NUMBER,
        "started_at": nullable(NUMBER),
        "finished_at": nullable(NUMBER),
    },
    required=("id", "kind", "plugin_id", "state"),
)
# A job started (202), or finished when the request asked to wait (200: its result too).
STARTED = obj({"job_id": STRING, "job": JOB}, required=("job_id", "job"))

# A job asked to ``wait`` answers with its failure: the store's errors (docs/API.md, "Store
# errors of these routes").
JOB_ERRORS: dict[int, tuple[str, ...]] = {
    400: ("BAD_REPO_URL", "HOST_REFUSED"), 404: ("PLUGIN_NOT_FOUND", "NOT_INSTALLED"),
    409: ("BUSY", "LOCAL_CHECKOUT"),
    422: ("BAD_PLUGIN", "INCOMPATIBLE", "TOO_LARGE", "UNSAFE_ARCHIVE", "UNSAFE_REQUIREMENTS"),
    500: ("DEPENDENCIES_FAILED",), 502: ("DOWNLOAD_FAILED",), 503: ("RATE_LIMITED",),
}


def with_job_errors(errors: dict[int, tuple[str, ...]]) -> dict[int, tuple[str, ...]]:
    """A waiting job route's own ``errors`` and the store's."""
    return {status: tuple(dict.fromkeys((*errors.get(status, ()), *JOB_ERRORS.get(status, ()))))
            for status in sorted({*errors, *JOB_ERRORS})}

ROUTES: dict[tuple[str, str], RouteDoc] = {
    ("POST", "/api/v3/plugins/install"): RouteDoc(
        data=STARTED,
        body_example={"plugin_id": "clock"},
        body=obj(
            {
                "plugin_id": STRING,
                "repo_url": STRING,
                "branch": STRING,
                "plugin_path": STRING,
                "wait": BOOLEAN,
            }
        ),
        body_required=True,
        errors=with_job_errors({
            400: ("MISSING_PLUGIN_ID", "INVALID_PLUGIN_ID", "INVALID_FIELD"),
            409: ("JOB_RUNNING",),
            503: ("REGISTRY_UNAVAILABLE",),
        }),
        success=(200, 202),
    ),
    ("POST", "/api/v3/plugins/install/upload"): RouteDoc(
        data=STARTED,
        form=obj({"plugin_zip": BINARY, "wait": STRING}, required=("plugin_zip",)),
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
        success=(200, 202),
    ),
    ("POST", "/api/v3/plugins/update"): RouteDoc(
        data=STARTED,
        body=obj({"plugin_id": STRING, "wait": BOOLEAN}, required=("plugin_id",)),
        body_required=True,
        errors=with_job_errors({
            400: ("MISSING_PLUGIN_ID", "INVALID_PLUGIN_ID", "INVALID_FIELD"),
            404: ("NOT_INSTALLED",),
            409: ("JOB_RUNNING",),
        }),
        success=(200, 202),
    ),
    ("POST", "/api/v3/plugins/uninstall"): RouteDoc(
        data=STARTED,
        body=obj(
            {"plugin_id": STRING, "remove_config": BOOLEAN, "wait": BOOLEAN},
            required=("plugin_id",),
        ),
        body_required=True,
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
        success=(200, 202),
    ),
    ("GET", "/api/v3/plugins/store/jobs"): RouteDoc(
        data=obj({"jobs": array(JOB)}, required=("jobs",)),
        query=(
            Param("plugin_id", STRING),
            Param(
                "limit",
                {"type": "integer", "minimum": 1, "maximum": 200},
                "1 to 200, 20 by default",
            ),
        ),
        errors={
            400: (
                "INVALID_FIELD",
                "INVALID_PLUGIN_ID",
            )
        },
    ),
    ("GET", "/api/v3/plugins/store/jobs/<job_id>"): RouteDoc(
        data=JOB, errors={404: ("JOB_NOT_FOUND",)}
    ),
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
        data=obj(
            {"plugins": array(ANY_OBJECT), "categories": array(STRING), "stale": BOOLEAN},
            required=("plugins",),
        ),
        query=(
            Param("query", text(0, 200), "words that must all occur"),
            Param("category", STRING),
            Param("refresh", enum("0", "1")),
        ),
        errors={
            400: ("INVALID_FIELD",),
            409: ("CONFIG_INVALID_JSON",),
            503: ("REGISTRY_UNAVAILABLE",),
        },
    ),
    ("GET", "/api/v3/plugins/store/github-status"): RouteDoc(
        data=obj(
            {"reachable": BOOLEAN, "api_url": STRING, "token_configured": BOOLEAN},
            required=("reachable", "api_url", "token_configured"),
        ),
        errors={409: ("CONFIG_INVALID_JSON",)},
    ),
    ("GET", "/api/v3/plugins/store/sources"): RouteDoc(
        data=SOURCES,
        errors={409: ("CONFIG_INVALID_JSON",)},
    ),
    ("POST", "/api/v3/plugins/store/sources"): RouteDoc(
        body=obj(
            {"kind": enum("registry", "repository"), "url": text(1, 500)}, required=("kind", "url")
        ),
        body_required=True,
        data=SOURCES,
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
    ),
    ("DELETE", "/api/v3/plugins/store/sources"): RouteDoc(
        body=obj({"url": STRING}, required=("url",)),
        body_required=True,
        data=SOURCES,
        errors={
            400: (
                "INVALID_FIELD",
                "SOURCE_NOT_REMOVABLE",
                "INVALID_JSON",
            ),
            404: ("UNKNOWN_SOURCE",),
            409: ("CONFIG_INVALID_JSON",),
            503: ("CONFIG_LOCKED",),
        },
    ),
}
