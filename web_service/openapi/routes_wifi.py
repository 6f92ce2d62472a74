"""The wifi routes of /api/v3: what each takes and answers (docs/API.md has the prose)."""

from __future__ import annotations

from web_service.openapi.route_doc import RouteDoc
from web_service.openapi.schemas import (
    ANY_OBJECT,
    BOOLEAN,
    STRING,
    obj,
)

ROUTES: dict[tuple[str, str], RouteDoc] = {
    ("GET", "/api/v3/wifi/status"): RouteDoc(
        errors={
            409: ("CONFIG_INVALID_JSON",),
            502: ("WIFI_COMMAND_FAILED",),
            503: ("WIFI_UNAVAILABLE",),
            504: ("WIFI_TIMEOUT",),
        }
    ),
    ("GET", "/api/v3/wifi/scan"): RouteDoc(
        errors={502: ("WIFI_COMMAND_FAILED",), 503: ("WIFI_UNAVAILABLE",), 504: ("WIFI_TIMEOUT",)}
    ),
    ("POST", "/api/v3/wifi/connect"): RouteDoc(
        body=obj({"ssid": STRING, "password": STRING}, required=("ssid",)),
        body_required=True,
        errors={
            400: ("INVALID_FIELD",),
            502: ("WIFI_COMMAND_FAILED",),
            503: ("WIFI_UNAVAILABLE",),
            504: ("WIFI_TIMEOUT",),
        },
    ),
    ("POST", "/api/v3/wifi/disconnect"): RouteDoc(
        errors={
            400: ("INVALID_FIELD",),
            502: ("WIFI_COMMAND_FAILED",),
            503: ("WIFI_UNAVAILABLE",),
            504: ("WIFI_TIMEOUT",),
        },
        body=ANY_OBJECT,
    ),
    ("POST", "/api/v3/wifi/ap/enable"): RouteDoc(
        errors={502: ("WIFI_COMMAND_FAILED",), 503: ("WIFI_UNAVAILABLE",), 504: ("WIFI_TIMEOUT",)},
        body=ANY_OBJECT,
    ),
    ("POST", "/api/v3/wifi/ap/disable"): RouteDoc(
        errors={502: ("WIFI_COMMAND_FAILED",), 503: ("WIFI_UNAVAILABLE",), 504: ("WIFI_TIMEOUT",)},
        body=ANY_OBJECT,
    ),
    ("GET", "/api/v3/wifi/ap/auto-enable"): RouteDoc(
        data=obj({"auto_enable_ap_mode": BOOLEAN}, required=("auto_enable_ap_mode",)),
        example={"auto_enable_ap_mode": True},
        errors={409: ("CONFIG_INVALID_JSON",)},
    ),
    ("POST", "/api/v3/wifi/ap/auto-enable"): RouteDoc(
        errors={400: ("INVALID_FIELD",), 409: ("CONFIG_INVALID_JSON",)}, body=ANY_OBJECT
    ),
    ("GET", "/api/v3/wifi/radio"): RouteDoc(
        errors={502: ("WIFI_COMMAND_FAILED",), 503: ("WIFI_UNAVAILABLE",), 504: ("WIFI_TIMEOUT",)}
    ),
    ("POST", "/api/v3/wifi/radio"): RouteDoc(
        errors={
            400: ("INVALID_FIELD",),
            502: ("WIFI_COMMAND_FAILED",),
            503: ("WIFI_UNAVAILABLE",),
            504: ("WIFI_TIMEOUT",),
        },
        body=ANY_OBJECT,
    ),
}
