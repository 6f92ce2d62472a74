"""The plugins routes of /api/v3: what each takes and answers (docs/API.md has the prose)."""

from __future__ import annotations

from web_service.openapi.route_doc import Param, RouteDoc
from web_service.openapi.schemas import (
    ANY_OBJECT,
    ANYTHING,
    BINARY,
    BOOLEAN,
    INTEGER,
    STRING,
    array,
    obj,
)

ROUTES: dict[tuple[str, str], RouteDoc] = {
    ("GET", "/api/v3/errors/summary"): RouteDoc(
        data=obj(
            {
                "service": STRING,
                "total_failures": INTEGER,
                "plugins_failing": INTEGER,
                "resting": array(ANYTHING),
                "plugins": ANY_OBJECT,
            },
            required=("service", "total_failures", "plugins_failing", "plugins"),
        )
    ),
    ("GET", "/api/v3/errors/plugin/<path:plugin_id>"): RouteDoc(
        data=obj(
            {"plugin_id": STRING, "service": STRING, "count": INTEGER, "breaker": ANY_OBJECT},
            required=("plugin_id", "count"),
        ),
        errors={400: ("INVALID_PLUGIN_ID",)},
    ),
    ("POST", "/api/v3/errors/clear"): RouteDoc(
        errors={
            400: (
                "MISSING_PLUGIN_ID",
                "INVALID_PLUGIN_ID",
                "INVALID_JSON",
            )
        },
        body=ANY_OBJECT,
        success=(200, 202),
    ),
    ("GET", "/api/v3/plugins/installed"): RouteDoc(
        data=array(
            obj(
                {
                    "id": STRING,
                    "name": STRING,
                    "version": STRING,
                    "enabled": BOOLEAN,
                    "display_modes": array(STRING),
                },
                required=("id", "enabled"),
            )
        ),
        errors={409: ("CONFIG_INVALID_JSON",)},
    ),
    ("POST", "/api/v3/plugins/toggle"): RouteDoc(
        body=obj({"plugin_id": STRING, "enabled": BOOLEAN}, required=("plugin_id",)),
        body_required=True,
        errors={
            400: (
                "MISSING_PLUGIN_ID",
                "INVALID_PLUGIN_ID",
                "UNKNOWN_PLUGIN",
                "INVALID_FIELD",
                "INVALID_JSON",
            ),
            409: ("CONFIG_INVALID_JSON",),
            503: ("CONFIG_LOCKED",),
        },
    ),
    ("GET", "/api/v3/plugins/config"): RouteDoc(
        errors={
            400: (
                "MISSING_PLUGIN_ID",
                "INVALID_PLUGIN_ID",
            ),
            404: ("UNKNOWN_PLUGIN",),
            409: ("CONFIG_INVALID_JSON",),
            422: ("INVALID_PLUGIN_SCHEMA",),
        },
        query=(Param("plugin_id", STRING),),
    ),
    ("POST", "/api/v3/plugins/config"): RouteDoc(
        errors={
            400: (
                "MISSING_PLUGIN_ID",
                "INVALID_PLUGIN_ID",
                "UNKNOWN_PLUGIN",
                "INVALID_PLUGIN_CONFIG",
                "INVALID_FIELD",
                "INVALID_JSON",
            ),
            409: ("CONFIG_INVALID_JSON",),
            422: ("INVALID_PLUGIN_SCHEMA",),
            503: ("CONFIG_LOCKED",),
        },
        body=ANY_OBJECT,
    ),
    ("GET", "/api/v3/plugins/schema"): RouteDoc(
        errors={
            400: (
                "MISSING_PLUGIN_ID",
                "INVALID_PLUGIN_ID",
            ),
            404: ("UNKNOWN_PLUGIN",),
            422: ("INVALID_PLUGIN_SCHEMA",),
        },
        query=(Param("plugin_id", STRING),),
    ),
    ("GET", "/api/v3/plugins/safe-mode"): RouteDoc(data=array(ANY_OBJECT)),
    ("POST", "/api/v3/plugins/safe-mode/release"): RouteDoc(
        errors={
            400: (
                "MISSING_PLUGIN_ID",
                "INVALID_PLUGIN_ID",
            ),
            404: ("NOT_IN_SAFE_MODE",),
        },
        body=ANY_OBJECT,
        success=(200, 202),
    ),
    ("POST", "/api/v3/plugins/action"): RouteDoc(
        errors={
            400: (
                "MISSING_PLUGIN_ID",
                "INVALID_PLUGIN_ID",
                "UNKNOWN_PLUGIN",
                "UNKNOWN_ACTION",
                "INVALID_PATH",
                "INVALID_FIELD",
                "INVALID_JSON",
            ),
            422: ("INVALID_MANIFEST",),
            429: ("ACTION_BUSY",),
            502: ("ACTION_FAILED",),
            504: ("ACTION_TIMEOUT",),
        },
        body=ANY_OBJECT,
    ),
    ("POST", "/api/v3/plugins/assets/upload"): RouteDoc(
        errors={
            400: (
                "MISSING_PLUGIN_ID",
                "INVALID_PLUGIN_ID",
                "UNKNOWN_PLUGIN",
                "NO_FILES",
                "UNSUPPORTED_FILE_TYPE",
                "INVALID_PATH",
            ),
            413: ("FILE_TOO_LARGE",),
        },
        form=obj({"files": BINARY, "plugin_id": STRING}),
    ),
    ("GET", "/api/v3/plugins/assets/list"): RouteDoc(
        errors={
            400: (
                "MISSING_PLUGIN_ID",
                "INVALID_PLUGIN_ID",
                "UNKNOWN_PLUGIN",
                "INVALID_PATH",
            )
        },
        query=(Param("plugin_id", STRING),),
    ),
    ("POST", "/api/v3/plugins/assets/delete"): RouteDoc(
        errors={
            400: (
                "MISSING_PLUGIN_ID",
                "INVALID_PLUGIN_ID",
                "UNKNOWN_PLUGIN",
                "INVALID_PATH",
                "INVALID_JSON",
            ),
            404: ("UNKNOWN_ASSET",),
        },
        body=ANY_OBJECT,
    ),
    ("GET", "/api/v3/plugins/<plugin_id>/static/<path:subpath>"): RouteDoc(
        errors={
            400: (
                "INVALID_PLUGIN_ID",
                "INVALID_PATH",
            ),
            404: (
                "UNKNOWN_PLUGIN",
                "NOT_FOUND",
            ),
            413: ("FILE_TOO_LARGE",),
        },
        produces="application/octet-stream",
    ),
    ("GET", "/api/v3/calendar/list-calendars"): RouteDoc(
        errors={
            400: (
                "MISSING_PLUGIN_ID",
                "INVALID_PLUGIN_ID",
                "INVALID_PATH",
            ),
            404: ("UNKNOWN_PLUGIN",),
            409: ("NO_CALENDAR_LIST",),
            429: ("ACTION_BUSY",),
            502: ("ACTION_FAILED",),
            504: ("ACTION_TIMEOUT",),
        },
        query=(Param("plugin_id", STRING),),
    ),
    ("POST", "/api/v3/of-the-day/json/upload"): RouteDoc(
        errors={
            400: (
                "MISSING_PLUGIN_ID",
                "INVALID_PLUGIN_ID",
                "NO_FILES",
                "INVALID_PATH",
                "UNSUPPORTED_FILE_TYPE",
                "INVALID_DATA_FILE",
                "INVALID_FORM",
                "INVALID_FIELD",
                "INVALID_PLUGIN_CONFIG",
            ),
            404: ("UNKNOWN_PLUGIN",),
            409: ("CONFIG_INVALID_JSON",),
            413: (
                "FILE_TOO_LARGE",
                "CONFIG_TOO_LARGE",
            ),
            422: ("INVALID_PLUGIN_SCHEMA",),
            503: ("CONFIG_LOCKED",),
        },
        form=obj({"file": BINARY, "plugin_id": STRING}),
    ),
    ("POST", "/api/v3/of-the-day/json/delete"): RouteDoc(
        errors={
            400: (
                "MISSING_PLUGIN_ID",
                "INVALID_PLUGIN_ID",
                "INVALID_PATH",
                "UNSUPPORTED_FILE_TYPE",
                "INVALID_JSON",
                "INVALID_FORM",
                "INVALID_PLUGIN_CONFIG",
            ),
            404: (
                "UNKNOWN_PLUGIN",
                "UNKNOWN_DATA_FILE",
            ),
            409: ("CONFIG_INVALID_JSON",),
            413: ("FILE_TOO_LARGE",),
            422: ("INVALID_PLUGIN_SCHEMA",),
            503: ("CONFIG_LOCKED",),
        },
        body=ANY_OBJECT,
    ),
    ("DELETE", "/api/v3/of-the-day/json/delete"): RouteDoc(
        errors={
            400: (
                "MISSING_PLUGIN_ID",
                "INVALID_PLUGIN_ID",
                "INVALID_PATH",
                "UNSUPPORTED_FILE_TYPE",
                "INVALID_JSON",
                "INVALID_FORM",
                "INVALID_PLUGIN_CONFIG",
            ),
            404: (
                "UNKNOWN_PLUGIN",
                "UNKNOWN_DATA_FILE",
            ),
            409: ("CONFIG_INVALID_JSON",),
            413: ("FILE_TOO_LARGE",),
            422: ("INVALID_PLUGIN_SCHEMA",),
            503: ("CONFIG_LOCKED",),
        }
    ),
}
