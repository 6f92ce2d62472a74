"""The wifi routes of /api/v3: what each takes and answers (docs/API.md has the prose)."""

from __future__ import annotations

from web_service.openapi.route_doc import RouteDoc
from web_service.openapi.schemas import (
    ANY_OBJECT,
    ANYTHING,
    BOOLEAN,
    STRING,
    array,
    nullable,
    obj,
)

ROUTES: dict[tuple[str, str], RouteDoc] = {
    ("GET", "/api/v3/wifi/status"): RouteDoc(
        data=obj(
            {
                "device": nullable(STRING),
                "radio": BOOLEAN,
                "connected": BOOLEAN,
                "ssid": nullable(STRING),
                "ap_active": BOOLEAN,
                "ap_ssid": STRING,
                "auto_enable_ap_mode": BOOLEAN,
            },
            required=("device", "radio", "connected", "ssid", "ap_active"),
        ),
        errors={
            409: ("CONFIG_INVALID_JSON",),
            502: ("WIFI_COMMAND_FAILED",),
            503: ("WIFI_UNAVAILABLE",),
            504: ("WIFI_TIMEOUT",),
        },
    ),
    ("GET", "/api/v3/wifi/scan"): RouteDoc(
        data=obj(
            {"networks": array(ANY_OBJECT), "saved": array(ANYTHING)},
            required=("networks", "saved"),
        ),
        errors={502: ("WIFI_COMMAND_FAILED",), 503: ("WIFI_UNAVAILABLE",), 504: ("WIFI_TIMEOUT",)},
    ),
    ("POST", "/api/v3/wifi/connect"): RouteDoc(
        data=obj({"ssid": STRING}, required=("ssid",)),
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
        body=obj({"forget": STRING}),
        data=obj(
            {"disconnected": nullable(STRING), "forgotten": nullable(STRING)},
            required=("disconnected", "forgotten"),
        ),
        errors={
            400: ("INVALID_FIELD",),
            502: ("WIFI_COMMAND_FAILED",),
            503: ("WIFI_UNAVAILABLE",),
            504: ("WIFI_TIMEOUT",),
        },
    ),
    ("POST", "/api/v3/wifi/ap/enable"): RouteDoc(
        data=obj({"ap_active": BOOLEAN, "ap_ssid": STRING}, required=("ap_active",)),
        errors={502: ("WIFI_COMMAND_FAILED",), 503: ("WIFI_UNAVAILABLE",), 504: ("WIFI_TIMEOUT",)},
        body=ANY_OBJECT,
    ),
    ("POST", "/api/v3/wifi/ap/disable"): RouteDoc(
        data=obj({"ap_active": BOOLEAN}, required=("ap_active",)),
        errors={502: ("WIFI_COMMAND_FAILED",), 503: ("WIFI_UNAVAILABLE",), 504: ("WIFI_TIMEOUT",)},
        body=ANY_OBJECT,
    ),
    ("GET", "/api/v3/wifi/ap/auto-enable"): RouteDoc(
        data=obj({"auto_enable_ap_mode": BOOLEAN}, required=("auto_enable_ap_mode",)),
        example={"auto_enable_ap_mode": True},
        errors={409: ("CONFIG_INVALID_JSON",)},
    ),
    ("POST", "/api/v3/wifi/ap/auto-enable"): RouteDoc(
        body=obj({"auto_enable_ap_mode": BOOLEAN}, required=("auto_enable_ap_mode",)),
        body_required=True,
        data=obj(
            {"auto_enable_ap_mode": BOOLEAN, "monitor_restarted": BOOLEAN},
            required=("auto_enable_ap_mode",),
        ),
        errors={400: ("INVALID_FIELD",), 409: ("CONFIG_INVALID_JSON",)},
    ),
    ("GET", "/api/v3/wifi/radio"): RouteDoc(
        data=obj({"enabled": BOOLEAN}, required=("enabled",)),
        errors={502: ("WIFI_COMMAND_FAILED",), 503: ("WIFI_UNAVAILABLE",), 504: ("WIFI_TIMEOUT",)},
    ),
    ("POST", "/api/v3/wifi/radio"): RouteDoc(
        body=obj({"enabled": BOOLEAN}, required=("enabled",)),
        body_required=True,
        data=obj({"enabled": BOOLEAN}, required=("enabled",)),
        errors={
            400: ("INVALID_FIELD",),
            502: ("WIFI_COMMAND_FAILED",),
            503: ("WIFI_UNAVAILABLE",),
            504: ("WIFI_TIMEOUT",),
        },
    ),
}
