"""The config routes of /api/v3: what each takes and answers (docs/API.md has the prose)."""

from __future__ import annotations

from web_service.openapi.route_doc import RouteDoc
from web_service.openapi.schemas import ANY_OBJECT

ROUTES: dict[tuple[str, str], RouteDoc] = {
    ("GET", "/api/v3/config/main"): RouteDoc(errors={409: ("CONFIG_INVALID_JSON",)}),
    ("POST", "/api/v3/config/main"): RouteDoc(
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
    ("GET", "/api/v3/config/raw/main"): RouteDoc(errors={409: ("CONFIG_INVALID_JSON",)}),
    ("POST", "/api/v3/config/raw/main"): RouteDoc(
        errors={
            400: (
                "INVALID_JSON",
                "INVALID_CONFIG",
                "INVALID_FIELD",
                "OUT_OF_RANGE",
                "UNKNOWN_KEY",
                "INVALID_PLUGIN_CONFIG",
                "HARDWARE_SETTING_REFUSED",
            ),
            413: ("CONFIG_TOO_LARGE",),
            415: ("UNSUPPORTED_CHARSET",),
            422: ("INVALID_PLUGIN_SCHEMA",),
            503: ("CONFIG_LOCKED",),
        },
        body=ANY_OBJECT,
    ),
    ("GET", "/api/v3/config/schedule"): RouteDoc(errors={409: ("CONFIG_INVALID_JSON",)}),
    ("POST", "/api/v3/config/schedule"): RouteDoc(
        errors={
            400: (
                "INVALID_JSON",
                "INVALID_FIELD",
                "UNKNOWN_FIELD",
            ),
            409: ("CONFIG_INVALID_JSON",),
            503: ("CONFIG_LOCKED",),
        },
        body=ANY_OBJECT,
    ),
    ("GET", "/api/v3/config/dim-schedule"): RouteDoc(errors={409: ("CONFIG_INVALID_JSON",)}),
    ("POST", "/api/v3/config/dim-schedule"): RouteDoc(
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
        body=ANY_OBJECT,
    ),
}
