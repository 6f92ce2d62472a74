"""The config routes of /api/v3: what each takes and answers (docs/API.md has the prose)."""

from __future__ import annotations

from web_service.openapi.route_doc import RouteDoc
from web_service.openapi.schemas import (
    ANY_OBJECT,
    ANYTHING,
    BOOLEAN,
    INTEGER,
    STRING,
    array,
    obj,
)

# The answer of every config save (docs/API.md, "Config saves").
SAVE_RESULT = obj(
    {
        "changed_sections": array(STRING),
        "warnings": array(ANYTHING),
        "restart_required": BOOLEAN,
        "restart_settings": array(STRING),
    },
    required=("changed_sections", "warnings", "restart_required"),
)
SCHEDULE = obj(
    {
        "enabled": BOOLEAN,
        "mode": STRING,
        "start_time": STRING,
        "end_time": STRING,
        "days": ANY_OBJECT,
    },
    required=("enabled", "mode"),
)
DIM_SCHEDULE = obj(
    {**SCHEDULE["properties"], "dim_brightness": INTEGER}, required=("enabled", "mode")
)

ROUTES: dict[tuple[str, str], RouteDoc] = {
    ("GET", "/api/v3/config/main"): RouteDoc(errors={409: ("CONFIG_INVALID_JSON",)}),
    ("POST", "/api/v3/config/main"): RouteDoc(
        data=SAVE_RESULT,
        errors={
            400: (
                "INVALID_JSON",
                "INVALID_FORM",
                "INVALID_FIELD",
                "OUT_OF_RANGE",
                "UNKNOWN_FIELD",
                "UNKNOWN_KEY",
                "UNKNOWN_PLUGIN",
                "INVALID_PLUGIN_CONFIG",
                "HARDWARE_SETTING_REFUSED",
            ),
            409: ("CONFIG_INVALID_JSON",),
            413: ("CONFIG_TOO_LARGE",),
            415: ("UNSUPPORTED_CHARSET",),
            422: ("INVALID_PLUGIN_SCHEMA",),
            503: ("CONFIG_LOCKED",),
        },
        body=ANY_OBJECT,
    ),
    ("GET", "/api/v3/config/raw/main"): RouteDoc(
        data=obj({"path": STRING, "content": STRING}, required=("path", "content")),
        errors={409: ("CONFIG_INVALID_JSON",)},
    ),
    ("POST", "/api/v3/config/raw/main"): RouteDoc(
        body=ANY_OBJECT,
        body_required=True,
        data=SAVE_RESULT,
        errors={
            400: (
                "INVALID_JSON",
                "INVALID_CONFIG",
                "INVALID_FIELD",
                "OUT_OF_RANGE",
                "UNKNOWN_KEY",
                "INVALID_PLUGIN_CONFIG",
                "HARDWARE_SETTING_REFUSED",
                "MISSING_PLUGIN_ID",
                "INVALID_PLUGIN_ID",
            ),
            413: ("CONFIG_TOO_LARGE",),
            415: ("UNSUPPORTED_CHARSET",),
            422: ("INVALID_PLUGIN_SCHEMA",),
            503: ("CONFIG_LOCKED",),
        },
    ),
    ("GET", "/api/v3/config/schedule"): RouteDoc(
        data=SCHEDULE, errors={409: ("CONFIG_INVALID_JSON",)}
    ),
    ("POST", "/api/v3/config/schedule"): RouteDoc(
        body=SCHEDULE,
        data=SCHEDULE,
        errors={
            400: (
                "INVALID_JSON",
                "INVALID_FIELD",
                "UNKNOWN_FIELD",
            ),
            409: ("CONFIG_INVALID_JSON",),
            503: ("CONFIG_LOCKED",),
        },
    ),
    ("GET", "/api/v3/config/dim-schedule"): RouteDoc(
        data=DIM_SCHEDULE, errors={409: ("CONFIG_INVALID_JSON",)}
    ),
    ("POST", "/api/v3/config/dim-schedule"): RouteDoc(
        body=DIM_SCHEDULE,
        data=DIM_SCHEDULE,
        errors={
            400: (
                "INVALID_JSON",
                "INVALID_FIELD",
                "OUT_OF_RANGE",
                "UNKNOWN_FIELD",
            ),
            409: ("CONFIG_INVALID_JSON",),
            503: ("CONFIG_LOCKED",),
        },
    ),
}
