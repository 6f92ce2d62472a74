"""The display routes of /api/v3: what each takes and answers (docs/API.md has the prose)."""

from __future__ import annotations

from web_service.openapi.route_doc import RouteDoc
from web_service.openapi.schemas import (
    ANY_OBJECT,
    ANYTHING,
    BOOLEAN,
    INTEGER,
    NUMBER,
    STRING,
    array,
    enum,
    nullable,
    obj,
)

ROUTES: dict[tuple[str, str], RouteDoc] = {
    ("POST", "/api/v3/display/on-demand/start"): RouteDoc(
        body_example={"plugin_id": "clock", "duration": 60},
        data=obj({"state": STRING, "service": STRING, "request_id": STRING}, required=("state",)),
        body=obj(
            {"plugin_id": STRING, "mode": STRING, "duration": NUMBER, "pinned": BOOLEAN},
            required=("plugin_id",),
        ),
        body_required=True,
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
        success=(200, 202),
    ),
    ("POST", "/api/v3/display/on-demand/stop"): RouteDoc(
        data=obj({"state": STRING, "service": STRING, "request_id": STRING}, required=("state",)),
        errors={400: ("INVALID_JSON",)},
        body=ANY_OBJECT,
        success=(200, 202),
    ),
    ("POST", "/api/v3/display/next"): RouteDoc(
        data=obj({"state": STRING, "service": STRING, "request_id": STRING}, required=("state",)),
        errors={400: ("INVALID_JSON",), 409: ("DISPLAY_CONTROL_REFUSED",)},
        body=ANY_OBJECT,
        success=(200, 202),
    ),
    ("GET", "/api/v3/display/power"): RouteDoc(
        data=obj({"service": STRING}, required=("service",))
    ),
    ("POST", "/api/v3/display/power"): RouteDoc(
        body_example={"on": False},
        data=obj({"state": STRING, "service": STRING, "request_id": STRING}, required=("state",)),
        body=obj({"on": BOOLEAN}, required=("on",)),
        body_required=True,
        errors={
            400: (
                "INVALID_JSON",
                "INVALID_FIELD",
            )
        },
        success=(200, 202),
    ),
    ("GET", "/api/v3/display/preview"): RouteDoc(
        data=obj(
            {
                "width": nullable(INTEGER),
                "height": nullable(INTEGER),
                "png_base64": nullable(STRING),
            },
            required=("width", "height", "png_base64"),
        )
    ),
    ("POST", "/api/v3/notify"): RouteDoc(
        body_example={"text": "Door open", "icon": "door", "priority": "high"},
        data=obj({"id": STRING}, required=("id",)),
        body=obj(
            {
                "text": STRING,
                "icon": ANYTHING,
                "color": ANYTHING,
                "duration": NUMBER,
                "repeat": INTEGER,
                "priority": enum("low", "normal", "high", "critical"),
                "behavior": enum("now", "next", "queue"),
            },
            required=("text",),
        ),
        body_required=True,
        errors={
            400: (
                "INVALID_FIELD",
                "INVALID_JSON",
            )
        },
        success=(200, 202),
    ),
    ("GET", "/api/v3/notify"): RouteDoc(
        data=obj(
            {
                "queue": array(ANY_OBJECT),
                "recent": array(ANY_OBJECT),
                "service": STRING,
                "icons": obj({"builtin": array(STRING), "stored": array(STRING)}),
            },
            required=("queue", "recent", "service"),
        )
    ),
    ("DELETE", "/api/v3/notify/<path:notification_id>"): RouteDoc(
        data=obj({"id": STRING}, required=("id",)),
        errors={400: ("INVALID_FIELD",), 404: ("UNKNOWN_NOTIFICATION",)},
        success=(200, 202),
    ),
    ("GET", "/api/v3/custom"): RouteDoc(
        data=obj(
            {"apps": array(ANY_OBJECT), "service": STRING, "plugin_enabled": BOOLEAN},
            required=("apps", "service", "plugin_enabled"),
        )
    ),
    ("POST", "/api/v3/custom/<name>"): RouteDoc(
        data=obj(
            {"state": STRING, "name": STRING, "service": STRING},
            required=("state", "name", "service"),
        ),
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
        data=obj(
            {"state": STRING, "name": STRING, "service": STRING},
            required=("state", "name", "service"),
        ),
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
