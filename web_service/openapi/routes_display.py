"""The display routes of /api/v3: what each takes and answers (docs/API.md has the prose)."""

from __future__ import annotations

from web_service.openapi.route_doc import RouteDoc
from web_service.openapi.schemas import ANY_OBJECT

ROUTES: dict[tuple[str, str], RouteDoc] = {
    ("POST", "/api/v3/display/on-demand/start"): RouteDoc(
        errors={
            400: (
                "MISSING_PLUGIN_ID",
                "INVALID_PLUGIN_ID",
                "UNKNOWN_PLUGIN",
                "UNKNOWN_MODE",
                "PLUGIN_UNAVAILABLE",
                "INVALID_FIELD",
                "INVALID_JSON",
            ),
            409: ("ON_DEMAND_REFUSED",),
        },
        body=ANY_OBJECT,
        success=(200, 202),
    ),
    ("POST", "/api/v3/display/on-demand/stop"): RouteDoc(
        errors={400: ("INVALID_JSON",)}, body=ANY_OBJECT, success=(200, 202)
    ),
    ("POST", "/api/v3/display/next"): RouteDoc(
        errors={400: ("INVALID_JSON",), 409: ("DISPLAY_CONTROL_REFUSED",)},
        body=ANY_OBJECT,
        success=(200, 202),
    ),
    ("GET", "/api/v3/display/power"): RouteDoc(),
    ("POST", "/api/v3/display/power"): RouteDoc(
        errors={
            400: (
                "INVALID_JSON",
                "INVALID_FIELD",
            )
        },
        body=ANY_OBJECT,
        success=(200, 202),
    ),
    ("GET", "/api/v3/display/preview"): RouteDoc(),
    ("POST", "/api/v3/notify"): RouteDoc(
        errors={
            400: (
                "INVALID_FIELD",
                "INVALID_JSON",
            )
        },
        body=ANY_OBJECT,
        success=(200, 202),
    ),
    ("GET", "/api/v3/notify"): RouteDoc(),
    ("DELETE", "/api/v3/notify/<path:notification_id>"): RouteDoc(
        errors={400: ("INVALID_FIELD",), 404: ("UNKNOWN_NOTIFICATION",)}, success=(200, 202)
    ),
    ("GET", "/api/v3/custom"): RouteDoc(),
    ("POST", "/api/v3/custom/<name>"): RouteDoc(
        errors={
            400: (
                "INVALID_NAME",
                "INVALID_CUSTOM_APP",
                "INVALID_JSON",
            ),
            409: (
                "PLUGIN_DISABLED",
                "CUSTOM_APP_REFUSED",
            ),
        },
        body=ANY_OBJECT,
        success=(200, 202),
    ),
    ("DELETE", "/api/v3/custom/<name>"): RouteDoc(
        errors={
            400: (
                "INVALID_NAME",
                "INVALID_JSON",
            ),
            404: ("UNKNOWN_CUSTOM_APP",),
        },
        success=(200, 202),
    ),
}
